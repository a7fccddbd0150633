import Airtable
import AirtableFormula
import AirtableHTTP
import AirtableURLSession
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import TestSupport
import Testing

/// The real URLSession transport against a real socket server: deadlines enforced in Swift, and the
/// errors staff see when things go wrong.
@Suite struct LiveTransportTests {
    @Test func theDeadlineCutsAStalledResponseShort() async throws {
        try await ServerHarness.with(intercept: { request, forward in
            try? await Task.sleep(for: .seconds(3))
            return await forward(request)
        }) { server in
            // URLSession's own timeouts would wait out the 3 s and succeed; only the Swift deadline stops it.
            let client = try server.client(deadline: 1, attemptTimeout: 20)
            await #expect(throws: AirtableError.timedOut(seconds: 1)) {
                _ = try await client.listRecords(in: "Drink", query: ListQuery())
            }
        }
    }

    @Test func aServerThatIsNotRunningReadsAsUnreachable() async throws {
        // A port held by a socket that is bound but never listens: nothing can answer on it while the test runs. (A
        // stopped server's port once went to another test's server, running beside it, which answered 401.)
        let held = try LoopbackSocket.bound(listening: nil)
        defer { _ = close(held.descriptor) }
        let configuration = try AirtableClient.Configuration(
            baseID: "app0000000000000", token: "patTEST.0000", endpoint: "http://127.0.0.1:\(held.port)",
            requestsPerSecond: 1000, burst: 1000, retry: RetryPolicy(maximumAttempts: 2, initialBackoff: 0.01))
        let client = AirtableClient(configuration: configuration, transport: URLSessionTransport.shared,
                                    throttle: RequestThrottle(requestsPerSecond: 1000, burst: configuration.effectiveBurst))
        await #expect {
            _ = try await client.listRecords(in: "Drink", query: ListQuery())
        } throws: { error in
            "\(error)" == "cannot reach the store: could not connect to 127.0.0.1:\(held.port) (is the server running?)"
        }
    }

    @Test func aWrongTokenAndAMissingTableReadAsStaffWouldSayThem() async throws {
        try await ServerHarness.with { server in
            let stranger = try server.client(token: "patNOTVALID.0000")
            await #expect {
                _ = try await stranger.listRecords(in: "Drink", query: ListQuery())
            } throws: { error in
                "\(error)" == "Airtable refused the token (401)" && !"\(error)".contains("patNOTVALID")
            }
            let client = try server.client()
            await #expect {
                _ = try await client.listRecords(in: "No Such/Table 大杯", query: ListQuery())
            } throws: { error in
                (error as? AirtableError)?.isNotFound == true && "\(error)".hasPrefix("not found or not allowed")
            }
        }
    }

    @Test func tableNamesThatNeedEncodingWorkEndToEnd() async throws {
        try await ServerHarness.with { server in
            let name = "Orders/2024 & 大杯 (test) +1 🧋"
            _ = try await server.base.createTable(TableSpec(name: name, fields: [FieldSpec(name: "note", type: .singleLineText),
                                                                                FieldSpec(name: "qty", type: .number)]))
            let client = try server.client()
            let values = ["O'Brien \"x\" \\ y", "a+b = c & d%20", "{braces}", "珍珠奶茶 🧋"]
            _ = try await client.createRecords(in: name, values.enumerated().map { ["note": .string($1), "qty": .int($0)] },
                                               options: WriteOptions())
            for value in values {
                let formula = FormulaExpression.match(["note": .text(value)]).description
                let found = try await client.allRecords(in: name, query: ListQuery(filterByFormula: formula))
                #expect(found.map { $0.fields["note"]?.stringValue } == [value])
            }
            let plus = try await client.allRecords(in: name, query: ListQuery(filterByFormula: "{qty}+1=3"))
            #expect(plus.map { $0.fields["note"]?.stringValue } == ["{braces}"])
            // The same question asked through the POST form, with a formula too long for a URL.
            let padding = FormulaExpression.or((0..<800).map { .recordID == .text(ClientFixtureIDs.id($0)) })
            let long = FormulaExpression.or([padding, .field("qty") == 3]).description
            let posted = try await client.allRecords(in: name, query: ListQuery(filterByFormula: long))
            #expect(posted.map { $0.fields["note"]?.stringValue } == ["珍珠奶茶 🧋"])
        }
    }
}

enum ClientFixtureIDs {
    static func id(_ number: Int) -> String {
        let digits = String(number)
        return "rec" + String(repeating: "0", count: 14 - digits.count) + digits
    }
}
