import Airtable
import Foundation
import LocalBase
import Testing
import TestSupport
@testable import AirtableServer

/// A store that commits a request whole takes bigger write batches from a client that asks (`WriteBatchLimit`);
/// a client that does not ask meets Airtable's ten, and a store that cannot commit a batch whole never offers more.
@Suite struct WriteBatchLimitTests {
    private static let ask = [(name: WriteBatchLimit.header, value: "1000")]
    private static let limit = WriteBatchLimit.served.records

    private func lines(_ count: Int, from first: Int = 1) -> JSONValue {
        .array((first..<first + count).map { ["fields": kebukeLine(name: "guest \($0)")] })
    }

    @Test func everyAnswerNamesTheLimitOfAStoreThatCommitsARequestWhole() async throws {
        let api = try await APIHarness()
        let list = await api.get(api.path())
        #expect(list.header(WriteBatchLimit.header) == String(Self.limit))
        let refused = await api.send("POST", api.path(), json: ["records": lines(11)])
        #expect(refused.header(WriteBatchLimit.header) == String(Self.limit))
    }

    @Test func elevenRecordsWithoutTheAskAreRefusedAsAirtableWould() async throws {
        let api = try await APIHarness()
        let reply = await api.send("POST", api.path(), json: ["records": lines(11)])
        #expect(reply.status == 422 && reply.errorType == "INVALID_RECORDS")
        #expect(try await api.orders().isEmpty)
    }

    @Test func theServersLimitWithTheAskIsOneCommit() async throws {
        let api = try await APIHarness()
        let commits = api.base.commitCount
        let created = await api.send("POST", api.path(), json: ["records": lines(Self.limit)], headers: Self.ask)
        #expect(created.status == 200)
        #expect(created.ids.count == Self.limit)
        #expect(api.base.commitCount == commits + 1)
        let upserted = await api.send("PATCH", api.path(), json: [
            "records": lines(Self.limit, from: Self.limit / 2 + 1), "performUpsert": ["fieldsToMergeOn": ["orderName"]]], headers: Self.ask)
        #expect(upserted.status == 200)
        #expect(upserted.json["createdRecords"]?.arrayValue?.count == Self.limit / 2)
        #expect(upserted.json["updatedRecords"]?.arrayValue?.count == Self.limit / 2)
        #expect(api.base.commitCount == commits + 2)
        #expect(try await api.orders().count == Self.limit * 3 / 2)
    }

    @Test func moreThanTheLimitIsRefusedWholeEvenWhenAsked() async throws {
        let api = try await APIHarness()
        let reply = await api.send("POST", api.path(), json: ["records": lines(Self.limit + 1)], headers: Self.ask)
        #expect(reply.status == 422 && reply.errorType == "INVALID_RECORDS")
        #expect(try await api.orders().isEmpty)
    }

    @Test func aStoreThatCannotCommitABatchWholeKeepsAirtablesTen() async throws {
        let harness = try await APIHarness()
        // Passes each call on: nothing says several calls, or a batch, are one commit (a gateway's store).
        let api = AirtableAPI(store: CountingStore(harness.base), baseID: harness.base.baseID,
                              tokens: AccessTokens([(APIHarness.writer, .readWrite)]))
        let reply = await api.reply("POST", "/v0/\(harness.base.baseID)/OrderDrink", json: ["records": lines(11)],
                                    token: APIHarness.writer, headers: Self.ask)
        #expect(reply.status == 422 && reply.errorType == "INVALID_RECORDS")
        #expect(reply.header(WriteBatchLimit.header) == nil)
        #expect(try await harness.orders().isEmpty)
    }
}
