import Airtable
import AirtableHTTP
import AirtableServer
import AirtableURLSession
@testable import DrinkShop
import DrinkShopCore
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// Payments on `drinkshop serve`: the server keeps a payment's key (`TillPayment.ref`) unique and says so, so a
/// payment is created under a key naming the ledger state it was worked out from; of counters paying one order at
/// the same instant the server takes one payment and refuses the others, with no read-back of the ledger.
@Suite struct ServedPaymentKeysTests {
    @Test func countersPayingOneOrderAtOnceMakeOnePaymentAndNoReadBack() async throws {
        let requests = Mutex<[String]>([])
        try await ServerHarness.with(intercept: { request, forward in
            requests.withLock { $0.append("\(request.method) \(request.path.split(separator: "/").last ?? "")") }
            return await forward(request)
        }, uniqueKeys: ShopSchema.keptUnique) { server in
            try await Shop(store: server.base).createMissingSchema()
            _ = try await Shop(store: server.base).seeder.seed(contentsOf: Repository.menu)
            let counters = try (0..<4).map { _ in Shop(store: try server.client()) }
            let ken = Acting("Ken", role: nil)
            let draft = OrderDraft(lines: [LineDraft(drink: "熟成紅茶", options: [.size(.large), .ice(.less), .sugar(.half)])])
            for round in 1...8 {
                let order = try await counters[0].counter.place(draft, by: ken).order
                let number = OrderNumber.pickup(order.order.pickupNumber)
                let outcomes = await withTaskGroup(of: String.self) { group in
                    for index in 0..<6 {
                        let shop = counters[index % counters.count]
                        group.addTask {
                            do {
                                _ = try await shop.counter.pay(number, method: index % 2 == 0 ? .card : .linePay, tendered: nil, by: ken)
                                return "paid"
                            } catch {
                                return "\(error)"
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == "paid" }.count == 1, "round \(round): \(outcomes)")
                #expect(outcomes.filter { $0.contains("already paid") }.count == 5, "round \(round): \(outcomes)")
                let ledger = try await server.base.allRecords(in: ShopSchema.paymentTable)
                    .filter { $0.fields["orderRef"]?.stringValue == order.orderRef }
                #expect(ledger.count == 1, "round \(round)")
                #expect(ledger.first?.fields["ref"]?.stringValue == order.orderRef + "#0")
                #expect(ledger.first?.fields["amount"]?.intValue == order.order.total)
                // The copy on the order says what the ledger holds (the method of the payment that holds).
                let held = try await counters[1].orders.find(number)
                let method = try #require(PaymentMethod(rawValue: ledger.first?.fields["method"]?.stringValue ?? ""))
                #expect(held.till == TillCopy(paidBy: [method: order.order.total]), "round \(round)")
            }
            #expect(counters[0].till.payments.keepsKeysUnique)

            // One payment alone: the order, its copy, the payment, and the order's status after it (a cancel at
            // another counter meanwhile gives the money back); the ledger is read neither before nor after.
            let order = try await counters[0].counter.place(draft, by: ken).order
            requests.withLock { $0 = [] }
            _ = try await counters[0].counter.pay(.pickup(order.order.pickupNumber), method: .card, tendered: nil, by: ken)
            // (The shared settings and staff are read again every few seconds: not the payment's.)
            let paying = requests.withLock { $0 }.filter { !$0.hasSuffix(" Setting") && !$0.hasSuffix(" User") }
            #expect(paying == ["GET OrderDrink", "PATCH OrderDrink", "POST TillPayment", "GET \(order.recordIDs[0])"])
            // Paid again: the copy says so, the ledger is read and refuses it.
            await #expect(throws: TillError.self) {
                _ = try await counters[1].counter.pay(.pickup(order.order.pickupNumber), method: .card, tendered: nil, by: ken)
            }
            #expect(try await server.base.allRecords(in: ShopSchema.paymentTable)
                .filter { $0.fields["orderRef"]?.stringValue == order.orderRef }.count == 1)
        }
    }

