import Airtable
import AirtableFormula
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import AirtableServer

// The KEBUKE app's own models (JoannaChen15/Kebuke, reference domain.md §2.1, §2.2), re-declared so
// the test decodes our responses exactly as the app does, and encodes its bodies with JSONEncoder as
// the app does (which writes `/` in URLs as `\/`).
private struct DrinkResponse: Decodable { let records: [DrinkRecord] }
private struct DrinkRecord: Decodable { let fields: DrinkFields }
private struct DrinkFields: Decodable {
    let name: String
    let description: String
    let medium: Int
    let large: Int
    let image: [DrinkImage]
    let category: String
}
private struct DrinkImage: Decodable { let url: URL }

private struct CreateOrderDrink: Encodable { let records: [CreateOrderRecord] }
private struct CreateOrderRecord: Encodable { let fields: CreateOrderFields }
private struct CreateOrderFields: Codable, Equatable {
    let drinkName: String
    let size: String
    let ice: String
    let sugar: String
    let addOns: [String]?
    let price: Int
    let orderName: String
    let numberOfCups: Int
    let imageUrl: URL
}
private struct CreateOrderDrinkResponse: Decodable { let records: [CreateOrderDrinkResponseRecord] }
private struct CreateOrderDrinkResponseRecord: Decodable {
    let id: String
    let createdTime: String
    let fields: CreateOrderFields
}
private struct UpdateOrderDrink: Encodable { let records: [UpdateOrderRecord] }
private struct UpdateOrderRecord: Encodable {
    let id: String
    let fields: UpdateOrderFields
}
private struct UpdateOrderFields: Encodable {
    let size: String
    let ice: String
    let sugar: String
    let addOns: [String]
    let price: Int
    let numberOfCups: Int
}

