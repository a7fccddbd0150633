import Airtable
import AirtableFormula
import Foundation
import LocalBase
import Testing
import TestSupport

@Suite struct WriteTests {
    @Test func patchMergesAndPutReplaces() async throws {
        let clock = TestClock()
        let (base, _) = try await makeOrdersBase(clock: clock)
        let record = try await base.createRecord(in: "Orders", ["name": "紅茶", "qty": 1, "size": "中杯"])
        clock.advance(by: 5)
        let patched = try await base.updateRecords(in: "Orders", [RecordUpdate(id: record.id, fields: ["qty": 2])],
                                                   replace: false, options: WriteOptions())[0]
        #expect(patched.fields["name"] == "紅茶")
        #expect(patched.fields["size"] == "中杯")
        #expect(patched.fields["qty"] == 2)
        #expect(patched.createdTime == record.createdTime)
        #expect(patched.fields["modified"] == .string(AirtableTimestamp.format(clock.now)))

        let replaced = try await base.updateRecords(in: "Orders", [RecordUpdate(id: record.id, fields: ["qty": 3])],
                                                    replace: true, options: WriteOptions())[0]
        // PUT cleared every field it was not given, but computed fields stay.
        #expect(Set(replaced.fields.keys) == ["qty", "number", "created", "modified"])
        #expect(replaced.fields["number"] == record.fields["number"])
        let read = try await base.getRecord(in: "Orders", id: record.id, options: ReadOptions())
        #expect(read == replaced)
    }

    @Test func updatesReturnRecordsInRequestOrder() async throws {
        let (base, _) = try await makeOrdersBase()
        let records = try await base.createRecords(in: "Orders", [["name": "a"], ["name": "b"], ["name": "c"]],
                                                   options: WriteOptions())
        let updates = records.reversed().map { RecordUpdate(id: $0.id, fields: ["qty": 7]) }
        let updated = try await base.updateRecords(in: "Orders", updates, replace: false, options: WriteOptions())
        #expect(updated.map(\.id) == records.reversed().map(\.id))
        #expect(updated.allSatisfy { $0.fields["qty"] == 7 })
    }

