import Dispatch
import Synchronization

/// Ends a printer send's wait when its thread stops making progress: the thread reports each step
/// (opened or connected, bytes taken) and its result; a timer on a queue of its own looks again at each
/// step's deadline and, past it, answers the waiting caller with a timeout. Whichever comes first answers;
/// the other is dropped. So no destination, however it hangs, holds the counter longer than its deadlines.
final class SendWatch: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<Void, PrinterError>, Never>?
        var answered = false
        var writing = false
        var lastProgress = ContinuousClock.now
    }

    private let state = Mutex(State())
    private let address: String
    /// What the first step is called in a timeout: "connect" for a network printer, else "open".
    private let openStage: String
    private let openLimit: Duration
    private let writeLimit: Duration
    /// Beyond the thread's own deadlines, so that its more precise error normally comes first.
    private let grace: Duration

    private static let timers = DispatchQueue(label: "PrinterSink deadlines")

    init(address: String, openStage: String, openLimit: Duration, writeLimit: Duration,
         grace: Duration = .milliseconds(500)) {
        self.address = address
        self.openStage = openStage
        self.openLimit = openLimit
        self.writeLimit = writeLimit
        self.grace = grace
    }

    /// Takes the caller's continuation and starts watching.
    func begin(_ continuation: CheckedContinuation<Result<Void, PrinterError>, Never>) {
        state.withLock { $0.continuation = continuation; $0.lastProgress = .now }
        schedule(after: openLimit + grace)
    }

    /// The thread moved on: connected or opened (`writing`), or more bytes were taken.
    func progress(writing: Bool) {
        state.withLock {
            $0.writing = $0.writing || writing
            $0.lastProgress = .now
        }
    }

    /// The thread's result, or the watch's timeout; only the first is passed on.
    func finish(_ result: Result<Void, PrinterError>) {
        let continuation = state.withLock { state -> CheckedContinuation<Result<Void, PrinterError>, Never>? in
            guard !state.answered else { return nil }
            state.answered = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: result)
    }

    private func schedule(after delay: Duration) {
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        Self.timers.asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 1_000_000))) { [self] in check() }
    }

    private func check() {
        let (answered, writing, lastProgress) = state.withLock { ($0.answered, $0.writing, $0.lastProgress) }
        guard !answered else { return }
        let limit = (writing ? writeLimit : openLimit) + grace
        let due = lastProgress + limit
        let now = ContinuousClock.now
        guard now >= due else {
            schedule(after: due - now)
            return
        }
        let stage = writing ? "write" : openStage
        finish(.failure(.timedOut(address: address, stage: stage, seconds: PrinterSink.seconds(writing ? writeLimit : openLimit))))
    }
}
