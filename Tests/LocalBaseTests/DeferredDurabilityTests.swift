import Airtable
import Foundation
import LocalBase
import Testing
import TestSupport

/// A base whose commits are made durable apart (a piped REPL's, `LocalBase.deferDurability`): one WAL sync covers
/// every commit made before it, and none is made when nothing was committed since.
@Suite struct DeferredDurabilityTests {
    @Test("by default every commit waits for the disk itself: makeDurable syncs nothing; a base in memory cannot defer")
    func defaultWaitsForTheDisk() async throws {
        #expect(try await LocalBase.inMemory().deferDurability() == false)
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let base = try LocalBase(path: path)
        _ = try await base.createTable(TableSpec(name: "Orders", fields: orderFields))
        _ = try await base.createRecord(in: "Orders", ["name": "紅茶"])
        try await base.makeDurable()
        #expect(base.durableSyncs == 0)
    }

    @Test("deferred: one sync covers every commit before it, none without a commit since, and callers at once share one")
    func oneSyncCoversTheCommitsBeforeIt() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let base = try LocalBase(path: path)
        _ = try await base.createTable(TableSpec(name: "Orders", fields: orderFields))
        #expect(try await base.deferDurability())
        _ = try await base.createRecord(in: "Orders", ["name": "a"])
        try await base.makeDurable()
        let first = base.durableSyncs
        #expect(first == 1)
        try await base.makeDurable()
        #expect(base.durableSyncs == first, "nothing was committed since")
        for name in ["b", "c", "d"] { _ = try await base.createRecord(in: "Orders", ["name": .string(name)]) }
        try await base.makeDurable()
        #expect(base.durableSyncs == first + 1, "one sync for the three commits")
        _ = try await base.createRecord(in: "Orders", ["name": "e"])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { try await base.makeDurable() } }
            try await group.waitForAll()
        }
        #expect(base.durableSyncs == first + 2, "eight callers at once, one sync")
        // Every commit is in the file, read by another base.
        let other = try LocalBase(path: path)
        #expect(try await other.allRecords(in: "Orders").count == 5)
    }
}
