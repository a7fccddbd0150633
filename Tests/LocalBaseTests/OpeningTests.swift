import Airtable
import Foundation
@testable import LocalBase
import Testing
import TestSupport

/// Opening and first-run set-up: waiting for another writer never holds a thread of the cooperative
/// pool, and set-up done under the setup lock happens once however many start together.
@Suite struct OpeningTests {
    @Test func openersWaitingForAnotherWritersLockLeaveThePoolFree() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let baseID = try await LocalBase.open(path: path).baseID
        // Another writer (as another process would) holds the write lock; opening takes it to check the file.
        let holder = try SQLiteConnection(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        var committed = false
        defer { if !committed { try? holder.execute("ROLLBACK") } }

        // More openers than the pool has threads. Were any of them to wait for the lock on a pool thread,
        // this task could not run again to let go of the lock before their busy timeout failed them.
        let openers = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let opening = Task {
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<openers {
                    group.addTask {
                        startedSignal.yield()
                        return try await LocalBase.open(path: path).baseID
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
        }
        var count = 0
        for await _ in started {
            count += 1
            if count == openers { break }
        }
        try holder.execute("COMMIT")
        committed = true
        let opened = try await opening.value
        #expect(opened == Array(repeating: baseID, count: openers))
    }

    @Test func setUpUnderTheSetupLockHappensOnceWhenManyStartTogether() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let creations = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await LocalBase.withSetupLock(path: path) { () async throws -> Bool in
                        let base = try await LocalBase.open(path: path)
                        guard try await base.schema().table("Orders") == nil else { return false }
                        _ = try await base.createTable(TableSpec(name: "Orders", fields: orderFields))
                        return true
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(creations == 1)
        #expect(try await LocalBase.open(path: path).schema().tables.map(\.name) == ["Orders"])
    }
}
