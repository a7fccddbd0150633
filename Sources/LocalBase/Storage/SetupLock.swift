import Airtable
import Foundation
@preconcurrency import Glibc

extension LocalBase {
    /// Opens the base at `path` (creating the file if it is new) on a thread of its own: opening may wait
    /// up to the busy timeout for another process's lock, which must not hold a thread of the cooperative pool.
    public static func open(path: String, clock: @escaping @Sendable () -> Date = Date.init,
                            iteratorLifetime: Duration = .seconds(600),
                            owner: OwnerProfile = .placeholder) async throws(AirtableError) -> LocalBase {
        let result: Result<LocalBase, AirtableError> = await offThePool("LocalBase open") {
            do throws(AirtableError) {
                return .success(try LocalBase(path: path, clock: clock, iteratorLifetime: iteratorLifetime, owner: owner))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Runs `setUp` (creating a new file's tables, seeding it) while holding the file's setup lock, so
    /// that when several processes start on one new file together, one sets it up and the others wait
    /// and then find it done, instead of each creating the same tables.
    ///
    /// The lock is `flock(2)` on a sidecar file, `<path>.setup-lock`, left in place (removing it would
    /// let a late process lock a file nobody else sees). It is not the database file itself: SQLite's
    /// own locks on that file are lost if this process opens and closes it again. The wait happens on a
    /// thread of its own, never on the cooperative pool; the kernel lets go of the lock if the process dies.
    public static func withSetupLock<T: Sendable>(path: String, _ setUp: () async throws -> T) async throws -> T {
        let lock = try await SetupLock.acquire(path: path + ".setup-lock")
        defer { lock.release() }
        return try await setUp()
    }
}

/// An exclusive `flock` held on a sidecar file until released.
struct SetupLock: Sendable {
    let descriptor: Int32

    static func acquire(path: String) async throws(AirtableError) -> SetupLock {
        let result: Result<SetupLock, AirtableError> = await offThePool("LocalBase setup lock") {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                return .failure(.localStore("cannot create the lock file \(path): \(String(cString: strerror(errno)))"))
            }
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let reason = String(cString: strerror(errno))
                    close(descriptor)
                    return .failure(.localStore("cannot lock \(path): \(reason)"))
                }
            }
            return .success(SetupLock(descriptor: descriptor))
        }
        return try result.get()
    }

    /// Unlocks by closing: the lock belongs to this descriptor only.
    func release() {
        close(descriptor)
    }
}

/// Runs blocking `work` on a new thread and resumes the caller with its result.
func offThePool<T: Sendable>(_ name: String, _ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.name = name
        thread.start()
    }
}
