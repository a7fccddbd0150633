import Synchronization

/// Runs jobs one after another in the order they were handed in: the gateway's writes reach the upstream
/// in the order they arrived, whichever counter sent them. Waiting is `await`, never a blocked thread.
final class WriteLane: Sendable {
    private let last = Mutex<Task<Void, Never>?>(nil)

    /// Runs `job` after every job handed in before it has finished; returns its result.
    func run<Result: Sendable>(_ job: @escaping @Sendable () async -> Result) async -> Result {
        let task: Task<Result, Never> = last.withLock { last in
            let previous = last
            let task = Task {
                await previous?.value
                return await job()
            }
            last = Task { _ = await task.value }
            return task
        }
        return await task.value
    }
}
