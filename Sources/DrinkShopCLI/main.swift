import Foundation
import Glibc

Console.ignoreBrokenPipes()
Console.tuneAllocator(serving: DrinkShopCLI.serves(Array(CommandLine.arguments.dropFirst())))
let status = await DrinkShopCLI.run(arguments: Array(CommandLine.arguments.dropFirst()),
                                    environment: ProcessInfo.processInfo.environment)
exit(status)
