import Foundation
import LineEditor
import Synchronization

/// Where the interpreter writes: normal output and errors apart, so a one-shot command's error goes
/// to standard error. Injected, so tests read exactly what staff would see.
public protocol ShopOutput: Sendable {
    func write(_ text: String)
    func writeError(_ text: String)
}

/// Standard output and standard error, unbuffered line by line, through the terminal encoder (text from the
/// store may hold escape sequences, bidi controls or line separators: they are drawn, not obeyed), fitted to
/// the terminal's width when it is one (`TerminalDevice.fitted`: no error or line broken mid-word).
public struct StandardOutput: ShopOutput {
    public init() {}

    public func write(_ text: String) {
        FileDescriptorIO.writeAll(1, TerminalDevice.fitted(TerminalSafeText.encode(text), for: 1))
    }

    public func writeError(_ text: String) {
        FileDescriptorIO.writeAll(2, TerminalDevice.fitted(TerminalSafeText.encode(text), for: 2))
    }
}

/// Collects output in memory (the tests read what the interpreter wrote).
public final class CapturedOutput: ShopOutput {
    private let buffer = Mutex<(out: String, err: String)>(("", ""))

    public init() {}

    public func write(_ text: String) { buffer.withLock { $0.out += text } }
    public func writeError(_ text: String) { buffer.withLock { $0.err += text } }

    /// Everything written to the output so far.
    public var text: String { buffer.withLock { $0.out } }
    /// Everything written as errors so far.
    public var errors: String { buffer.withLock { $0.err } }
}
