import Airtable
import Foundation
import LocalBase
import Synchronization
import Testing
import TestSupport
@testable import AirtableServer

/// An API response as a client reads it.
struct Reply: CustomStringConvertible {
    var status: Int
    var headers: [(name: String, value: String)]
    var bytes: [UInt8]

    /// The body as JSON (`.null` when it is not JSON, which the tests then notice).
    var json: JSONValue { (try? JSONParser.parse(bytes)) ?? .null }
    var text: String { String(decoding: bytes, as: UTF8.self) }
    /// `error.type` of an object error, or the bare string of `{"error":"NOT_FOUND"}`.
    var errorType: String? { json["error"]?["type"]?.stringValue ?? json["error"]?.stringValue }
    var errorMessage: String? { json["error"]?["message"]?.stringValue }
    var records: [JSONValue] { json["records"]?.arrayValue ?? [] }
    var ids: [String] { records.compactMap { $0["id"]?.stringValue } }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var description: String { "\(status) \(text)" }
}

/// An in-memory base with the KEBUKE app's tables (reference domain.md §2.1, §2.2) behind the API,
/// with one read-write and one read-only token.
struct APIHarness {
    static let writer = "patWRITE0123456789.abcdef"
    static let reader = "patREAD01234567890.abcdef"

    let base: LocalBase
    let api: AirtableAPI
    let clock: TestClock

    init(rateLimit: Double? = nil, penalty: Double = 30, iteratorLifetime: Duration = .seconds(600),
         notifier: WebhookNotifier? = nil, protectedTables: ProtectedTables = ProtectedTables(),
         webhookReceivers: WebhookReceivers = WebhookReceivers()) async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_795_000_000.250), seconds: 1_000)
        self.clock = clock
        base = try LocalBase.inMemory(clock: { clock.now }, iteratorLifetime: iteratorLifetime)
        _ = try await base.createTable(APIHarness.drinkTable)
        _ = try await base.createTable(APIHarness.orderTable)
        let limiter = rateLimit.map { RateLimiter(requestsPerSecond: $0, penalty: penalty, clock: clock.monotonic) }
        api = AirtableAPI(store: base, baseID: base.baseID,
                          tokens: AccessTokens([(APIHarness.writer, .readWrite), (APIHarness.reader, .read)]),
                          rateLimiter: limiter, user: try await base.collaborators().first, notifier: notifier,
                          protectedTables: protectedTables, webhookReceivers: webhookReceivers)
    }

    static let drinkTable = TableSpec(name: "Drink", fields: [
        FieldSpec(name: "name", type: .singleLineText),
        FieldSpec(name: "description", type: .multilineText),
        FieldSpec(name: "medium", type: .number, options: ["precision": 0]),
        FieldSpec(name: "large", type: .number, options: ["precision": 0]),
        FieldSpec(name: "image", type: .multipleAttachments),
        .singleSelect("category", ["季節限定", "單品茶", "調茶", "雲蓋", "歐蕾"]),
        FieldSpec(name: "hotAvailable", type: .checkbox),
    ])

    static let orderTable = TableSpec(name: "OrderDrink", fields: [
        FieldSpec(name: "drinkName", type: .singleLineText),
        .singleSelect("size", ["中杯", "大杯"]),
        .singleSelect("ice", ["正常冰", "少冰", "微冰", "去冰", "完全去冰", "常溫", "溫", "熱"]),
        .singleSelect("sugar", ["正常糖", "少糖", "半糖", "微糖", "二分糖", "一分糖", "無糖"]),
        .multipleSelects("addOns", ["加白玉", "加水玉", "加菓玉"]),
        FieldSpec(name: "price", type: .number, options: ["precision": 0]),
        FieldSpec(name: "orderName", type: .singleLineText),
        FieldSpec(name: "numberOfCups", type: .number, options: ["precision": 0]),
        FieldSpec(name: "imageUrl", type: .url),
        FieldSpec(name: "ref", type: .singleLineText),
        FieldSpec(name: "paid", type: .checkbox),
        FieldSpec(name: "pickedUpAt", type: .dateTime, options: ["timeZone": "Asia/Taipei"]),
    ])

    /// `/v0/{base}/{table}` plus `rest` (a `/recordId`, `/listRecords`, `?query` ...).
    func path(_ table: String = "OrderDrink", _ rest: String = "") -> String { "/v0/\(base.baseID)/\(table)\(rest)" }

    func send(_ method: String, _ target: String, json: JSONValue? = nil, body: String? = nil,
              token: String? = APIHarness.writer, headers: [(name: String, value: String)] = []) async -> Reply {
        await api.reply(method, target, json: json, body: body, token: token, headers: headers)
    }

    func get(_ target: String, token: String? = APIHarness.writer) async -> Reply {
        await send("GET", target, token: token)
    }

    /// Creates order lines directly in the base (not through the API) and returns their ids in order.
    @discardableResult
    func seedOrders(_ count: Int, name: (Int) -> String = { "guest \($0)" }) async throws -> [String] {
        var ids: [String] = []
        for start in stride(from: 0, to: count, by: 50) {
            let batch = (start..<min(count, start + 50)).map { index -> Fields in
                ["drinkName": "熟成紅茶", "orderName": .string(name(index)), "price": .int(35 + index),
                 "numberOfCups": 1, "size": "中杯"]
            }
            ids += try await base.createRecords(in: "OrderDrink", batch, options: WriteOptions()).map(\.id)
        }
        return ids
    }

    /// Every order line as the base holds it, by id.
    func orders() async throws -> [String: Fields] {
        let records = try await base.allRecords(in: "OrderDrink")
        return Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0.fields) })
    }
}

/// A path segment encoded as pyairtable does (`quote(name, safe="")`): only unreserved characters kept.
func percentEncoded(_ text: String) -> String {
    formEncoded(text).replacingOccurrences(of: "+", with: "%20")
}

/// A query-string value encoded as pyairtable and airtable.js do: unreserved characters kept, space as
/// `+`, everything else percent-encoded.
func formEncoded(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
             UInt8(ascii: "~"):
            out.append(Character(UnicodeScalar(byte)))
        case UInt8(ascii: " "): out += "+"
        default: out += String(format: "%%%02X", byte)
        }
    }
    return out
}

/// One KEBUKE order line as the app's `CreateOrderFields` encodes it.
func kebukeLine(_ drink: String = "白玉歐蕾", name: String = "Joanna", cups: Int = 2, price: Int = 150) -> JSONValue {
    ["drinkName": .string(drink), "size": "大杯", "ice": "少冰", "sugar": "半糖", "addOns": ["加白玉"],
     "price": .int(price), "orderName": .string(name), "numberOfCups": .int(cups),
     "imageUrl": "https://example.com/white-jade.jpg"]
}

extension AirtableAPI {
    /// One request as a client sends it (the bearer token, a JSON body), answered in process.
    func reply(_ method: String, _ target: String, json: JSONValue? = nil, body: String? = nil, token: String?,
               headers: [(name: String, value: String)] = []) async -> Reply {
        var all = headers
        if let token { all.append((name: "Authorization", value: "Bearer \(token)")) }
        var bytes: [UInt8] = []
        if let json { bytes = JSONWriter.bytes(json) }
        if let body { bytes = Array(body.utf8) }
        if !bytes.isEmpty { all.append((name: "Content-Type", value: "application/json")) }
        let response = await handle(APIRequest(method: method, target: target, headers: all, body: bytes))
        return Reply(status: response.status, headers: response.headers, bytes: response.body)
    }
}
