import Foundation
import Synchronization

/// New orders from the customers' page (`/order` of `drinkshop serve`), each told once to one running counter:
/// at its prompt while it waits, and on its make line. Only orders created since the counter started are told
/// (a counter opened mid-day does not ring for the morning's). Read by creation time, which both stores answer
/// from an index, from the last reading on (with a margin for another machine's clock and writes in flight).
public final class OnlineArrivals: Sendable {
    private struct State {
        let startedAt: Date
        var lastRead: Date
        /// The orders told, by orderRef, with their creation time (forgotten once well behind the readings).
        var told: [String: Date] = [:]
    }

    private let shop: Shop
    private let state: Mutex<State>
    /// Orders created this long before the last reading are read again (clocks, writes in flight).
    static let margin: TimeInterval = 120

    public init(_ shop: Shop) {
        self.shop = shop
        let now = shop.clock.now()
        state = Mutex(State(startedAt: now, lastRead: now))
    }

    /// How often a waiting counter reads: every second on this machine's own store, as often as the shared
    /// settings are read again on a remote base (every 5 s through `drinkshop serve`, once a minute on Airtable).
    public var interval: Duration {
        shop.outbox == nil ? .seconds(1) : .seconds(max(1, Int(shop.counter.sharedReadingAge)))
    }

    /// Reads the orders created since the last reading; the ones from the page not yet told, now told.
    public func read() async throws(ShopError) -> [StoredOrder] {
        let now = shop.clock.now()
        let from = state.withLock { $0.lastRead }.addingTimeInterval(-Self.margin)
        let records = try await shop.orders.queries.created(from: from, to: now.addingTimeInterval(3600))
        let menu = try await shop.orders.catalog.snapshot(refresh: false).menu
        let orders = OrderRecord.orders(from: records, menu: menu, clock: shop.clock).orders
        state.withLock { $0.lastRead = max($0.lastRead, now) }
        return untold(orders)
    }

    /// The orders among `orders` (a list just read, as the make line's) from the page and not yet told, still
    /// to be made, now told.
    public func untold(_ orders: [StoredOrder]) -> [StoredOrder] {
        state.withLock { state in
            let new = orders.filter { stored in
                stored.isOnline && !stored.isUnsent && stored.order.status == .placed
                    && stored.order.createdAt >= state.startedAt && state.told[stored.orderRef] == nil
            }
            for stored in new { state.told[stored.orderRef] = stored.order.createdAt }
            let forgotten = state.lastRead.addingTimeInterval(-4 * Self.margin)
            state.told = state.told.filter { $0.value >= forgotten }
            return new.sorted { $0.order.createdAt < $1.order.createdAt }
        }
    }

    /// The line that tells one: "網路新單 online order #12 for Amy: 3 cups, $105".
    public static func line(_ stored: StoredOrder) -> String {
        let order = stored.order
        return "網路新單 online order \(stored.number?.description ?? "#\(order.pickupNumber)") for \(order.orderName): "
            + "\(order.cupCount) cup\(order.cupCount == 1 ? "" : "s"), $\(order.total)"
    }
}
