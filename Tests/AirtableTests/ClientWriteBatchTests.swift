import Airtable
import Foundation
import Testing

/// Bigger write batches where the server says it commits them whole (`WriteBatchLimit`), with the same promise:
/// one batch after another, a failure stops at that batch.
@Suite struct ClientWriteBatchTests {
    private static let says = [WriteBatchLimit.header: "100"]

    /// Echoes writes, every answer naming `limit` when given (as `drinkshop serve` does on its embedded store).
    private static func server(saying limit: [String: String]) -> StubTransport {
        StubTransport { request, _ in
            var answer = request.body == nil ? ClientFixture.json(["records": []]) : ClientFixture.echoWrites(request)
            answer.headers.merge(limit.map { ($0.key.lowercased(), $0.value) }) { _, said in said }
            return answer
        }
    }

    private static func drinks(_ count: Int, description: String = "") -> [UpsertRecord] {
        (1...count).map { UpsertRecord(fields: ["name": .string("drink \($0)"), "description": .string(description)]) }
    }

    private static func sizes(_ transport: StubTransport) -> [Int?] {
        transport.requests.filter { $0.method != "GET" }.map { ClientFixture.body($0)?["records"]?.arrayValue?.count }
    }

    @Test func aServerThatSaysSoGetsItsLimitPerRequestAndIsAskedForIt() async throws {
        let transport = Self.server(saying: Self.says)
        let client = ClientFixture.client(transport)
        _ = try await client.listRecords(in: "Drink", query: ListQuery())
        let result = try await client.upsertRecords(in: "Drink", Self.drinks(230), mergeOn: ["name"], replace: false,
                                                    options: WriteOptions(typecast: true))
        #expect(result.records.map { $0.fields["name"]?.stringValue } == (1...230).map { "drink \($0)" })
        #expect(Self.sizes(transport) == [100, 100, 30])
        #expect(transport.requests.dropFirst().map { $0.headers[WriteBatchLimit.header] } == ["100", "100", "30"])
        // Creates and updates by id too.
        _ = try await client.createRecords(in: "Drink", (1...120).map { ["name": .string("new \($0)")] }, options: WriteOptions())
        #expect(Self.sizes(transport).suffix(2) == [100, 20])
    }

    @Test func withoutTheServersWordBatchesStayAtTenAndAskForNothing() async throws {
        let transport = Self.server(saying: [:])
        let client = ClientFixture.client(transport)
        _ = try await client.listRecords(in: "Drink", query: ListQuery())
        _ = try await client.upsertRecords(in: "Drink", Self.drinks(25), mergeOn: ["name"], replace: false,
                                           options: WriteOptions())
        #expect(Self.sizes(transport) == [10, 10, 5])
        #expect(transport.requests.allSatisfy { $0.headers[WriteBatchLimit.header] == nil })
    }

    @Test func anAnswerWithoutTheWordGoesBackToTen() async throws {
        let said = StubTransport { request, index in
            var answer = request.body == nil ? ClientFixture.json(["records": []]) : ClientFixture.echoWrites(request)
            if index == 0 { answer.headers[WriteBatchLimit.header.lowercased()] = "100" }
            return answer
        }
        let client = ClientFixture.client(said)
        _ = try await client.listRecords(in: "Drink", query: ListQuery())
        _ = try await client.upsertRecords(in: "Drink", Self.drinks(30), mergeOn: ["name"], replace: false,
                                           options: WriteOptions())
        _ = try await client.upsertRecords(in: "Drink", Self.drinks(30), mergeOn: ["name"], replace: false,
                                           options: WriteOptions())
        #expect(Self.sizes(said) == [30, 10, 10, 10])
    }

    @Test func longCellsMakeSmallerBatchesButNeverFewerThanTen() async throws {
        let transport = Self.server(saying: Self.says)
        let client = ClientFixture.client(transport)
        _ = try await client.listRecords(in: "Drink", query: ListQuery())
        // 50 kB each: twenty come to about 1,000,600 bytes, within 1 MiB; a twenty-first would not.
        _ = try await client.upsertRecords(in: "Drink", Self.drinks(45, description: String(repeating: "x", count: 50_000)),
                                           mergeOn: ["name"], replace: false, options: WriteOptions())
        #expect(Self.sizes(transport) == [20, 20, 5])
        // 200 kB each: ten go together as they always did, whatever their size.
        _ = try await client.upsertRecords(in: "Drink", Self.drinks(12, description: String(repeating: "x", count: 200_000)),
                                           mergeOn: ["name"], replace: false, options: WriteOptions())
        #expect(Self.sizes(transport).suffix(2) == [10, 2])
    }

    @Test func aFailureStopsAtItsBatchAndTheBatchesBeforeItStayWritten() async throws {
        let transport = StubTransport { request, index in
            if index == 2 {
                return ClientFixture.json(["error": ["type": "INVALID_VALUE_FOR_COLUMN", "message": "bad"]], status: 422,
                                          headers: Self.says)
            }
            var answer = request.body == nil ? ClientFixture.json(["records": []]) : ClientFixture.echoWrites(request)
            answer.headers[WriteBatchLimit.header.lowercased()] = "100"
            return answer
        }
        let client = ClientFixture.client(transport)
        _ = try await client.listRecords(in: "Drink", query: ListQuery())
        await #expect(throws: AirtableError.self) {
            _ = try await client.upsertRecords(in: "Drink", Self.drinks(350), mergeOn: ["name"], replace: false,
                                               options: WriteOptions())
        }
        // The first hundred went, the second was refused, nothing after it was sent.
        #expect(Self.sizes(transport) == [100, 100])
    }
}
