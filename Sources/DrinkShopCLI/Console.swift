import Foundation
import LineEditor

/// Lines for the person who started drinkshop, on standard output and standard error.
///
/// Either may be closed under us (`drinkshop serve | head -1`, a log rotated away, a terminal gone): the
/// line is then lost and nothing else is. `FileHandle.write(_:)` would stop the process with "Broken pipe"
/// instead, and SIGPIPE (ignored from the first line of `main.swift`) would end it without a word.
enum Console {
    /// Stops SIGPIPE from ending the process, so a write to a closed pipe or socket fails with EPIPE and the
    /// caller decides. Called first thing in `main.swift`, before any thread or output exists.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes `line` and a newline to standard output; lost if it is closed.
    static func say(_ line: String) {
        FileDescriptorIO.writeAll(STDOUT_FILENO, line + "\n")
    }

    /// Writes `line` and a newline to standard error; lost if it is closed.
    static func complain(_ line: String) {
        FileDescriptorIO.writeAll(STDERR_FILENO, line + "\n")
    }
}
