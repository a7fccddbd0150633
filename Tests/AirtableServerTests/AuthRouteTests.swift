import Airtable
import Testing
@testable import AirtableServer

/// Bearer tokens on every route (reference §1.2, §12.3): 401 without a valid one, 403 when a read-only
/// token writes; neither changes anything.
@Suite struct AuthRouteTests {
    @Test func everyRouteNeedsAValidBearerToken() async throws {
        let api = try await APIHarness()
        let targets = [api.path(), api.path("OrderDrink", "/recAAAAAAAAAAAAAA"), "/v0/meta/whoami",
                       "/v0/meta/bases/\(api.base.baseID)/tables", "/v0/nothing/here"]
        for target in targets {
            for headers in [[], [(name: "Authorization", value: "Bearer wrong-token")],
                            [(name: "Authorization", value: "Basic \(APIHarness.writer)")],
                            [(name: "Authorization", value: "Bearer")],
                            [(name: "Authorization", value: "Bearer \(APIHarness.writer)x")]] {
                let reply = await api.send("GET", target, token: nil, headers: headers)
                #expect(reply.status == 401, "\(target) \(headers)")
                #expect(reply.json == ["error": ["type": "AUTHENTICATION_REQUIRED", "message": "Authentication required"]])
            }
        }
        // The scheme is case-insensitive, as HTTP says.
        let lower = await api.send("GET", api.path(), token: nil,
                                   headers: [(name: "authorization", value: "bearer \(APIHarness.writer)")])
        #expect(lower.status == 200)
    }

    @Test func anUnauthenticatedWriteChangesNothing() async throws {
        let api = try await APIHarness()
        let reply = await api.send("POST", api.path(), json: ["fields": kebukeLine()], token: "patNOPE12345678")
        #expect(reply.status == 401)
        #expect(try await api.orders().isEmpty)
    }

    @Test func aReadOnlyTokenReadsButCannotWrite() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(2)
        let reader = APIHarness.reader
        #expect(await api.get(api.path(), token: reader).ids == ids)
        #expect(await api.get(api.path("OrderDrink", "/\(ids[0])"), token: reader).status == 200)
        // POST …/listRecords is a read.
        #expect(await api.send("POST", api.path("OrderDrink", "/listRecords"), json: [:], token: reader).ids == ids)
        #expect(await api.get("/v0/meta/bases/\(api.base.baseID)/tables", token: reader).status == 200)

        let writes: [(String, String, JSONValue?)] = [
            ("POST", api.path(), ["fields": kebukeLine()]),
            ("PATCH", api.path(), ["records": [["id": .string(ids[0]), "fields": ["price": 1]]]]),
            ("PUT", api.path(), ["records": [["id": .string(ids[0]), "fields": ["price": 1]]]]),
            ("PATCH", api.path("OrderDrink", "/\(ids[0])"), ["fields": ["price": 1]]),
            ("PUT", api.path("OrderDrink", "/\(ids[0])"), ["fields": ["price": 1]]),
            ("DELETE", api.path("OrderDrink", "/\(ids[0])"), nil),
            ("DELETE", api.path("OrderDrink", "?records[]=\(ids[0])"), nil),
            ("POST", "/v0/meta/bases/\(api.base.baseID)/tables",
             ["name": "T", "fields": [["name": "a", "type": "singleLineText"]]]),
        ]
        let before = try await api.orders()
        for (method, target, body) in writes {
            let reply = await api.send(method, target, json: body, token: reader)
            #expect(reply.status == 403, "\(method) \(target)")
            #expect(reply.errorType == "INVALID_PERMISSIONS")
            #expect(reply.errorMessage == "You are not permitted to perform this operation")
        }
        #expect(try await api.orders() == before)
        #expect(try await api.base.schema().table("T") == nil)
    }

    @Test func whoamiReportsTheScopesOfTheToken() async throws {
        let api = try await APIHarness()
        let writer = await api.get("/v0/meta/whoami").json
        let reader = await api.get("/v0/meta/whoami", token: APIHarness.reader).json
        #expect(writer["id"]?.stringValue.map { AirtableID.isValid($0, prefix: "usr") } == true)
        #expect(writer["scopes"]?.arrayValue?.contains("data.records:write") == true)
        #expect(reader["scopes"]?.arrayValue?.contains("data.records:read") == true)
        #expect(reader["scopes"]?.arrayValue?.contains("data.records:write") == false)
    }

    @Test func errorsNeverEchoTheToken() async throws {
        let api = try await APIHarness()
        let secret = "patSECRET-value-0123456789"
        let reply = await api.send("GET", api.path(), token: secret)
        #expect(!reply.text.contains(secret))
        let reader = await api.send("POST", api.path(), json: ["fields": [:]], token: APIHarness.reader)
        #expect(!reader.text.contains(APIHarness.reader))
    }
}
