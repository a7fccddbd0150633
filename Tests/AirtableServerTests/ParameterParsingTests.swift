import Airtable
import Testing
import TestSupport
@testable import AirtableServer

@Suite struct QueryStringTests {
    @Test func decodesPlusAsSpaceBeforePercentDecoding() throws {
        let query = try QueryString(raw: "filterByFormula=%7BQty%7D%2B1%3E2+AND+x&a=%E5%A4%A7%E6%9D%AF")
        #expect(query.items.map(\.value) == ["{Qty}+1>2 AND x", "大杯"])
    }

    @Test func keepsRepeatedNamesInOrder() throws {
        let query = try QueryString(raw: "fields%5B%5D=A&fields%5B%5D=B&offset=")
        #expect(query.items.map(\.name) == ["fields[]", "fields[]", "offset"])
        #expect(query.items.map(\.value) == ["A", "B", ""])
    }

    @Test func refusesMalformedEscapes() {
        #expect(throws: APIError.self) { try QueryString(raw: "a=%zz") }
        #expect(throws: APIError.self) { try QueryString(raw: "a=%E5%A4") }
    }
}

@Suite struct ListParameterTests {
    private func parse(_ raw: String) throws -> ListQuery { try ListParameters.fromQuery(QueryString(raw: raw)) }

    @Test func readsPyairtablesSpelling() throws {
        let query = try parse("view=Grid+view&pageSize=50&maxRecords=120&filterByFormula=%7BName%7D%3D%27a+b%27"
            + "&cellFormat=json&timeZone=Europe%2FParis&userLocale=fr&returnFieldsByFieldId=1&fields%5B%5D=Name"
            + "&fields%5B%5D=Size&sort%5B0%5D%5Bdirection%5D=asc&sort%5B0%5D%5Bfield%5D=Name"
            + "&sort%5B1%5D%5Bdirection%5D=desc&sort%5B1%5D%5Bfield%5D=Price&recordMetadata%5B%5D=commentCount")
        #expect(query.view == "Grid view")
        #expect(query.pageSize == 50)
        #expect(query.maxRecords == 120)
        #expect(query.filterByFormula == "{Name}='a b'")
        #expect(query.timeZone == "Europe/Paris")
        #expect(query.returnFieldsByFieldId)
        #expect(query.fields == ["Name", "Size"])
        #expect(query.sort == [SortKey(field: "Name"), SortKey(field: "Price", direction: .descending)])
        #expect(query.includeCommentCount)
    }

    @Test func readsIndexedAndBareListSpellings() throws {
        #expect(try parse("fields%5B1%5D=B&fields%5B0%5D=A").fields == ["A", "B"])
        #expect(try parse("fields=A&fields=B").fields == ["A", "B"])
        #expect(try parse("returnFieldsByFieldId=true").returnFieldsByFieldId)
        #expect(try parse("returnFieldsByFieldId=false").returnFieldsByFieldId == false)
        #expect(try parse("limit=7").pageSize == 7)
        #expect(try parse("offset=").offset == nil)
    }

    @Test func refusesBadValuesWithAirtablesErrors() {
        #expect(throws: APIError.invalidPageSize) { try parse("pageSize=101") }
        #expect(throws: APIError.invalidPageSize) { try parse("pageSize=-1") }
        #expect(throws: APIError.self) { try parse("sort%5B0%5D%5Bdirection%5D=desc") }
        #expect(throws: APIError.self) { try parse("sort%5B0%5D%5Bfield%5D=A&sort%5B0%5D%5Bdirection%5D=up") }
        #expect(throws: APIError.self) { try parse("cellFormat=xml") }
        #expect(throws: APIError.self) { try parse("color=red") }
        #expect(throws: APIError.self) { try parse("recordMetadata%5B%5D=likes") }
    }

    @Test func readsTheListRecordsBodyAndIgnoresClientExtras() throws {
        let body: JSONValue = ["filterByFormula": "OR(RECORD_ID()='x')", "fields": ["Name"], "pageSize": 10,
                               "sort": [["field": "Name", "direction": "desc"]], "method": "post",
                               "timeZone": "UTC", "returnFieldsByFieldId": true]
        let query = try ListParameters.fromBody(body, query: QueryString(raw: "timeZone=UTC&userLocale=en"))
        #expect(query.filterByFormula == "OR(RECORD_ID()='x')")
        #expect(query.fields == ["Name"])
        #expect(query.pageSize == 10)
        #expect(query.sort == [SortKey(field: "Name", direction: .descending)])
        #expect(query.userLocale == "en")
        #expect(query.returnFieldsByFieldId)
    }
}

