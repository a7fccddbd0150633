import Dispatch
import Foundation
import Glibc
import Synchronization

/// A task executor with one thread of its own, outside Swift's cooperative pool. Jobs run there one at a
/// time, and a job may wait in place (for SQLite's write lock, a commit's fsync) without holding a thread
/// of the pool; the embedded store checks `mayWaitHere` and then does its work on this thread instead of
/// hopping to its queue and back, two thread switches fewer for every call.
///
/// The REPL runs under it (`withTaskExecutorPreference`): a counter does one thing at a time anyway, and
/// a piped day of orders no longer pays for waking a queue and then the pool for each one.
public final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    // `jobs` is the only state shared between threads; the thread itself only reads it under the lock.
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    /// Starts the thread, named `name` where the platform shows names.
    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Whether the current thread is one of these executors' threads, where waiting blocks no thread of
    /// the cooperative pool.
    public static var mayWaitHere: Bool {
        pthread_getspecific(marker.key) != nil
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
        ready.signal()
    }

    private func run() {
        pthread_setspecific(Self.marker.key, UnsafeRawPointer(bitPattern: 1))
        while true {
            ready.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// The thread-specific key whose value marks these executors' threads.
    private struct Marker: @unchecked Sendable {
        var key = pthread_key_t()
    }

    private static let marker: Marker = {
        var marker = Marker()
        pthread_key_create(&marker.key, nil)
        return marker
    }()
}
