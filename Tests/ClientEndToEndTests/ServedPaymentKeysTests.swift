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

    /// On a server that refuses a payment for a cancelled order in the payment's own commit (`CancelledOrderGuard`,
    /// said in `CreateGuards.header`), a payment is the copy and the create: no read of the order's status after it.
    /// A cancel written at another counter between the copy and the payment makes the server refuse the payment:
    /// nothing is taken, the payer is told the order was cancelled, and the copy written ahead is put right.
    @Test func onAServerThatRefusesPaymentsForCancelledOrdersAPaymentNeedsNoStatusReadAndACancelBetweenIsRefused()
        async throws
    {
        let requests = Mutex<[String]>([])
        // Armed with a counter and an order: the next payment's create waits for that order's cancel there first.
        let cancelFirst = Mutex<(Shop, OrderNumber)?>(nil)
        let ken = Acting("Ken", role: nil)
        try await ServerHarness.with(intercept: { request, forward in
            requests.withLock { $0.append("\(request.method) \(request.path.split(separator: "/").last ?? "")") }
            if request.method == "POST", request.path.hasSuffix("/" + ShopSchema.paymentTable),
               let (shop, number) = cancelFirst.withLock({ armed in defer { armed = nil }; return armed }) {
                _ = try? await shop.counter.cancel(number, reason: "客人不要了", by: ken)
            }
            return await forward(request)
        }, uniqueKeys: ShopSchema.keptUnique, createGuards: ShopSchema.createGuards) { server in
            try await Shop(store: server.base).createMissingSchema()
            _ = try await Shop(store: server.base).seeder.seed(contentsOf: Repository.menu)
            let payer = Shop(store: try server.client()), canceller = Shop(store: try server.client())
            let draft = OrderDraft(lines: [LineDraft(drink: "熟成紅茶", options: [.size(.large), .ice(.less), .sugar(.half)])])

            let order = try await payer.counter.place(draft, by: ken).order
            requests.withLock { $0 = [] }
            _ = try await payer.counter.pay(.pickup(order.order.pickupNumber), method: .card, tendered: nil, by: ken)
            let paying = requests.withLock { $0 }.filter { !$0.hasSuffix(" Setting") && !$0.hasSuffix(" User") }
            #expect(paying == ["GET OrderDrink", "PATCH OrderDrink", "POST TillPayment"])
            #expect(payer.till.payments.refusesCancelledOrders)

            // Cancelled at the other counter after the payer wrote its copy, before its payment reached the server.
            let second = try await payer.counter.place(draft, by: ken).order
            let number = OrderNumber.pickup(second.order.pickupNumber)
            cancelFirst.withLock { $0 = (canceller, number) }
            do {
                _ = try await payer.counter.pay(number, method: .card, tendered: nil, by: ken)
                Issue.record("a payment was taken for an order cancelled before it reached the server")
            } catch let error as TillError {
                guard case .payment(.orderVoided(let refused)) = error else {
                    Issue.record("refused with \(error)")
                    return
                }
                #expect(refused == second.order.pickupNumber)
                #expect(error.description.contains("已取消的訂單不收款"))
            }
            #expect(cancelFirst.withLock { $0 } == nil, "the cancel did not run between the copy and the payment")
            let ledger = try await server.base.allRecords(in: ShopSchema.paymentTable)
                .filter { $0.fields["orderRef"]?.stringValue == second.orderRef }
            #expect(ledger.isEmpty, "\(ledger)")
            // The copy written ahead says what the ledger holds (nothing), and the order stays cancelled.
            let stored = try await canceller.orders.find(number)
            #expect(stored.order.status == .cancelled)
            #expect(stored.till == TillCopy(), "\(String(describing: stored.till))")
        }
    }

    @Test func theServerRefusesAPaymentForACancelledOrderInItsCommitAndSaysSo() async throws {
        try await ServerHarness.with(uniqueKeys: ShopSchema.keptUnique, createGuards: ShopSchema.createGuards) { server in
            try await Shop(store: server.base).createMissingSchema()
            _ = try await Shop(store: server.base).seeder.seed(contentsOf: Repository.menu)
            let client = try server.client()
            let shop = Shop(store: client)
            let ken = Acting("Ken", role: nil)
            let options: [DrinkOption] = [.size(.large), .ice(.less), .sugar(.half)]
            let draft = OrderDraft(lines: [LineDraft(drink: "熟成紅茶", options: options),
                                           LineDraft(drink: "麗春紅茶", options: options)])
            let standing = try await shop.counter.place(draft, by: ken).order
            let cancelled = try await shop.counter.place(draft, by: ken).order
            _ = try await shop.counter.cancel(.pickup(cancelled.order.pickupNumber), reason: "left", by: ken)
            func payment(_ order: StoredOrder, kind: String = "payment") -> Fields {
                ["ref": .string(order.orderRef + "#0"), "orderRef": .string(order.orderRef), "kind": .string(kind),
                 "pickupNumber": .int(order.order.pickupNumber), "businessDay": .string(order.businessDay.description),
                 "method": "card", "amount": .int(order.order.total)]
            }
            do {
                _ = try await client.createRecords(in: ShopSchema.paymentTable, [payment(cancelled)], options: WriteOptions())
                Issue.record("a payment for a cancelled order was written")
            } catch let error as AirtableError {
                #expect(error.apiError?.status == 422)
                #expect(error.apiError?.type == CancelledOrderGuard.refusalType)
                #expect(error.apiError?.message?.contains("#\(cancelled.order.pickupNumber)") == true)
            }
            // Named by the fields' ids (Airtable takes either), the same payment meets the same rules: refused as
            // cancelled, and without its key refused as unkeyed; a second one under a taken key as a duplicate.
            let schema = try #require(try await server.base.schema().table(ShopSchema.paymentTable))
            func byID(_ fields: Fields) throws -> Fields {
                var spelled: Fields = [:]
                for (name, value) in fields { spelled[try #require(schema.field(name)).id] = value }
                return spelled
            }
            for (fields, type) in [(try byID(payment(cancelled)), CancelledOrderGuard.refusalType),
                                   (try byID(payment(standing).filter { $0.key != "ref" }), KeyedKinds.refusalType)] {
                do {
                    _ = try await client.createRecords(in: ShopSchema.paymentTable, [fields], options: WriteOptions())
                    Issue.record("a payment named by field ids was written: \(fields)")
                } catch let error as AirtableError {
                    #expect(error.apiError?.type == type)
                }
            }
            // Nor through an upsert merged on the key (which would create it).
            do {
                _ = try await client.upsertRecords(in: ShopSchema.paymentTable, [UpsertRecord(fields: payment(cancelled))],
                                                   mergeOn: ["ref"], replace: false, options: WriteOptions())
                Issue.record("a payment for a cancelled order was upserted")
            } catch let error as AirtableError {
                #expect(error.apiError?.type == CancelledOrderGuard.refusalType)
            }
            // A record naming one field by its id and by its name is refused (which would the rules see?).
            var twice = payment(standing)
            twice[try #require(schema.field("kind")).id] = "refund"
            await #expect(throws: AirtableError.self) {
                _ = try await client.createRecords(in: ShopSchema.paymentTable, [twice], options: WriteOptions())
            }
            // A batch holding one such payment is refused whole.
            await #expect(throws: AirtableError.self) {
                _ = try await client.createRecords(in: ShopSchema.paymentTable, [payment(standing), payment(cancelled)],
                                                   options: WriteOptions())
            }
            #expect(try await server.base.allRecords(in: ShopSchema.paymentTable).isEmpty)
            #expect(client.createGuards == [CancelledOrderGuard.guardName])
            // A refund of a cancelled order, and a payment of one that stands, are taken.
            var refund = payment(cancelled, kind: "refund")
            refund["ref"] = .string(cancelled.orderRef + "-refund-card")
            _ = try await client.createRecords(in: ShopSchema.paymentTable, [refund], options: WriteOptions())
            _ = try await client.createRecords(in: ShopSchema.paymentTable, [payment(standing)], options: WriteOptions())
            #expect(try await server.base.allRecords(in: ShopSchema.paymentTable).count == 2)
            // The standing order's key is taken now: a second payment under it, named by ids, is a duplicate.
            do {
                _ = try await client.createRecords(in: ShopSchema.paymentTable, [try byID(payment(standing))], options: WriteOptions())
                Issue.record("a second payment under one key, named by field ids, was written")
            } catch let error as AirtableError {
                #expect(error.isDuplicateKey)
            }
            // Nor is a key changed by naming it by its id.
            let written = try #require(try await server.base.allRecords(in: ShopSchema.paymentTable)
                .first { $0.fields["kind"]?.stringValue == "payment" })
            await #expect(throws: AirtableError.self) {
                _ = try await client.updateRecords(in: ShopSchema.paymentTable,
                                                   [RecordUpdate(id: written.id, fields: try byID(["ref": "ordX#9"]))],
                                                   replace: false, options: WriteOptions())
            }
            #expect(try await server.base.allRecords(in: ShopSchema.paymentTable).count == 2)
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