@Suite struct RouteTests {
    @Test func splitsTheRawPathBeforeDecoding() {
        #expect(Route(path: "/v0/app1/Drink%20Orders%2F2024") == .table(base: "app1", table: "Drink Orders/2024"))
        #expect(Route(path: "/v0/app1/OrderDrink/") == .table(base: "app1", table: "OrderDrink"))
        #expect(Route(path: "/v0/app1/%E5%A4%A7%E6%9D%AF/listRecords") == .listRecords(base: "app1", table: "大杯"))
        #expect(Route(path: "/v0/app1/T/recAAAAAAAAAAAAAA") == .record(base: "app1", table: "T", id: "recAAAAAAAAAAAAAA"))
        #expect(Route(path: "/v0/meta/bases/app1/tables") == .tables(base: "app1"))
        #expect(Route(path: "/v0/meta/bases/app1/tables/tbl1/fields") == .fields(base: "app1", table: "tbl1"))
        #expect(Route(path: "/v0/meta/whoami") == .whoami)
    }

    @Test func refusesUnknownShapes() {
        #expect(Route(path: "/v1/app1/T") == nil)
        #expect(Route(path: "/v0/app1") == nil)
        #expect(Route(path: "/v0/app1//T") == nil)
        #expect(Route(path: "/v0/app1/T/rec/extra") == nil)
        #expect(Route(path: "v0/app1/T") == nil)
    }
}

@Suite struct AccessTokenTests {
    @Test func grantsOnlyExactTokens() {
        let tokens = AccessTokens([("patWRITE1234567890", .readWrite), ("patREAD12345678901", .read)])
        #expect(tokens.access(for: "patWRITE1234567890") == .readWrite)
        #expect(tokens.access(for: "patREAD12345678901") == .read)
        #expect(tokens.access(for: "patWRITE123456789") == nil)
        #expect(tokens.access(for: "patWRITE12345678900") == nil)
        #expect(tokens.access(for: "") == nil)
        #expect(!tokens.description.contains("pat"))
    }

    @Test func readsBearerHeaders() {
        #expect(AccessTokens.bearer("Bearer abc") == "abc")
        #expect(AccessTokens.bearer("bearer  abc ") == "abc")
        #expect(AccessTokens.bearer("Basic abc") == nil)
        #expect(AccessTokens.bearer("Bearer") == nil)
        #expect(AccessTokens.bearer(nil) == nil)
    }

    @Test func parsesTokenFilesAndNamesTheBadLine() throws {
        let tokens = try AccessTokens.parseFile("# counters\npatAAAAAAAA read\n\npatBBBBBBBB read-write\npatCCCCCCCC\n",
                                                path: "t")
        #expect(tokens.access(for: "patAAAAAAAA") == .read)
        #expect(tokens.access(for: "patCCCCCCCC") == .readWrite)
        do {
            _ = try AccessTokens.parseFile("patAAAAAAAA\npatBBBBBBBB admin\n", path: "t")
            Issue.record("a bad access level was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(!error.description.contains("patBBBBBBBB"))
        }
        #expect(throws: TokenFileError.self) { try AccessTokens.parseFile("# nothing\n", path: "t") }
    }

    @Test func generatesAirtableShapedTokens() {
        let token = AccessTokens.generateToken()
        #expect(token.hasPrefix("pat") && token.count == 3 + 14 + 1 + 64)
        #expect(token != AccessTokens.generateToken())
    }
}

@Suite struct RateLimiterTests {
    @Test func allowsTheRateAndBlocksForThePenaltyAfterwards() {
        let clock = TestClock(seconds: 100)
        let limiter = RateLimiter(requestsPerSecond: 5, penalty: 30, clock: clock.monotonic)
        for _ in 0..<5 { #expect(limiter.admit(base: "app").allowed) }
        let refused = limiter.admit(base: "app")
        #expect(!refused.allowed && refused.retryAfter == 30)
        clock.advance(by: 10)
        #expect(limiter.admit(base: "app") == .init(allowed: false, retryAfter: 20))
        clock.advance(by: 20.5)
        #expect(limiter.admit(base: "app").allowed)
    }

    @Test func aSteadyFiveASecondIsNeverRefused() {
        let clock = TestClock(seconds: 100)
        let limiter = RateLimiter(requestsPerSecond: 5, clock: clock.monotonic)
        for _ in 0..<100 {
            #expect(limiter.admit(base: "app").allowed)
            clock.advance(by: 0.2)
        }
    }
}
