import Dispatch
@preconcurrency import Glibc

/// Signals being watched for a graceful shutdown; watching stops when this is cancelled or released.
public final class ShutdownSignalWatch: @unchecked Sendable {
    // DispatchSource is thread-safe to cancel; the array itself never changes after init.
    private let sources: [any DispatchSourceSignal]

    fileprivate init(sources: [any DispatchSourceSignal]) {
        self.sources = sources
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
    /// Watching starts a moment after this returns (dispatch arms the sources asynchronously); a signal
    /// arriving in between is ignored.
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
            source.resume()
            return source
        }
        return ShutdownSignalWatch(sources: sources)
    }
}
