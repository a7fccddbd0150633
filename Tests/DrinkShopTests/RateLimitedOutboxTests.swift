import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Synchronization
import Testing

/// A store whose base refuses order lines with a 429 while `limited` (the rate limit, or the plan's
/// monthly quota, which Airtable also answers with 429).
final class RateLimitingStore: ForwardingRecordStore {
    let base: LocalBase
    private let limited = Mutex(false)

    init(_ base: LocalBase) { self.base = base }
    var underlying: any RecordStore { base }

    func limit(_ on: Bool) { limited.withLock { $0 = on } }

    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        if table == "OrderDrink", limited.withLock({ $0 }) { throw .rateLimited(retryAfter: 30) }
        return try await base.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
    }
}

@Suite struct RateLimitedOutboxTests {
    @Test("an order the base refuses with a 429 waits in the outbox with its pickup number and is sent once")
    func rateLimitedOrderIsKept() async throws {
        let fixture = try await ShopFixture()
        let store = RateLimitingStore(fixture.base)
        let outbox = Outbox(store: try LocalBase.inMemory(), location: "memory")
        try await outbox.prepare()
        let clock = fixture.clock
        let shop = Shop(store: store, clock: clock.shopClock, outbox: outbox)
        func order(_ name: String) async throws -> StoredOrder {
            try await shop.orders.place(OrderDraft(orderName: name, lines: [
                LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.half), .ice(.less)], quantity: 1),
            ]), placedBy: "Ken")
        }
        _ = try await order("first")
        store.limit(true)
        let kept = try await order("Amy")
        #expect(kept.isUnsent)
        // The number claimed before the refusal is the order's own: nothing is burned.
        #expect(kept.order.pickupNumber == 2)
        #expect(try await outbox.count() == 1)

        store.limit(false)
        let sent = try await shop.orders.sendUnsent(force: true).sent
        #expect(sent.map(\.pickupNumber) == [2])
        let lines = try await fixture.records("OrderDrink")
        #expect(lines.count == 2)
        #expect(Set(lines.compactMap { $0.fields["pickupNumber"]?.intValue }) == [1, 2])
        #expect(try await shop.orders.sendUnsent(force: true).sent.isEmpty)
        #expect(try await fixture.records("OrderDrink").count == 2)
    }
}