    @Test func theServerRefusesASecondPaymentUnderOneKeyAndStillTakesUpsertsMergedOnIt() async throws {
        try await ServerHarness.with(uniqueKeys: ShopSchema.keptUnique) { server in
            try await Shop(store: server.base).createMissingSchema()
            let client = try server.client()
            let payment: Fields = ["ref": "ordA#0", "orderRef": "ordA", "kind": "payment", "method": "card", "amount": 35]
            let first = try await client.createRecords(in: ShopSchema.paymentTable, [payment], options: WriteOptions())
            #expect(client.uniqueKeys.contains(field: "ref", in: ShopSchema.paymentTable))
            do {
                _ = try await client.createRecords(in: ShopSchema.paymentTable, [payment], options: WriteOptions())
                Issue.record("a second payment under one key was written")
            } catch let error as AirtableError {
                #expect(error.isDuplicateKey)
            }
            // A refund is an upsert merged on its key (given once however often it is written): still taken.
            let refund: Fields = ["ref": "ordA-refund-card", "orderRef": "ordA", "kind": "refund", "method": "card", "amount": 35]
            for _ in 0..<2 {
                _ = try await client.upsertRecords(in: ShopSchema.paymentTable, [UpsertRecord(fields: refund)], mergeOn: ["ref"],
                                                   replace: false, options: WriteOptions())
            }
            // A key is never changed: not by an update, nor by an upsert merged on another field.
            await #expect(throws: AirtableError.self) {
                _ = try await client.updateRecords(in: ShopSchema.paymentTable, [RecordUpdate(id: first[0].id, fields: ["ref": "ordA#1"])],
                                                   replace: false, options: WriteOptions())
            }
            await #expect(throws: AirtableError.self) {
                _ = try await client.upsertRecords(in: ShopSchema.paymentTable, [UpsertRecord(fields: ["ref": "ordA#0", "orderRef": "ordB"])],
                                                   mergeOn: ["orderRef"], replace: false, options: WriteOptions())
            }
            let refs = try await server.base.allRecords(in: ShopSchema.paymentTable).compactMap { $0.fields["ref"]?.stringValue }
            #expect(refs.sorted() == ["ordA#0", "ordA-refund-card"])
        }
    }

    /// A payment as a counter older than the payment key writes it, byte for byte: an upsert merged on a fresh
    /// random `ref` (or, older still, a create with none), trusting its read-back of the ledger.
    static func oldCounterPays(_ server: ServerHarness, orderRef: String, amount: Int, upsert: Bool) async throws
        -> (status: Int, body: String)
    {
        var fields: [String: JSONValue] = ["orderRef": .string(orderRef), "pickupNumber": 1, "kind": "payment",
                                           "method": "cash", "amount": .int(amount), "by": "Old"]
        var body: [String: JSONValue] = ["typecast": true]
        if upsert {
            fields["ref"] = .string(AirtableID.make("pay"))
            body["performUpsert"] = ["fieldsToMergeOn": ["ref"]]
        }
        body["records"] = .array([.object(["fields": .object(fields)])])
        let request = TransportRequest(method: upsert ? "PATCH" : "POST",
                                       url: "\(server.endpoint)/v0/\(server.base.baseID)/\(ShopSchema.paymentTable)",
                                       headers: ["Authorization": "Bearer \(server.token)", "Content-Type": "application/json"],
                                       body: Array(JSONValue.object(body).description.utf8))
        let response = try await URLSessionTransport.shared.send(request, timeout: 10)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test func aCounterOlderThanThePaymentKeyIsRefusedItsPaymentAndToldToUpdate() async throws {
        try await ServerHarness.with(uniqueKeys: ShopSchema.keptUnique) { server in
            try await Shop(store: server.base).createMissingSchema()
            _ = try await Shop(store: server.base).seeder.seed(contentsOf: Repository.menu)
            let shop = Shop(store: try server.client())
            let ken = Acting("Ken", role: nil)
            let draft = OrderDraft(lines: [LineDraft(drink: "熟成紅茶", options: [.size(.large), .ice(.less), .sugar(.half)])])
            let order = try await shop.counter.place(draft, by: ken).order
            // The older counter pays first (as it would beside a new one working from the same empty ledger): refused,
            // both ways it ever wrote a payment, with a message staff can act on; nothing is written.
            for upsert in [true, false] {
                let (status, body) = try await Self.oldCounterPays(server, orderRef: order.orderRef, amount: order.order.total,
                                                                   upsert: upsert)
                #expect(status == 422, "\(body)")
                #expect(body.contains(KeyedKinds.refusalType) && body.contains("Update drinkshop at this counter"), "\(body)")
            }
            #expect(try await server.base.allRecords(in: ShopSchema.paymentTable).isEmpty)
            // The new counter's keyed payment is the one payment of the bill.
            _ = try await shop.counter.pay(.pickup(order.order.pickupNumber), method: .card, tendered: nil, by: ken)
            let ledger = try await server.base.allRecords(in: ShopSchema.paymentTable)
            #expect(ledger.map { $0.fields["ref"]?.stringValue } == [order.orderRef + "#0"])
            // A keyed payment whose key names another order is refused too (the key is the order's).
            let wrong: Fields = ["ref": "ordOther#0", "orderRef": .string(order.orderRef), "kind": "payment", "method": "card", "amount": 1]
            await #expect(throws: AirtableError.self) {
                _ = try await server.client().createRecords(in: ShopSchema.paymentTable, [wrong], options: WriteOptions())
            }
        }
        // Where no key is kept (Airtable, an older store served without the keys), the older counter's writes are taken.
        try await ServerHarness.with { server in
            try await Shop(store: server.base).createMissingSchema()
            for upsert in [true, false] {
                let (status, body) = try await Self.oldCounterPays(server, orderRef: "ordA", amount: 35, upsert: upsert)
                #expect(status == 200, "\(body)")
            }
        }
    }
}
