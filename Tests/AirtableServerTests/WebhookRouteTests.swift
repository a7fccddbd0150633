import Airtable
import AirtableFormula
import AirtableHTTP
import Foundation
import LocalBase
import Synchronization
import Testing
@testable import AirtableServer

/// A transport that keeps what it is asked to send and answers 200.
final class RecordingTransport: HTTPTransport {
    let sent = Mutex<[TransportRequest]>([])
    func send(_ request: TransportRequest, timeout: Double) async throws(TransportError) -> TransportResponse {
        sent.withLock { $0.append(request) }
        return TransportResponse(status: 200)
    }
}

/// Webhooks: create, list, refresh, notifications on and off, payloads with their cursor, pings.
@Suite struct WebhookRouteTests {
    @Test func theSignatureMatchesTheHMACStandardsVectors() {
        // RFC 4231 test cases 1 and 2.
        #expect(WebhookSignature.hex(WebhookSignature.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20),
                                                                 message: Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(WebhookSignature.hex(WebhookSignature.hmacSHA256(key: Array("Jefe".utf8),
                                                                 message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func payloadsFollowChangesAndPingsAreSigned() async throws {
        let transport = RecordingTransport()
        let api = try await APIHarness(notifier: WebhookNotifier(transport: transport),
                                       webhookReceivers: try WebhookReceivers(allowing: ["http://127.0.0.1:9"]))
        let table = try #require(try await api.base.schema().table("OrderDrink"))
        let hooks = "/v0/bases/\(api.base.baseID)/webhooks"
        let created = await api.send("POST", hooks, json: [
            "notificationUrl": "http://127.0.0.1:9/ping",
            "specification": ["options": ["filters": ["dataTypes": ["tableData"], "recordChangeScope": .string(table.id)]]],
        ])
        #expect(created.status == 200, "\(created)")
        let hookID = try #require(created.json["id"]?.stringValue)
        let secret = try #require(created.json["macSecretBase64"]?.stringValue)
        #expect(created.json["expirationTime"]?.stringValue != nil)

        let order = await api.send("POST", api.path(), json: ["fields": ["orderName": "Amy"]])
        let orderID = try #require(order.json["id"]?.stringValue)
        for index in 0..<3 {
            _ = await api.send("PATCH", api.path("OrderDrink", "/\(orderID)"), json: ["fields": ["orderName": .string("v\(index)")]])
        }
        _ = await api.send("DELETE", api.path("OrderDrink", "/\(orderID)"))
        await api.api.notifyWebhooks().value

        let first = await api.get("\(hooks)/\(hookID)/payloads")
        #expect(first.json["cursor"] == 6 && first.json["mightHaveMore"] == false, "\(first)")
        let payloads = try #require(first.json["payloads"]?.arrayValue)
        #expect(payloads.count == 5)
        let nameID = try #require(table.field("orderName")?.id)
        #expect(payloads[0]["changedTablesById"]?[table.id]?["createdRecordsById"]?[orderID]?["cellValuesByFieldId"]
            == [nameID: "Amy"])
        #expect(payloads[1]["changedTablesById"]?[table.id]?["changedRecordsById"]?[orderID]?["current"]?["cellValuesByFieldId"]
            == [nameID: "v0"])
        #expect(payloads[4]["changedTablesById"]?[table.id]?["destroyedRecordIds"] == [.string(orderID)])
        let paged = await api.get("\(hooks)/\(hookID)/payloads?cursor=3&limit=2")
        #expect(paged.json["payloads"]?.arrayValue?.count == 2 && paged.json["cursor"] == 5 && paged.json["mightHaveMore"] == true)
        #expect(await api.get("\(hooks)/\(hookID)/payloads?cursor=99").status == 422)

        // The pings: one per write here, each signed with the webhook's secret.
        let pings = transport.sent.withLock { $0 }
        #expect(!pings.isEmpty)
        for ping in pings {
            let body = try #require(ping.body)
            #expect(ping.url == "http://127.0.0.1:9/ping")
            #expect(try JSONParser.parse(body)["webhook"]?["id"]?.stringValue == hookID)
            #expect(ping.headers["X-Airtable-Content-MAC"] == WebhookNotifier.signature(body: body, secretBase64: secret))
        }
        let listed = await api.get(hooks)
        let hook = try #require(listed.json["webhooks"]?.arrayValue?.first)
        #expect(hook["cursorForNextPayload"] == 6 && hook["areNotificationsEnabled"] == true)
        #expect(hook["lastNotificationResult"]?["success"] == true)
        #expect(hook["macSecretBase64"] == nil)

        #expect(await api.send("POST", "\(hooks)/\(hookID)/enableNotifications", json: ["enable": false]).status == 200)
        #expect(await api.get(hooks).json["webhooks"]?.arrayValue?.first?["areNotificationsEnabled"] == false)
        #expect(await api.send("POST", "\(hooks)/\(hookID)/refresh").json["expirationTime"]?.stringValue != nil)
        #expect(await api.send("DELETE", "\(hooks)/\(hookID)").status == 200)
        #expect(await api.get(hooks).json["webhooks"] == [])
        #expect(await api.send("DELETE", "\(hooks)/\(hookID)").status == 404)
    }

    @Test func theOtherSideOfALinkIsInThePayloadsToo() async throws {
        let api = try await APIHarness()
        try await LinkAndViewTests.linkedTables(api)
        let schema = try await api.base.schema()
        let (contact, address) = (try #require(schema.table("Contact")), try #require(schema.table("Address")))
        let hooks = "/v0/bases/\(api.base.baseID)/webhooks"
        let road = await api.send("POST", api.path("Address"), json: ["fields": ["Street": "1 Tea Road"]])
        let roadID = try #require(road.json["id"]?.stringValue)
        let created = await api.send("POST", hooks, json: ["specification": ["options": ["filters": ["dataTypes": ["tableData"]]]]])
        let hookID = try #require(created.json["id"]?.stringValue)
        let amy = await api.send("POST", api.path("Contact"), json: ["fields": ["Name": "Amy", "Address": [.string(roadID)]]])
        let amyID = try #require(amy.json["id"]?.stringValue)
        let payloads = try #require(await api.get("\(hooks)/\(hookID)/payloads").json["payloads"]?.arrayValue)
        // One write, one payload, both tables in it.
        #expect(payloads.count == 1)
        #expect(payloads[0]["changedTablesById"]?[contact.id]?["createdRecordsById"]?[amyID] != nil)
        let inverse = try #require(address.field("Contact")?.id)
        #expect(payloads[0]["changedTablesById"]?[address.id]?["changedRecordsById"]?[roadID]?["current"]?["cellValuesByFieldId"]
            == [inverse: [.string(amyID)]])
    }

    @Test func badWebhooksAreRefused() async throws {
        let api = try await APIHarness()
        let hooks = "/v0/bases/\(api.base.baseID)/webhooks"
        let spec: JSONValue = ["options": ["filters": ["dataTypes": ["tableData"]]]]
        #expect(await api.send("POST", hooks, json: ["notificationUrl": "ftp://example.com/", "specification": spec]).status == 422)
        #expect(await api.send("POST", hooks, json: ["notificationUrl": "not a url", "specification": spec]).status == 422)
        #expect(await api.send("POST", hooks, json: ["specification": ["options": ["filters": ["dataTypes": []]]]]).status == 422)
        #expect(await api.send("POST", hooks, json: ["specification": ["options": ["filters": ["dataTypes": ["tableData"],
                                                                                          "recordChangeScope": "tblNOPE"]]]]).status == 422)
        #expect(await api.send("POST", hooks, json: ["specification": spec], token: APIHarness.reader).status == 403)
        #expect(await api.get(hooks).json["webhooks"] == [])
        #expect(await api.get("\(hooks)/achNOPE/payloads").status == 404)
    }
}
