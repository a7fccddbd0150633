import Airtable
import AirtableFormula
import Testing
@testable import AirtableServer

/// List records over GET and POST …/listRecords (reference §2): paging, offsets, every parameter and
/// its errors.
@Suite struct ListRouteTests {
    /// Follows `offset` to the end, as pyairtable does (every parameter resent with the offset).
    private func pages(_ api: APIHarness, query: String) async -> [Reply] {
        var replies: [Reply] = []
        var offset: String?
        repeat {
            let suffix = offset.map { (query.isEmpty ? "" : "&") + "offset=\(formEncoded($0))" } ?? ""
            let reply = await api.get(api.path("OrderDrink", "?" + query + suffix))
            replies.append(reply)
            offset = reply.json["offset"]?.stringValue
        } while offset != nil && replies.count < 100 && replies.last?.status == 200
        return replies
    }

    @Test func pagesThroughHundredsOfRecordsInOrder() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(250)
        let defaults = await pages(api, query: "")
        #expect(defaults.map(\.records.count) == [100, 100, 50])
        #expect(defaults.flatMap(\.ids) == ids)
        // The last page has no offset at all (never null), the others an itr…/rec… one.
        #expect(defaults.last?.text.contains("offset") == false)
        let offset = try #require(defaults.first?.json["offset"]?.stringValue)
        let parts = offset.split(separator: "/").map(String.init)
        #expect(parts.count == 2 && AirtableID.isValid(parts[0], prefix: "itr") && parts[1] == ids[100])

