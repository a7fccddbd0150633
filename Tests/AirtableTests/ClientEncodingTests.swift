import Airtable
import AirtableHTTP
import AirtableFormula
import Foundation
import Testing

@Suite struct ClientEncodingTests {
    private func listing(_ query: ListQuery, table: String = "Drink", endpoint: String = "https://api.airtable.com")
        async throws -> TransportRequest
    {
        let transport = StubTransport { _, _ in ClientFixture.json(["records": []]) }
        let client = ClientFixture.client(transport, endpoint: endpoint)
        _ = try await client.listRecords(in: table, query: query)
        return try #require(transport.requests.first)
    }

    @Test func percentEncodingLeavesOnlyUnreservedCharacters() {
        #expect(PercentEncoding.encode("Drink Orders/2024 & 大杯") == "Drink%20Orders%2F2024%20%26%20%E5%A4%A7%E6%9D%AF")
        #expect(PercentEncoding.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(PercentEncoding.encode("{Qty}+1>=2") == "%7BQty%7D%2B1%3E%3D2")
        #expect(PercentEncoding.encode("O'Brien (x)!*") == "O%27Brien%20%28x%29%21%2A")
        #expect(PercentEncoding.encode("🧋") == "%F0%9F%A7%8B")
        #expect(PercentEncoding.encode("100%") == "100%25")
    }

    @Test func tableNamesWithSlashAmpersandAndCJKStayOnePathSegment() async throws {
        let request = try await listing(ListQuery(), table: "Drink Orders/2024 & 大杯")
        #expect(request.method == "GET")
        #expect(request.url == "https://api.airtable.com/v0/appTESTBASE000001/Drink%20Orders%2F2024%20%26%20%E5%A4%A7%E6%9D%AF")
        #expect(request.body == nil)
    }

    @Test func anEndpointPathPrefixIsKeptAndATrailingSlashDropped() async throws {
        let request = try await listing(ListQuery(), endpoint: "http://127.0.0.1:8080/airtable/")
        #expect(request.url == "http://127.0.0.1:8080/airtable/v0/appTESTBASE000001/Drink")
    }

    @Test func everyListParameterIsEncodedByHand() async throws {
        let query = ListQuery(filterByFormula: "AND({Qty}+1>=2, {name}='a b')",
                              sort: [SortKey(field: "name"), SortKey(field: "價格", direction: .descending)],
                              fields: ["name", "Size & Ice"], pageSize: 50, maxRecords: 120, offset: "itrABC/rec123",
                              view: "Grid view", cellFormat: .string, timeZone: "Asia/Taipei", userLocale: "zh-tw",
                              returnFieldsByFieldId: true, includeCommentCount: true)
        let request = try await listing(query)
        let expected = "https://api.airtable.com/v0/appTESTBASE000001/Drink?view=Grid%20view&pageSize=50&maxRecords=120"
            + "&filterByFormula=AND%28%7BQty%7D%2B1%3E%3D2%2C%20%7Bname%7D%3D%27a%20b%27%29&cellFormat=string"
            + "&timeZone=Asia%2FTaipei&userLocale=zh-tw&returnFieldsByFieldId=true&fields%5B%5D=name"
            + "&fields%5B%5D=Size%20%26%20Ice&sort%5B0%5D%5Bfield%5D=name&sort%5B0%5D%5Bdirection%5D=asc"
            + "&sort%5B1%5D%5Bfield%5D=%E5%83%B9%E6%A0%BC&sort%5B1%5D%5Bdirection%5D=desc"
            + "&recordMetadata%5B%5D=commentCount&offset=itrABC%2Frec123"
        #expect(request.url == expected)
    }

    /// The formula a user's text ends up in survives the whole trip: builder, printer, URL encoding, and
    /// back through the server's decoding (`+` as space first, then percent escapes) and the parser.
    @Test(arguments: ["O'Brien \"x\" \\ y", "{braces}} and \\}", "珍珠奶茶 大杯 🧋", "a+b = c & d%20"])
    func userTextInAFormulaRoundTripsThroughTheURL(_ text: String) async throws {
        let formula = FormulaExpression.match(["name": .text(text)]).description
        let request = try await listing(ListQuery(filterByFormula: formula))
        let encoded = try #require(request.url.split(separator: "?").last?.split(separator: "=", maxSplits: 1).last)
        let decoded = try #require(String(encoded).replacingOccurrences(of: "+", with: " ").removingPercentEncoding)
        #expect(decoded == formula)
        #expect(try Formula.parse(decoded) == FormulaExpression.binary(.equal, .field("name"), .text(text)))
    }

