import Foundation

/// Runs seconds of blocking or CPU-bound work (a slow PIN hash, a long synchronous loop) on a thread of its
/// own and resumes the test with the result, so the cooperative pool's two threads stay free for the
/// tasks of the suites running beside it (a live server's handlers among them). Keep `#expect` outside
/// the closure: it belongs to the test's task.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
