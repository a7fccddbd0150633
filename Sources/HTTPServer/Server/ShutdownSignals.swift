import Dispatch
@preconcurrency import Glibc
import Synchronization

/// Signals being watched for a graceful shutdown; watching stops when this is cancelled or released.
public final class ShutdownSignalWatch: @unchecked Sendable {
    // DispatchSource is thread-safe to cancel; the array itself never changes after init.
    private let sources: [any DispatchSourceSignal]
    /// Sources not yet armed, and who waits for them all to be.
    private let arming = Mutex<(pending: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

    fileprivate init(sources: [any DispatchSourceSignal]) {
        self.sources = sources
        arming.withLock { $0.pending = sources.count }
    }

    /// Returns once every signal is being watched (dispatch arms its sources asynchronously; a signal
    /// that arrives before is ignored).
    public func armed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = arming.withLock { state in
                if state.pending > 0 { state.waiters.append(continuation) }
                return state.pending == 0
            }
            if done { continuation.resume() }
        }
    }

    fileprivate func sourceArmed() {
        let waiters = arming.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.pending -= 1
            guard state.pending == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Stops watching; the signals keep being ignored rather than falling back to killing the process.
    public func cancel() {
        for source in sources { source.cancel() }
    }

    deinit { cancel() }
}

extension HTTPServer {
    /// Shuts the server down gracefully (see ``shutdown()``) when the process receives one of `signals`.
    ///
    /// The signals' default action (terminating at once) is replaced by this, via dispatch sources rather
    /// than a C signal handler, so no Swift code runs in signal context.
    /// Watching starts a moment after this returns (dispatch arms the sources asynchronously; await the
    /// watch's ``ShutdownSignalWatch/armed()``); a signal arriving in between is ignored.
    /// - Returns: the watch; keep it for as long as the signals should stop the server.
    public func shutdownOnSignals(_ signals: [Int32] = [SIGINT, SIGTERM]) -> ShutdownSignalWatch {
        let queue = DispatchQueue(label: "HTTPServer.signals")
        let sources = signals.map { number -> any DispatchSourceSignal in
            _ = signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in
                guard let self else { return }
                Task { await self.shutdown() }
            }
            return source
        }
        let watch = ShutdownSignalWatch(sources: sources)
        for source in sources {
            source.setRegistrationHandler { [weak watch] in watch?.sourceArmed() }
            source.resume()
        }
        return watch
    }
}