    @Test func aListingWhoseURLWouldReach16000CharactersIsPostedWithLocaleInTheQuery() async throws {
        let ids = (0..<700).map { ClientFixture.id($0) }
        let formula = FormulaExpression.or(ids.map { .recordID == .text($0) }).description
        let query = ListQuery(filterByFormula: formula, sort: [SortKey(field: "name")], fields: ["name"],
                              pageSize: 100, offset: "itr1/rec2", timeZone: "UTC", userLocale: "en",
                              includeCommentCount: true)
        let request = try await listing(query)
        #expect(request.method == "POST")
        #expect(request.url == "https://api.airtable.com/v0/appTESTBASE000001/Drink/listRecords?timeZone=UTC&userLocale=en")
        #expect(request.headers["Content-Type"] == "application/json")
        let body = try #require(ClientFixture.body(request))
        #expect(body == [
            "filterByFormula": .string(formula), "sort": [["field": "name", "direction": "asc"]], "fields": ["name"],
            "pageSize": 100, "offset": "itr1/rec2", "recordMetadata": ["commentCount"],
        ])
    }

    @Test func theSwitchToPostHappensAtExactly16000Characters() async throws {
        let prefix = "https://api.airtable.com/v0/appTESTBASE000001/Drink?filterByFormula="
        let fits = String(repeating: "a", count: 15_999 - prefix.utf8.count)
        let short = try await listing(ListQuery(filterByFormula: fits))
        #expect(short.method == "GET")
        #expect(short.url.utf8.count == 15_999)
        let long = try await listing(ListQuery(filterByFormula: fits + "a"))
        #expect(long.method == "POST")
        #expect(long.url.hasSuffix("/Drink/listRecords"))
    }

    @Test func gettingARecordSendsOnlyItsOptions() async throws {
        let transport = StubTransport { _, _ in ClientFixture.json(ClientFixture.record("recAAAAAAAAAAAAA1")) }
        let client = ClientFixture.client(transport)
        let record = try await client.getRecord(in: "Drink", id: "recAAAAAAAAAAAAA1",
                                                options: ReadOptions(returnFieldsByFieldId: true))
        #expect(record.id == "recAAAAAAAAAAAAA1")
        #expect(transport.requests.map(\.url) == [
            "https://api.airtable.com/v0/appTESTBASE000001/Drink/recAAAAAAAAAAAAA1?returnFieldsByFieldId=true",
        ])
    }

    @Test func everyRequestCarriesTheBearerTokenAndOnlyBodiesHaveAContentType() async throws {
        let transport = StubTransport { request, _ in
            request.method == "GET" ? ClientFixture.json(["records": []]) : ClientFixture.echoWrites(request)
        }
        let client = ClientFixture.client(transport)
        _ = try await client.listRecords(in: "Drink", query: ListQuery())
        _ = try await client.createRecords(in: "Drink", [["name": "紅茶"]], options: WriteOptions())
        let (get, post) = (transport.requests[0], transport.requests[1])
        #expect(get.headers["Authorization"] == "Bearer " + ClientFixture.token)
        #expect(post.headers["Authorization"] == "Bearer " + ClientFixture.token)
        #expect(get.headers["Content-Type"] == nil && get.body == nil)
        #expect(post.headers["Content-Type"] == "application/json")
    }

    @Test(arguments: [
        ("ftp://example.com", "must start with http:// or https://, not ftp://"),
        ("api.airtable.com", "must start with http:// or https://"),
        ("https://user:secret@api.airtable.com", "may not carry a user name or password"),
        ("https://api.airtable.com/?x=1", "with no query or spaces"),
        ("https://", "a plain address"),
    ])
    func unusableEndpointsAreRefusedWithTheReason(_ endpoint: String, _ reason: String) {
        #expect {
            _ = try AirtableClient.Configuration(baseID: "app1", token: "pat1", endpoint: endpoint)
        } throws: { error in
            "\(error)".contains(reason) && !"\(error)".contains("secret")
        }
    }

    @Test func emptyOrMangledTokensAndBaseIDsAreRefused() {
        #expect(throws: ClientConfigurationError("the access token is empty")) {
            _ = try AirtableClient.Configuration(baseID: "app1", token: "")
        }
        #expect(throws: ClientConfigurationError.self) {
            _ = try AirtableClient.Configuration(baseID: "app1", token: "pat1 \n")
        }
        #expect(throws: ClientConfigurationError.self) {
            _ = try AirtableClient.Configuration(baseID: "app 1", token: "pat1")
        }
    }
}
