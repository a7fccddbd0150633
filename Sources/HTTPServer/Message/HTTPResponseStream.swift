import Synchronization

/// The body of a response that stays open and is written piece by piece (Server-Sent Events, a live
/// page), instead of being known in full when the handler returns.
///
/// A handler creates one, returns it in ``HTTPResponse/stream``, and keeps sending on it from a task of
/// its own. The server sends the head at once, without `Content-Length`, and closes the connection when
/// the stream ends: when the producer calls ``finish()``, the client goes away, the client reads too
/// slowly, or the server shuts down. Producers learn of the end through ``onClose(_:)`` and stop.
public final class HTTPResponseStream: Sendable, Equatable {
    private struct State {
        var buffered: [[UInt8]] = []
        var deliver: (@Sendable ([UInt8]) -> Void)?
        var finishRequested = false
        var endDelivery: (@Sendable () -> Void)?
        var closed = false
        var closeHandlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Whether the stream has ended; sending then does nothing.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Queues `bytes` for the client. Returns false once the stream has closed.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        // Delivered under the lock so concurrent senders and the attach below keep their order.
        state.withLock { state in
            guard !state.closed, !state.finishRequested else { return false }
            if let deliver = state.deliver { deliver(bytes) } else { state.buffered.append(bytes) }
            return true
        }
    }

    /// Ends the response once what was sent has been written; the connection then closes.
    public func finish() {
        state.withLock { state in
            guard !state.closed, !state.finishRequested else { return }
            state.finishRequested = true
            state.endDelivery?()
        }
    }

    /// Runs `handler` once when the stream closes, for whatever reason (at once if it already has).
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.closed { return true }
            state.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    public static func == (lhs: HTTPResponseStream, rhs: HTTPResponseStream) -> Bool { lhs === rhs }

    // MARK: The server's side

    /// Connects the stream to its connection; bytes sent before are delivered now, in order.
    func attach(deliver: @escaping @Sendable ([UInt8]) -> Void, end: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard !state.closed else { return }
            state.deliver = deliver
            state.endDelivery = end
            for bytes in state.buffered { deliver(bytes) }
            state.buffered = []
            if state.finishRequested { end() }
        }
    }

    /// The connection is gone (or never carried the stream): nothing more is delivered.
    func close() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed else { return [] }
            state.closed = true
            state.deliver = nil
            state.endDelivery = nil
            state.buffered = []
            defer { state.closeHandlers = [] }
            return state.closeHandlers
        }
        for handler in handlers { handler() }
    }
}