    @Test func oneBadRecordWritesNothing() async throws {
        let (base, _) = try await makeOrdersBase()
        var batch: [Fields] = (1...30).map { ["name": .string("drink \($0)"), "qty": .int($0)] }
        batch[17]["qty"] = "many"
        let error = await apiError { try await base.createRecords(in: "Orders", batch, options: WriteOptions()) }
        #expect(error?.type == "INVALID_VALUE_FOR_COLUMN")
        #expect(error?.message?.contains("in record 18 of the request") == true)
        #expect(try await base.allRecords(in: "Orders").isEmpty)

        // The same for updates: the good updates in the batch are not applied either.
        let kept = try await base.createRecords(in: "Orders", [["name": "a", "qty": 1], ["name": "b", "qty": 2]],
                                                options: WriteOptions())
        let updates = [RecordUpdate(id: kept[0].id, fields: ["qty": 10]), RecordUpdate(id: kept[1].id, fields: ["size": "XL"])]
        #expect(await apiError { try await base.updateRecords(in: "Orders", updates, replace: false, options: WriteOptions()) }
            == .invalidChoice("XL"))
        let now = try await base.allRecords(in: "Orders")
        #expect(now.map { $0.fields["qty"] } == [1, 2])
    }

    @Test func typecastOptionsAreNotKeptWhenTheBatchFails() async throws {
        let (base, table) = try await makeOrdersBase()
        let error = await apiError {
            try await base.createRecords(in: "Orders", [["size": "特大杯"], ["qty": "x"]], options: WriteOptions(typecast: true))
        }
        #expect(error?.type == "INVALID_VALUE_FOR_COLUMN")
        #expect(try await base.schema().table(table.id)?.field("size")?.choices == ["中杯", "大杯"])
    }

    @Test func missingIdsGetTheirOwnErrors() async throws {
        let (base, _) = try await makeOrdersBase()
        let record = try await base.createRecord(in: "Orders", ["name": "a"])
        let ghost = "rec" + String(repeating: "A", count: 14)
        let update = await apiError {
            try await base.updateRecords(in: "Orders", [RecordUpdate(id: record.id, fields: ["qty": 1]),
                                                        RecordUpdate(id: ghost, fields: ["qty": 2])],
                                         replace: false, options: WriteOptions())
        }
        #expect(update == .rowDoesNotExist(ghost))
        #expect(try await base.getRecord(in: "Orders", id: record.id, options: ReadOptions()).fields["qty"] == nil)

        #expect(await apiError { try await base.deleteRecords(in: "Orders", ids: [record.id, ghost]) } == .recordNotFound(ghost))
        #expect(try await base.allRecords(in: "Orders").count == 1)  // the good id was not deleted either

        #expect(await apiError { try await base.getRecord(in: "Orders", id: ghost, options: ReadOptions()) } == .modelNotFound)
        #expect(await apiError { try await base.getRecord(in: "Orders", id: "nonsense", options: ReadOptions()) } == .modelNotFound)
    }

    @Test func deleteRemovesAndReturnsIdsInOrder() async throws {
        let (base, _) = try await makeOrdersBase()
        let records = try await base.createRecords(in: "Orders", [["name": "a"], ["name": "b"], ["name": "c"]],
                                                   options: WriteOptions())
        let deleted = try await base.deleteRecords(in: "Orders", ids: [records[2].id, records[0].id])
        #expect(deleted == [records[2].id, records[0].id])
        #expect(try await base.allRecords(in: "Orders").map(\.id) == [records[1].id])
        let twice = await apiError { try await base.deleteRecords(in: "Orders", ids: [records[1].id, records[1].id]) }
        #expect(twice?.message?.contains("listed twice") == true)
        #expect(try await base.allRecords(in: "Orders").count == 1)
    }

    @Test func getRendersStringsWhenAsked() async throws {
        let (base, _) = try await makeOrdersBase()
        let record = try await base.createRecord(in: "Orders", ["qty": 2, "price": 1250])
        let text = try await base.getRecord(in: "Orders", id: record.id,
                                            options: ReadOptions(cellFormat: .string, timeZone: "Asia/Taipei", userLocale: "zh-tw"))
        #expect(text.fields["price"] == "NT$1250")
        let missing = await apiError {
            try await base.getRecord(in: "Orders", id: record.id, options: ReadOptions(cellFormat: .string))
        }
        #expect(missing?.status == 422)
        #expect(missing?.message?.contains("needs both timeZone and userLocale") == true)
    }
}

