import Dispatch
import Foundation
import LineEditor
import Synchronization

/// Where the interpreter writes: normal output and errors apart, so a one-shot command's error goes
/// to standard error. Injected, so tests read exactly what staff would see.
public protocol ShopOutput: Sendable {
    func write(_ text: String)
    func writeError(_ text: String)
    /// Returns once everything written is out; false when some of it could not be (`DurableAcknowledgements`).
    func settle() async -> Bool
    /// Whether output has stopped for good (the session stops too).
    var hasStopped: Bool { get }
}

extension ShopOutput {
    public func settle() async -> Bool { true }
    public var hasStopped: Bool { false }
}

/// A piped REPL's output on a store whose commits are made durable apart (`LocalBase.deferDurability`): each text
/// goes out, in order, once every commit made before it was written is on the disk. So nothing is acknowledged (an
/// order placed, a payment taken) that a power cut could take back, and the disk's wait for one command's commit
/// runs on this queue's thread while the next command is worked out. A sync that fails stops all output but one
/// error, and the session with it.
public final class DurableAcknowledgements: ShopOutput {
    private let output: any ShopOutput
    /// Blocking: returns once every commit made before the call is on the disk.
    private let makeDurable: @Sendable () throws -> Void
    private let queue = DispatchQueue(label: "acknowledgements")
    private let failure = Mutex<String?>(nil)

    public init(_ output: any ShopOutput, makeDurable: @escaping @Sendable () throws -> Void) {
        self.output = output
        self.makeDurable = makeDurable
    }

    public func write(_ text: String) { pass { $0.write(text) } }
    public func writeError(_ text: String) { pass { $0.writeError(text) } }

    /// Everything written before it was handed over to the queue, in order, once it may be told.
    private func pass(_ body: @escaping @Sendable (any ShopOutput) -> Void) {
        queue.async { [self] in
            guard !hasStopped else { return }
            do {
                try makeDurable()
            } catch {
                failure.withLock { $0 = "\(error)" }
                output.writeError("drinkshop: \(error); nothing after this line was acknowledged, and the session stops\n")
                return
            }
            body(output)
        }
    }

    public func settle() async -> Bool {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        return !hasStopped
    }

    public var hasStopped: Bool { failure.withLock { $0 } != nil }
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