/// The KEBUKE app's requests, as its `MenuViewController` builds them, against a live server.
@Suite struct LiveKebukeAppTests {
    private func request(_ url: URL, _ method: String, body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(APIHarness.writer)", forHTTPHeaderField: "Authorization")
        if method != "GET" { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        request.httpBody = body
        return request
    }

    private func status(_ response: URLResponse) -> Int { (response as? HTTPURLResponse)?.statusCode ?? 0 }

    @Test func theAppListsTheMenuPlacesEditsAndDeletesAnOrder() async throws {
        try await LiveAPI.run { live in
            _ = try await live.harness.base.createRecords(in: "Drink", [
                ["name": "白玉歐蕾", "description": "珍奶不解釋", "medium": 60, "large": 70, "category": "歐蕾",
                 "image": [["url": "https://example.com/white-jade.jpg"]]],
            ], options: WriteOptions())
            let base = try #require(URL(string: live.baseURL))

            // GET /v0/<base>/Drink, decoded as the app does.
            let (menuData, menuResponse) = try await liveSession.data(for: request(base.appendingPathComponent("Drink"), "GET"))
            #expect(status(menuResponse) == 200)
            let menu = try JSONDecoder().decode(DrinkResponse.self, from: menuData)
            #expect(menu.records.map(\.fields.name) == ["白玉歐蕾"])
            #expect(menu.records.first?.fields.image.first?.url.absoluteString == "https://example.com/white-jade.jpg")

            // POST /v0/<base>/OrderDrink with {"records":[{"fields":…}]}.
            let orders = base.appendingPathComponent("OrderDrink")
            let line = CreateOrderFields(drinkName: "白玉歐蕾", size: "大杯", ice: "少冰", sugar: "半糖", addOns: ["加白玉"],
                                         price: 160, orderName: "Joanna", numberOfCups: 2,
                                         imageUrl: try #require(URL(string: "https://example.com/white-jade.jpg")))
            let body = try JSONEncoder().encode(CreateOrderDrink(records: [CreateOrderRecord(fields: line)]))
            #expect(String(decoding: body, as: UTF8.self).contains("\\/"))
            let (createdData, createdResponse) = try await liveSession.data(for: request(orders, "POST", body: body))
            #expect(status(createdResponse) == 200)
            let created = try JSONDecoder().decode(CreateOrderDrinkResponse.self, from: createdData)
            #expect(created.records.map(\.fields) == [line])
            let id = try #require(created.records.first?.id)
            #expect(AirtableTimestamp.parse(created.records[0].createdTime) != nil)

            // A line without add-ons: the app leaves `addOns` out, and the list leaves the empty cell out.
            let plain = CreateOrderFields(drinkName: "熟成紅茶", size: "中杯", ice: "去冰", sugar: "無糖", addOns: nil,
                                          price: 35, orderName: "Joanna", numberOfCups: 1,
                                          imageUrl: try #require(URL(string: "https://example.com/black.jpg")))
            let plainBody = try JSONEncoder().encode(CreateOrderDrink(records: [CreateOrderRecord(fields: plain)]))
            #expect(status(try await liveSession.data(for: request(orders, "POST", body: plainBody)).1) == 200)

            // PATCH /v0/<base>/OrderDrink, the batch form, with an empty addOns array.
            let update = UpdateOrderDrink(records: [UpdateOrderRecord(id: id, fields: UpdateOrderFields(
                size: "中杯", ice: "微冰", sugar: "微糖", addOns: [], price: 120, numberOfCups: 2))])
            let (_, patchResponse) = try await liveSession.data(for: request(orders, "PATCH", body: try JSONEncoder().encode(update)))
            #expect(status(patchResponse) == 200)

            // GET /v0/<base>/OrderDrink: the order tab's list.
            let (listData, _) = try await liveSession.data(for: request(orders, "GET"))
            let list = try JSONDecoder().decode(CreateOrderDrinkResponse.self, from: listData)
            #expect(list.records.map(\.fields.size) == ["中杯", "中杯"])
            #expect(list.records.first?.fields.addOns == nil)
            #expect(list.records.map(\.fields.price).reduce(0, +) == 155)

            // DELETE /v0/<base>/OrderDrink/<id>, Content-Type set and no body; the app needs exactly 200.
            let (_, deleteResponse) = try await liveSession.data(for: request(orders.appendingPathComponent(id), "DELETE"))
            #expect(status(deleteResponse) == 200)
            #expect(try await live.harness.orders().count == 1)
        }
    }

    @Test func airtableJSShapedRequestsWork() async throws {
        try await LiveAPI.run { live in
            let base = live.baseURL
            func send(_ method: String, _ url: String, _ body: String? = nil) async throws -> (Int, JSONValue) {
                var request = URLRequest(url: try #require(URL(string: url)))
                request.httpMethod = method
                // airtable.js' headers, Content-Type included on GET and DELETE.
                for (name, value) in [("authorization", "Bearer \(APIHarness.writer)"), ("x-api-version", "0.1.0"),
                                      ("x-airtable-application-id", live.harness.base.baseID),
                                      ("content-type", "application/json"), ("User-Agent", "Airtable.js/0.12.2")] {
                    request.setValue(value, forHTTPHeaderField: name)
                }
                request.httpBody = body.map { Data($0.utf8) }
                let (data, response) = try await liveSession.data(for: request)
                return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONParser.parse(Array(data))) ?? .null)
            }
            let (createStatus, created) = try await send("POST", "\(base)/OrderDrink/?", "{\"fields\":{\"orderName\":\"Amy\"},\"typecast\":true}")
            #expect(createStatus == 200)
            let id = try #require(created["id"]?.stringValue)
            #expect(try await send("GET", "\(base)/OrderDrink/\(id)?").1["fields"] == ["orderName": "Amy"])
            let (_, page) = try await send("GET", "\(base)/OrderDrink?fields%5B%5D=orderName&sort%5B0%5D%5Bfield%5D=orderName"
                + "&sort%5B0%5D%5Bdirection%5D=asc&returnFieldsByFieldId=false&pageSize=100")
            #expect(page["records"]?.arrayValue?.count == 1)
            let (postStatus, _) = try await send("POST", "\(base)/OrderDrink/listRecords?timeZone=Asia%2FTaipei&userLocale=zh-tw",
                                                 "{\"method\":\"post\",\"timeZone\":\"Asia/Taipei\",\"userLocale\":\"zh-tw\",\"pageSize\":10}")
            #expect(postStatus == 200)
            let (patchStatus, _) = try await send("PATCH", "\(base)/OrderDrink/?", "{\"records\":[{\"id\":\"\(id)\",\"fields\":{\"price\":5}}]}")
            #expect(patchStatus == 200)
            let (deleteStatus, deleted) = try await send("DELETE", "\(base)/OrderDrink?records%5B%5D=\(id)")
            #expect(deleteStatus == 200)
            #expect(deleted == ["records": [["id": .string(id), "deleted": true]]])
        }
    }
}
