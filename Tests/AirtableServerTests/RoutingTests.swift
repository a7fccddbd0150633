import Airtable
import Testing
@testable import AirtableServer

/// Which route a request reaches and the "missing" errors of reference §7.4: trailing slashes, empty
/// `?`, `%2F` in table names, table ids, unknown bases, tables and routes, HEAD, CORS, the URL limit.
@Suite struct RoutingTests {
    @Test func tablesAnswerByNameOrIdWithTrailingSlashesAndEmptyQueries() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(2)
        let tableID = try #require(try await api.base.schema().table("OrderDrink")?.id)
        // airtable.js puts `?` on every URL and a `/` after the table on create, update and list.
        for target in [api.path(), api.path("OrderDrink", "/"), api.path("OrderDrink", "?"), api.path("OrderDrink", "/?"),
                       api.path(tableID), api.path(tableID, "/?")] {
            let reply = await api.get(target)
            #expect(reply.status == 200, "\(target)")
            #expect(reply.ids == ids, "\(target)")
        }
        for target in [api.path("OrderDrink", "/\(ids[1])"), api.path("OrderDrink", "/\(ids[1])?"),
                       api.path("OrderDrink", "/\(ids[1])/"), api.path(tableID, "/\(ids[1])?")] {
            #expect(await api.get(target).json["id"]?.stringValue == ids[1], "\(target)")
        }
        let created = await api.send("POST", api.path("OrderDrink", "/?"), json: ["records": [["fields": kebukeLine()]]])
        #expect(created.status == 200)
        let listed = await api.send("POST", api.path("OrderDrink", "/listRecords?"), json: ["pageSize": 1])
        #expect(listed.ids == [ids[0]])
    }

    @Test func tableNamesArePercentDecodedAfterTheSplitSoSlashesSurvive() async throws {
        let api = try await APIHarness()
        let odd = ["Drink Orders/2024 (test) & more", "大杯", "percentage % table", "A+B"]
        for name in odd {
            _ = try await api.base.createTable(TableSpec(name: name, fields: [FieldSpec(name: "Name", type: .singleLineText)]))
        }
        for name in odd {
            // pyairtable: quote(name, safe=""); `+` in a path is a plus, not a space.
            let segment = percentEncoded(name)
            let created = await api.send("POST", api.path(segment), json: ["fields": ["Name": .string(name)]])
            #expect(created.status == 200, "\(name): \(created)")
            let listed = await api.get(api.path(segment))
            #expect(listed.records.map { $0["fields"]?["Name"] } == [.string(name)], "\(name)")
        }
        // airtable.js' encodeURIComponent leaves ( ) unescaped.
        let js = await api.get(api.path("Drink%20Orders%2F2024%20(test)%20%26%20more"))
        #expect(js.records.count == 1)
        // A raw `/` splits the path: table "Drink%20Orders", record "2024", which is no record id.
        #expect(await api.get(api.path("Drink%20Orders/2024")).json == ["error": "NOT_FOUND"])
    }

    @Test func missingThingsGetAirtablesDifferentAnswers() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(1)
        let other = "appAAAAAAAAAAAAAA"
        // An unknown base or route: the bare 404.
        for target in ["/v0/\(other)/OrderDrink", "/v0/\(other)/OrderDrink/\(ids[0])", "/v1/\(api.base.baseID)/OrderDrink",
                       "/v0/\(api.base.baseID)", "/v0/\(api.base.baseID)/OrderDrink/\(ids[0])/extra", "/", "/v0/meta/nothing",
                       "/v0/\(api.base.baseID)//OrderDrink"] {
            let reply = await api.get(target)
            #expect(reply.status == 404, "\(target)")
            #expect(reply.json == ["error": "NOT_FOUND"], "\(target)")
        }
        // A known base with an unknown table, or an unknown record on a single-record route: 403.
        let modelNotFound = APIError.modelNotFound
        for (method, target) in [("GET", api.path("Nope")), ("POST", api.path("Nope")),
                                 ("GET", api.path("OrderDrink", "/recAAAAAAAAAAAAAA")),
                                 ("PATCH", api.path("OrderDrink", "/recAAAAAAAAAAAAAA")),
                                 ("PUT", api.path("OrderDrink", "/recAAAAAAAAAAAAAA")),
                                 ("DELETE", api.path("OrderDrink", "/recAAAAAAAAAAAAAA")),
                                 ("GET", "/v0/meta/bases/\(other)/tables")] {
            let body: JSONValue? = method == "GET" || method == "DELETE" ? nil : ["fields": ["price": 1]]
            let reply = await api.send(method, target, json: body)
            #expect(reply.status == 403, "\(method) \(target)")
            #expect(reply.errorType == modelNotFound.type)
            #expect(reply.errorMessage == modelNotFound.message)
        }
        // A record id that is not one at all: the bare 404.
        for method in ["GET", "PATCH", "DELETE"] {
            let reply = await api.send(method, api.path("OrderDrink", "/rec123"), json: method == "PATCH" ? ["fields": [:]] : nil)
            #expect(reply.json == ["error": "NOT_FOUND"], "\(method)")
        }
        // A method the route does not have is an unknown route.
        #expect(await api.send("POST", api.path("OrderDrink", "/\(ids[0])"), json: ["fields": [:]]).status == 404)
        #expect(await api.send("DELETE", api.path("OrderDrink", "/listRecords")).status == 404)
        #expect(try await api.orders().count == 1)
    }

    @Test func headIsAnsweredAsGetAndOptionsAsACORSPreflight() async throws {
        let api = try await APIHarness()
        try await api.seedOrders(1)
        let head = await api.send("HEAD", api.path())
        let get = await api.get(api.path())
        #expect(head.status == 200)
        #expect(head.bytes == get.bytes)  // the socket layer drops it; Content-Length still matches GET's
        let preflight = await api.send("OPTIONS", api.path(), token: nil, headers: [
            (name: "Origin", value: "https://shop.example"), (name: "Access-Control-Request-Method", value: "PATCH"),
        ])
        #expect((200...204).contains(preflight.status))
        #expect(preflight.header("Access-Control-Allow-Origin") == "*")
        #expect(preflight.header("Access-Control-Allow-Methods") == "DELETE,GET,OPTIONS,PATCH,POST,PUT")
        let allowed = preflight.header("Access-Control-Allow-Headers")?.split(separator: ",").map(String.init) ?? []
        for name in ["authorization", "content-type", "x-api-version", "x-airtable-application-id", "x-airtable-user-agent"] {
            #expect(allowed.contains(name))
        }
        #expect(get.header("Access-Control-Allow-Origin") == "*")
        #expect(get.header("Content-Type") == "application/json; charset=utf-8")
    }

    @Test func urlsOf16000CharactersAreRefusedWith414() async throws {
        let api = try await APIHarness()
        try await api.seedOrders(1)
        func target(length: Int) -> String {
            let prefix = api.path("OrderDrink", "?filterByFormula=")
            let padding = length - prefix.utf8.count - "TRUE()".utf8.count
            return prefix + String(repeating: "+", count: padding) + "TRUE()"
        }
        let under = await api.get(target(length: 15_999))
        #expect(under.status == 200, "\(under)")
        #expect(under.records.count == 1)
        for length in [16_000, 16_001, 40_000] {
            let over = await api.get(target(length: length))
            #expect(over.status == 414)
            #expect(over.errorType == "URL_TOO_LONG")
            #expect(over.errorMessage?.contains("listRecords") == true)
        }
    }

    @Test func readsAndDeletesTakeNoBody() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(2)
        let get = await api.send("GET", api.path(), json: ["filterByFormula": "FALSE()"])
        #expect(get.status == 422)
        #expect(get.errorType == "INVALID_REQUEST_UNKNOWN")
        #expect(get.errorMessage?.contains("GET takes no request body") == true)
        let delete = await api.send("DELETE", api.path("OrderDrink", "/\(ids[0])"), json: ["records": [.string(ids[1])]])
        #expect(delete.status == 422)
        #expect(delete.errorMessage?.contains("records[]") == true)
        #expect(try await api.orders().count == 2)
        // Content-Type with no body (airtable.js, the KEBUKE app) is fine, and so is white space.
        let typed = await api.send("DELETE", api.path("OrderDrink", "/\(ids[0])"),
                                   headers: [(name: "Content-Type", value: "application/json")])
        #expect(typed.json == ["id": .string(ids[0]), "deleted": true])
        #expect(await api.send("GET", api.path(), body: "\r\n").status == 200)
    }

    @Test func writesRefuseQueryParameters() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(1)
        for (method, target) in [("POST", api.path("OrderDrink", "?typecast=true")),
                                 ("PATCH", api.path("OrderDrink", "?typecast=1")),
                                 ("PATCH", api.path("OrderDrink", "/\(ids[0])?fields[]=price"))] {
            let body: JSONValue = target.contains("/rec") ? ["fields": ["price": 9]]
                : method == "POST" ? ["fields": ["price": 9]] : ["records": [["id": .string(ids[0]), "fields": ["price": 9]]]]
            let reply = await api.send(method, target, json: body)
            #expect(reply.status == 422, "\(method) \(target)")
            #expect(reply.errorMessage?.contains("unknown query parameter") == true)
        }
        #expect(try await api.orders().count == 1)
        #expect(try await api.orders()[ids[0]]?["price"] == 35)
    }
}