        let capped = await pages(api, query: "pageSize=10&maxRecords=25")
        #expect(capped.map(\.records.count) == [10, 10, 5])
        #expect(capped.flatMap(\.ids) == Array(ids.prefix(25)))
        #expect(await pages(api, query: "maxRecords=7").map(\.records.count) == [7])
        // airtable.js' deprecated list() sends the legacy `limit` and an empty offset.
        let legacy = await api.get(api.path("OrderDrink", "/?limit=30&offset="))
        #expect(legacy.records.count == 30)
        // select({method: 'get'}) leaves airtable.js' own option in the query.
        #expect(await api.get(api.path("OrderDrink", "?method=get&recordMetadata%5B%5D=commentCount&maxRecords=2"))
            .records.map { $0["commentCount"] } == [0, 0])
        #expect(await api.get(api.path("OrderDrink", "?method=put")).status == 422)
        #expect(await pages(api, query: "sort%5B0%5D%5Bdirection%5D=desc&sort%5B0%5D%5Bfield%5D=price&pageSize=100")
            .flatMap(\.ids) == ids.reversed())
    }

    @Test func zeroPageSizeOrMaxRecordsGivesAnEmptyLastPage() async throws {
        let api = try await APIHarness()
        try await api.seedOrders(3)
        for query in ["pageSize=0", "maxRecords=0"] {
            let reply = await api.get(api.path("OrderDrink", "?" + query))
            #expect(reply.json == ["records": []], "\(query)")
        }
        #expect(await api.get(api.path("Drink")).json == ["records": []])
    }

    @Test func pageSizesOutsideZeroToOneHundredAreRefused() async throws {
        let api = try await APIHarness()
        for query in ["pageSize=101", "pageSize=-1", "pageSize=ten", "limit=500"] {
            let reply = await api.get(api.path("OrderDrink", "?" + query))
            #expect(reply.status == 422, "\(query)")
            #expect(reply.json == ["error": ["type": "INVALID_PAGE_SIZE_ARGUMENT",
                                             "message": "Page size argument should be between 0 and 100"]])
        }
        let body = await api.send("POST", api.path("OrderDrink", "/listRecords"), json: ["pageSize": 1000])
        #expect(body.errorType == "INVALID_PAGE_SIZE_ARGUMENT")
    }

    @Test func offsetsAreOpaqueCheckedAndExpire() async throws {
        let api = try await APIHarness(iteratorLifetime: .seconds(60))
        try await api.seedOrders(5)
        for bad in ["10", "itrX/recY", "abc", "itr00000000000000"] {
            let reply = await api.get(api.path("OrderDrink", "?offset=\(formEncoded(bad))"))
            #expect(reply.status == 422)
            #expect(reply.json == ["error": ["type": "INVALID_OFFSET_VALUE", "message": .string("The value of offset \(bad) is invalid")]])
        }
        let first = await api.get(api.path("OrderDrink", "?pageSize=2"))
        let offset = try #require(first.json["offset"]?.stringValue)
        // Another table does not know it.
        let elsewhere = await api.get(api.path("Drink", "?offset=\(formEncoded(offset))"))
        #expect(elsewhere.json == ["error": ["type": "LIST_RECORDS_ITERATOR_NOT_AVAILABLE"]])
        api.clock.advance(by: 61)
        let expired = await api.get(api.path("OrderDrink", "?pageSize=2&offset=\(formEncoded(offset))"))
        #expect(expired.status == 422)
        #expect(expired.json == ["error": ["type": "LIST_RECORDS_ITERATOR_NOT_AVAILABLE"]])
        // The POST form takes the offset in the body; an empty one means "from the start".
        let fresh = await api.send("POST", api.path("OrderDrink", "/listRecords"), json: ["offset": "", "pageSize": 2])
        #expect(fresh.records.count == 2)
    }

    @Test func listRecordsByPostTakesTheSameOptionsAndZoneAndLocaleInTheQuery() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(30)
        // pyairtable's body for a long formula, with time zone and locale in the query.
        let formula = "OR(" + ids.prefix(12).map { "RECORD_ID()='\($0)'" }.joined(separator: ",") + ")"
        var body: JSONValue = ["filterByFormula": .string(formula), "fields": ["price"], "pageSize": 5,
                               "sort": [["field": "price", "direction": "desc"]], "recordMetadata": ["commentCount"],
                               "returnFieldsByFieldId": false]
        let first = await api.send("POST", api.path("OrderDrink", "/listRecords?timeZone=UTC&userLocale=en"), json: body)
        #expect(first.status == 200, "\(first)")
        #expect(first.ids == Array(ids.prefix(12).reversed().prefix(5)))
        #expect(first.records.allSatisfy { $0["commentCount"] == 0 && $0["fields"]?.objectValue?.keys.sorted() == ["price"] })
        // Later pages are POSTs with the offset in the body, every other option resent.
        var seen = first.ids
        var offset = first.json["offset"]
        while let next = offset {
            body = .object((body.objectValue ?? [:]).merging(["offset": next]) { $1 })
            let page = await api.send("POST", api.path("OrderDrink", "/listRecords"), json: body)
            seen += page.ids
            offset = page.json["offset"]
        }
        #expect(seen == Array(ids.prefix(12).reversed()))
        // airtable.js leaves `method`, `timeZone` and `userLocale` in the body too: ignored.
        let js = await api.send("POST", api.path("OrderDrink", "/listRecords?"),
                                json: ["method": "post", "timeZone": "Asia/Taipei", "userLocale": "zh-tw", "maxRecords": 3])
        #expect(js.ids == Array(ids.prefix(3)))
        // Other list parameters belong in the body.
        let misplaced = await api.send("POST", api.path("OrderDrink", "/listRecords?pageSize=2"), json: [:])
        #expect(misplaced.status == 422)
        #expect(misplaced.errorMessage?.contains("pageSize") == true)
        let notObject = await api.send("POST", api.path("OrderDrink", "/listRecords"), json: ["a", "b"])
        #expect(notObject.status == 422)
    }

    @Test func unknownFieldsSortsViewsAndFormulasAreRefused() async throws {
        let api = try await APIHarness()
        try await api.seedOrders(2)
        let cases: [(String, String, String)] = [
            ("fields%5B%5D=nope", "UNKNOWN_FIELD_NAME", "Unknown field name: \"nope\""),
            ("sort%5B0%5D%5Bfield%5D=Price", "UNKNOWN_FIELD_NAME", "Unknown field name: \"Price\""),
            ("view=Kanban", "VIEW_NAME_NOT_FOUND", "View Kanban not found"),
            ("view=viwAAAAAAAAAAAAAA", "VIEW_ID_NOT_FOUND", "View viwAAAAAAAAAAAAAA not found"),
            ("filterByFormula=%7Bnope%7D%3D1", "INVALID_FILTER_BY_FORMULA", "Unknown field names: nope"),
            ("filterByFormula=AND(", "INVALID_FILTER_BY_FORMULA", "The formula for filtering records is invalid"),
            ("filterByFormula=NO_SUCH_FUNCTION(1)", "INVALID_FILTER_BY_FORMULA", "NO_SUCH_FUNCTION"),
            ("color=red", "INVALID_REQUEST_UNKNOWN", "unknown query parameter \"color\""),
            ("cellFormat=xml", "INVALID_REQUEST_UNKNOWN", "cellFormat"),
            ("cellFormat=string", "INVALID_REQUEST_UNKNOWN", "needs both timeZone and userLocale"),
            ("maxRecords=-3", "INVALID_REQUEST_UNKNOWN", "maxRecords"),
            ("returnFieldsByFieldId=maybe", "INVALID_REQUEST_UNKNOWN", "returnFieldsByFieldId"),
            ("sort%5B0%5D%5Bfield%5D=price&sort%5B0%5D%5Bdirection%5D=down", "INVALID_REQUEST_UNKNOWN", "direction"),
            ("recordMetadata%5B%5D=likes", "INVALID_REQUEST_UNKNOWN", "commentCount"),
            ("filterByFormula=%zz", "INVALID_REQUEST_UNKNOWN", "percent-encoding"),
        ]
        for (query, type, message) in cases {
            let reply = await api.get(api.path("OrderDrink", "?" + query))
            #expect(reply.status == 422, "\(query): \(reply)")
            #expect(reply.errorType == type, "\(query): \(reply)")
            #expect(reply.errorMessage?.contains(message) == true, "\(query): \(reply)")
        }
        // The table's one view may be named by name or id; it changes nothing.
        let viewID = try #require(try await api.base.schema().table("OrderDrink")?.views.first?.id)
        #expect(await api.get(api.path("OrderDrink", "?view=Grid+view")).records.count == 2)
        #expect(await api.get(api.path("OrderDrink", "?view=\(viewID)")).records.count == 2)
    }

    @Test func filtersSortsAndPicksFieldsByNameOrId() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(6) { ["O'Brien \"x\" \\ y", "阿明", "Amy", "amy", "Bob", "阿明"][$0] }
        let table = try #require(try await api.base.schema().table("OrderDrink"))
        let nameID = try #require(table.field("orderName")?.id)
        // pyairtable's quoted(): backslash doubled, then the quote escaped.
        let quoted = "{orderName}='O\\'Brien \"x\" \\\\ y'"
        #expect(await api.get(api.path("OrderDrink", "?filterByFormula=\(formEncoded(quoted))")).ids == [ids[0]])
        let byID = "AND({\(nameID)}='阿明', {price}>=36)"
        #expect(await api.get(api.path("OrderDrink", "?filterByFormula=\(formEncoded(byID))")).ids == [ids[1], ids[5]])
        // `+` in a formula must arrive as %2B; a literal + is a space.
        let plus = "{price}+1=38"
        #expect(await api.get(api.path("OrderDrink", "?filterByFormula=\(formEncoded(plus))")).ids == [ids[2]])
        #expect(await api.get(api.path("OrderDrink", "?filterByFormula=%7Bprice%7D+%3D+37")).ids == [ids[2]])

        let sorted = await api.get(api.path("OrderDrink",
            "?sort%5B1%5D%5Bfield%5D=price&sort%5B1%5D%5Bdirection%5D=desc&sort%5B0%5D%5Bfield%5D=orderName"))
        #expect(sorted.records.compactMap { $0["fields"]?["orderName"]?.stringValue }
            == ["Amy", "amy", "Bob", "O'Brien \"x\" \\ y", "阿明", "阿明"])
        #expect(Array(sorted.ids.suffix(2)) == [ids[5], ids[1]])

        for spelling in ["fields%5B%5D=price&fields%5B%5D=\(nameID)", "fields=price&fields=orderName",
                         "fields%5B1%5D=orderName&fields%5B0%5D=price"] {
            let reply = await api.get(api.path("OrderDrink", "?maxRecords=1&" + spelling))
            #expect(reply.records.first?["fields"]?.objectValue?.keys.sorted() == ["orderName", "price"], "\(spelling)")
        }
    }

    @Test func returnFieldsByFieldIdInEverySpelling() async throws {
        let api = try await APIHarness()
        try await api.seedOrders(1)
        let table = try #require(try await api.base.schema().table("OrderDrink"))
        let priceID = try #require(table.field("price")?.id)
        for (value, byID) in [("1", true), ("true", true), ("True", true), ("0", false), ("false", false), ("", false)] {
            let reply = await api.get(api.path("OrderDrink", "?returnFieldsByFieldId=\(value)"))
            let keys = reply.records.first?["fields"]?.objectValue?.keys
            #expect(keys?.contains(byID ? priceID : "price") == true, "\(value)")
        }
        let post = await api.send("POST", api.path("OrderDrink", "/listRecords"), json: ["returnFieldsByFieldId": true])
        #expect(post.records.first?["fields"]?[priceID] == 35)
        let record = await api.get(api.path("OrderDrink", "/\(post.ids[0])?returnFieldsByFieldId=1"))
        #expect(record.json["fields"]?[priceID] == 35)
    }

    @Test func cellFormatStringFollowsTheTimeZoneAndLocale() async throws {
        let api = try await APIHarness()
        let created = await api.send("POST", api.path(), json: ["fields": [
            "orderName": "Amy", "addOns": ["加白玉", "加水玉"], "paid": true, "price": 120,
            "pickedUpAt": "2026-11-29T14:30:00.000Z",
        ]])
        let id = try #require(created.json["id"]?.stringValue)
        let taipei = await api.get(api.path("OrderDrink", "?cellFormat=string&timeZone=Asia%2FTaipei&userLocale=zh-tw"))
        let fields = try #require(taipei.records.first?["fields"])
        #expect(fields["pickedUpAt"] == "2026-11-29 22:30")
        #expect(fields["addOns"] == "加白玉, 加水玉")
        #expect(fields["price"] == "120")
        #expect(fields["paid"] == "checked")
        let utc = await api.get(api.path("OrderDrink", "/\(id)?cellFormat=string&timeZone=utc&userLocale=en-us"))
        #expect(utc.json["fields"]?["pickedUpAt"] == "2026-11-29 14:30")
        // With the default json format the zone and locale are accepted and change nothing.
        let json = await api.get(api.path("OrderDrink", "/\(id)?timeZone=utc&userLocale=en-ie"))
        #expect(json.json["fields"]?["pickedUpAt"] == "2026-11-29T14:30:00.000Z")
        let missing = await api.get(api.path("OrderDrink", "/\(id)?cellFormat=string"))
        #expect(missing.status == 422)
        let zone = await api.get(api.path("OrderDrink", "?cellFormat=string&timeZone=Mars%2FOlympus&userLocale=en"))
        #expect(zone.errorMessage?.contains("Mars/Olympus") == true)
    }
}
