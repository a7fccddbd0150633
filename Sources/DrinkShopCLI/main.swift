import Foundation

Console.ignoreBrokenPipes()
let status = await DrinkShopCLI.run(arguments: Array(CommandLine.arguments.dropFirst()),
                                    environment: ProcessInfo.processInfo.environment)
exit(status)
