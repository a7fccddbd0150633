import Foundation
import Glibc

// The Swift side of scripts/bench: in-process measurements the Python driver cannot make itself.
// Prints one JSON object per run on standard output.
signal(SIGPIPE, SIG_IGN)  // a closed pipe fails a write, it does not end the run
let arguments = Array(CommandLine.arguments.dropFirst())
let status = await BenchCommands.run(arguments)
exit(status)
