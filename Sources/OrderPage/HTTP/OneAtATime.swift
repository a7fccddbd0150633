import Synchronization

/// Runs async work one piece at a time, in arrival order, without blocking a thread while waiting: the
/// page's sends, so the check of how many online orders are open and the order placed after it are never
/// interleaved with another send's.
final class OneAtATime: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func run<T: Sendable>(_ work: () async -> T) async -> T {
        await acquire()
        let result = await work()
        release()
        return result
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
