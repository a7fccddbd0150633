import Airtable
import Foundation
import LocalBase
import Testing
@testable import AirtableServer

/// Webhooks as Airtable allows them: public https receivers (local ones only when the operator names
/// them), no credentials in URLs, 10 per base, specifications of Airtable's shape and bounded size,
/// payloads kept 7 days.
@Suite struct WebhookBoundsTests {
    static let spec: JSONValue = ["options": ["filters": ["dataTypes": ["tableData"]]]]

    private func create(_ api: APIHarness, url: JSONValue = .null, spec: JSONValue = Self.spec) async -> Reply {
        await api.send("POST", "/v0/bases/\(api.base.baseID)/webhooks", json: ["notificationUrl": url, "specification": spec])
    }

    @Test func onlyPublicHTTPSReceiversUnlessTheOperatorNamesALocalOne() async throws {
        let api = try await APIHarness(webhookReceivers: try WebhookReceivers(allowing: ["http://127.0.0.1:8090"]))
        for url in ["http://example.com/hook", "https://127.0.0.1/hook", "https://localhost:8443/", "http://2130706433/",
                    "https://127.1/", "https://0x7f000001/", "https://[::1]/", "https://[::ffff:10.0.0.1]/",
                    "https://10.0.0.5/", "https://192.168.1.20/", "https://172.20.0.1/", "https://169.254.169.254/",
                    "https://printer/", "http://127.0.0.1:8091/", "https://127.0.0.1:8090/", "ftp://example.com/",
                    "not a url"] {
            let refused = await create(api, url: .string(url))
            #expect(refused.status == 422, "\(url): \(refused)")
            #expect(refused.json["error"]?["type"] == "INVALID_REQUEST_UNKNOWN", "\(url)")
        }
        let withPassword = await create(api, url: "https://amy:hunter2@hooks.example.com/x")
        #expect(withPassword.status == 422)
        #expect(!withPassword.text.contains("hunter2"))
        #expect(await create(api, url: "http://amy:pw@127.0.0.1:8090/x").status == 422)
        #expect(await create(api, url: "https://hooks.example.com/drinkshop").status == 200)
        #expect(await create(api, url: "http://127.0.0.1:8090/ping").status == 200)
        #expect(await create(api, url: "HTTP://127.0.0.1:8090").status == 200)
        #expect(await api.get("/v0/bases/\(api.base.baseID)/webhooks").json["webhooks"]?.arrayValue?.count == 3)
    }

    @Test func allowancesAreOriginsOnly() throws {
        #expect(throws: WebhookReceiverError.self) { try WebhookReceivers(allowing: ["127.0.0.1:8090"]) }
        #expect(throws: WebhookReceiverError.self) { try WebhookReceivers(allowing: ["http://127.0.0.1:8090/hooks"]) }
        #expect(throws: WebhookReceiverError.self) { try WebhookReceivers(allowing: ["http://u:p@127.0.0.1:8090"]) }
        let receivers = try WebhookReceivers(allowing: ["http://127.0.0.1:8090", "https://[::1]:9443/"])
        #expect(receivers.refusal("http://127.0.0.1:8090/anything?x=1") == nil)
        #expect(receivers.refusal("https://[::1]:9443/x") == nil)
        #expect(receivers.refusal("https://[::1]:9444/x") != nil)
        #expect(WebhookReceivers().refusal("https://api.example.com/hook") == nil)
    }