@Suite struct GroupCommitTests {
    /// Writes arriving together share one commit; a refused one inside the group changes nothing and
    /// the others still land.
    @Test func concurrentWritesLandExceptTheRefusedOne() async throws {
        let base = try LocalBase.inMemory()
        _ = try await base.createTable(TableSpec(name: "T", fields: [
            FieldSpec(name: "name", type: .singleLineText), FieldSpec(name: "qty", type: .number),
        ]))
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<40 {
                group.addTask {
                    // Every tenth write carries a text where a number belongs, and must be refused whole.
                    let qty: JSONValue = index % 10 == 3 ? "many" : .int(index)
                    let fields: [Fields] = [["name": .string("a\(index)"), "qty": qty], ["name": .string("b\(index)")]]
                    return (try? await base.createRecords(in: "T", fields, options: WriteOptions())) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 36)
        let records = try await base.allRecords(in: "T")
        #expect(records.count == 72)
        let names = Set(records.compactMap { $0.fields["name"]?.stringValue })
        for index in stride(from: 3, to: 40, by: 10) {
            #expect(!names.contains("a\(index)") && !names.contains("b\(index)"))
        }
    }
}

@Suite struct DedicatedThreadTests {
    /// On a thread that may wait, calls run there in the queue's turn; writes from that thread and from
    /// the pool, at the same time, all land (or are refused) as they would through the queue alone.
    @Test func writesFromAWaitingThreadAndThePoolMixSafely() async throws {
        let base = try LocalBase.inMemory()
        _ = try await base.createTable(TableSpec(name: "T", fields: [
            FieldSpec(name: "name", type: .singleLineText), FieldSpec(name: "qty", type: .number),
        ]))
        #expect(!DedicatedThreadExecutor.mayWaitHere)
        let counter = DedicatedThreadExecutor(name: "test counter")
        let outcomes = await withTaskGroup(of: (onCounter: Bool, landed: Bool).self) { group in
            for index in 0..<40 {
                let onCounter = index % 2 == 0
                group.addTask(executorPreference: onCounter ? counter : nil) {
                    let qty: JSONValue = index % 10 == 3 ? "many" : .int(index)
                    let landed = (try? await base.createRecords(in: "T", [["name": .string("a\(index)"), "qty": qty]],
                                                                options: WriteOptions())) != nil
                    return (DedicatedThreadExecutor.mayWaitHere, landed)
                }
            }
            return await group.reduce(into: [(onCounter: Bool, landed: Bool)]()) { $0.append($1) }
        }
        #expect(outcomes.filter(\.onCounter).count == 20)
        #expect(outcomes.filter(\.landed).count == 36)
        let read = await withTaskExecutorPreference(counter) {
            (DedicatedThreadExecutor.mayWaitHere, try? await base.allRecords(in: "T").count)
        }
        #expect(read.0 && read.1 == 36)
    }
}

@Suite struct TransactionLookupTests {
    /// `containsRecord` finds exact text (case-sensitive) in a field, inside the same commit as writes.
    @Test func containsRecordAnswersByExactText() async throws {
        let base = try LocalBase.inMemory()
        _ = try await base.createTable(TableSpec(name: "Tickets", fields: [
            FieldSpec(name: "key", type: .singleLineText), FieldSpec(name: "n", type: .number),
        ]))
        let answers = try await base.atomically { transaction throws(AirtableError) -> [Bool] in
            let before = try transaction.containsRecord(in: "Tickets", field: "key", text: "2026-12-01#1")
            _ = try transaction.createRecords(in: "Tickets", [["key": "2026-12-01#1", "n": 1]], options: WriteOptions())
            return [before,
                    try transaction.containsRecord(in: "Tickets", field: "key", text: "2026-12-01#1"),
                    try transaction.containsRecord(in: "Tickets", field: "key", text: "2026-12-01#10"),
                    try transaction.containsRecord(in: "Tickets", field: "n", text: "1")]
        }
        #expect(answers == [false, true, false, false])
        let unknownField = await apiError {
            try await base.atomically { transaction throws(AirtableError) in
                try transaction.containsRecord(in: "Tickets", field: "nope", text: "x")
            }
        }
        #expect(unknownField == .unknownFieldName("nope"))
    }

    /// A write transaction asks the schema generation once, but a schema changed by another connection
    /// between two transactions is seen by the next one, and a field added inside a transaction is usable
    /// in it.
    @Test func schemaChangesAreSeenAcrossAndWithinTransactions() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let first = try LocalBase(path: path)
        _ = try await first.createTable(TableSpec(name: "T", fields: [FieldSpec(name: "a", type: .singleLineText)]))
        _ = try await first.createRecords(in: "T", [["a": "one"]], options: WriteOptions())
        let second = try LocalBase(path: path)
        _ = try await second.createField(in: "T", FieldSpec(name: "b", type: .singleLineText))
        let written = try await first.createRecords(in: "T", [["a": "two", "b": "seen"]], options: WriteOptions())
        #expect(written.first?.fields["b"] == "seen")
        // typecast adds an option to a select field inside the write; the next write in a new transaction
        // finds it in the saved schema.
        _ = try await first.createField(in: "T", FieldSpec(name: "size", type: .singleSelect,
                                                           options: ["choices": [["name": "M"]]]))
        _ = try await first.createRecords(in: "T", [["size": "L"]], options: WriteOptions(typecast: true))
        let schema = try await second.schema()
        #expect(schema.tables.first?.field("size")?.choices == ["M", "L"])
    }
}
