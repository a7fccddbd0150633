import CAllocator
import Foundation
import Glibc
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

    /// For a command, or the REPL, that is not `serve`: glibc's allocator serves every thread from its main
    /// heap, grown 16 MiB at a time (`allocator_use_one_heap`). Called before any thread exists. By default
    /// the store's own thread, where every read is parsed, got a heap of its own that glibc grew by one
    /// `mprotect` call per 4 KiB page: a day's report made about 630 of them. The reserve is address space
    /// only (a page counts once touched), so peak memory is unchanged. `serve`, whose many connection
    /// threads allocate at once, keeps a heap per thread.
    static func tuneAllocator(serving: Bool) {
        guard !serving else { return }
        _ = allocator_use_one_heap(16 << 20)
    }

    /// Writes `line` and a newline to standard output; lost if it is closed.
    static func say(_ line: String) {
        FileDescriptorIO.writeAll(STDOUT_FILENO, TerminalDevice.fitted(line, for: STDOUT_FILENO) + "\n")
    }

    /// Writes `line` and a newline to standard error; lost if it is closed.
    static func complain(_ line: String) {
        FileDescriptorIO.writeAll(STDERR_FILENO, TerminalDevice.fitted(line, for: STDERR_FILENO) + "\n")
    }
}