    @Test func aBaseHoldsAtMostTenWebhooks() async throws {
        let api = try await APIHarness()
        var ids: [String] = []
        for _ in 0..<10 {
            let made = await create(api)
            ids.append(try #require(made.json["id"]?.stringValue, "\(made)"))
        }
        let eleventh = await create(api)
        #expect(eleventh.status == 422 && eleventh.json["error"]?["type"] == "INVALID_REQUEST_UNKNOWN")
        #expect(eleventh.json["error"]?["message"]?.stringValue?.contains("delete one first") == true)
        #expect(await api.send("DELETE", "/v0/bases/\(api.base.baseID)/webhooks/\(ids[0])").status == 200)
        #expect(await create(api).status == 200)
    }

    @Test func specificationsHaveAirtablesShapeAndABoundedSize() async throws {
        let api = try await APIHarness()
        let table = try #require(try await api.base.schema().table("OrderDrink"))
        let refused: [JSONValue] = [
            ["options": ["filters": ["dataTypes": ["tableData"]]], "extra": true],
            ["options": ["filters": ["dataTypes": ["tableData"], "colour": "red"]]],
            ["options": ["filters": ["dataTypes": ["tableData"]], "includes": ["includeEverything": true]]],
            ["options": ["filters": ["dataTypes": ["records"]]]],
            ["options": ["filters": ["dataTypes": "tableData"]]],
            ["options": ["filters": ["dataTypes": ["tableData"], "changeTypes": ["upsert"]]]],
            ["options": ["filters": ["dataTypes": ["tableData"], "fromSources": ["email"]]]],
            ["options": ["filters": ["dataTypes": ["tableData"], "watchDataInFieldIds": ["name"]]]],
            ["options": ["filters": ["dataTypes": ["tableData"]], "includes": ["includePreviousCellValues": "yes"]]],
            ["options": ["filters": ["dataTypes": ["tableData"], "sourceOptions": ["formSubmission": ["viewId": 3]]]]],
            ["options": []],
            [:],
        ]
        for spec in refused {
            let answer = await create(api, spec: spec)
            #expect(answer.status == 422 && answer.json["error"]?["type"] == "INVALID_REQUEST_UNKNOWN", "\(spec): \(answer)")
        }
        // Every documented key at once is taken, and listed back as given.
        let full: JSONValue = ["options": [
            "filters": ["dataTypes": ["tableData", "tableFields"], "recordChangeScope": .string(table.id),
                        "changeTypes": ["add", "update"], "fromSources": ["publicApi", "client"],
                        "sourceOptions": ["formSubmission": ["viewId": "viwAAAAAAAAAAAAAA"]],
                        "watchDataInFieldIds": ["fldAAAAAAAAAAAAAA"], "watchSchemasOfFieldIds": ["fldAAAAAAAAAAAAAA"]],
            "includes": ["includeCellValuesInFieldIds": "all", "includePreviousCellValues": true,
                         "includePreviousFieldDefinitions": false],
        ]]
        #expect(await create(api, spec: full).status == 200)
        #expect(await api.get("/v0/bases/\(api.base.baseID)/webhooks").json["webhooks"]?.arrayValue?.first?["specification"] == full)

        // 8 KB of JSON at most: 450 field ids are about 9 KB.
        let many = JSONValue.array((0..<450).map { .string(String(format: "fld%014d", $0)) })
        let big = await create(api, spec: ["options": ["filters": ["dataTypes": ["tableData"], "watchDataInFieldIds": many]]])
        #expect(big.status == 422 && big.json["error"]?["message"]?.stringValue?.contains("8192 bytes") == true, "\(big)")
    }

    @Test func payloadsAreKeptSevenDays() async throws {
        let api = try await APIHarness()
        let hooks = "/v0/bases/\(api.base.baseID)/webhooks"
        let hookID = try #require(await create(api).json["id"]?.stringValue)
        #expect(await api.send("POST", api.path(), json: ["fields": ["orderName": "Amy"]]).status == 200)
        api.clock.advance(by: 6 * 86_400)
        #expect(await api.send("POST", api.path(), json: ["fields": ["orderName": "Bo"]]).status == 200)
        #expect(await api.get("\(hooks)/\(hookID)/payloads").json["payloads"]?.arrayValue?.count == 2)

        // Eight days after the first write (the webhook refreshed meanwhile), the next write drops it.
        #expect(await api.send("POST", "\(hooks)/\(hookID)/refresh").status == 200)
        api.clock.advance(by: 2 * 86_400)
        #expect(await api.send("POST", api.path(), json: ["fields": ["orderName": "Cy"]]).status == 200)
        let page = await api.get("\(hooks)/\(hookID)/payloads")
        let kept = try #require(page.json["payloads"]?.arrayValue)
        #expect(kept.count == 2, "\(page)")
        #expect(page.json["cursor"] == 4)
        #expect(await api.get("\(hooks)/\(hookID)/payloads?cursor=2").json["payloads"]?.arrayValue?.count == 2)
    }

    @Test func aWebhookNoLongerAllowedIsNotPinged() async throws {
        let transport = RecordingTransport()
        // Made while the receiver was allowed (an earlier run of serve), on the same base.
        let earlier = try await APIHarness(webhookReceivers: try WebhookReceivers(allowing: ["http://127.0.0.1:9"]))
        #expect(await create(earlier, url: "http://127.0.0.1:9/ping").status == 200)
        let now = AirtableAPI(store: earlier.base, baseID: earlier.base.baseID,
                              tokens: AccessTokens([(APIHarness.writer, .readWrite)]),
                              notifier: WebhookNotifier(transport: transport, retryDelays: []))
        _ = await now.handle(APIRequest(method: "POST", target: "/v0/\(earlier.base.baseID)/OrderDrink",
                                        headers: [("Authorization", "Bearer \(APIHarness.writer)"),
                                                  ("Content-Type", "application/json")],
                                        body: Array(#"{"fields":{"orderName":"Amy"}}"#.utf8)))
        await now.notifyWebhooks().value
        #expect(transport.sent.withLock { $0.isEmpty })
        let result = await earlier.get("/v0/bases/\(earlier.base.baseID)/webhooks").json["webhooks"]?.arrayValue?
            .first?["lastNotificationResult"]
        #expect(result?["success"] == false)
        #expect(result?["error"]?["message"]?.stringValue?.contains("not sent") == true)
    }
}
