import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// Moving an order on with one request, from this counter's copy of the day (`OrderDayCache`), on a
/// remote base.
///
/// The copy may be a few seconds old, and another counter may have moved or cancelled the order since.
/// That cannot go unnoticed: each step is recorded in a field of its own (`preparingAt`, `readyAt`,
/// `pickedUpAt`) and a cancellation writes its reason, and the write's answer carries every cell of the
/// records. When the answer shows a step beyond the one written, or a cancellation, the order's true
/// status is written back at once (a second request, only then) and staff are told it was moved
/// elsewhere; nothing is moved twice and no cancellation is undone.
extension OrderDesk {
    /// Today's order `number` as this counter last saw it, when it may be moved on or paid from that copy: a
    /// remote base with the step fields, the order in the copy, and no unsent copy of it in the outbox.
    func todaysCopy(_ number: OrderNumber) async throws(ShopError) -> StoredOrder? {
        let today = clock.today
        guard case .pickup(let pickup) = number, records.stepFields.available,
              case .kept(let list) = queries.copyOfToday(today)
        else { return nil }
        let mine = list.filter {
            $0.fields[OrderField.pickupNumber]?.intValue == pickup && $0.fields[OrderField.businessDay]?.stringValue == today.description
        }
        guard !mine.isEmpty else { return nil }
        let menu = try await catalog.snapshot(refresh: false).menu
        if let outbox = delivery.outbox,
           try await outbox.unsentOrders(menu: menu, clock: clock).contains(where: { $0.order.pickupNumber == pickup })
        {
            return nil
        }
        let orders = OrderRecord.orders(from: mine.sorted { ($0.createdTime, $0.id) < ($1.createdTime, $1.id) }, menu: menu,
                                        clock: clock).orders
        guard orders.count == 1, let copy = orders.first, !copy.isForeign, !copy.isUnsent else { return nil }
        return copy
    }

    /// Moves `copy` on with one write; nil when the copy says it cannot move (the order is then read
    /// afresh, so staff hear about its real status).
    func advanceCopy(_ copy: StoredOrder) async throws(ShopError) -> StoredOrder? {
        var moved = copy
        do { try moved.order.advance() } catch { return nil }
        let answered = try await records.writeStatus(of: moved)
        delivery.storeAnswered()
        switch Self.truth(of: answered, written: moved.order.status) {
        case .asWritten:
            queries.keep(answered, day: copy.businessDay, sent: nil, answered: nil)
            return moved
        case .elsewhere(let status):
            // Another counter moved it further, or cancelled it, after this counter's copy was read.
            var actual = moved
            actual.order.adopt(storedStatus: status, cancelReason: Self.cancelReason(in: answered))
            let repaired = try await records.writeStatus(of: actual)
            queries.keep(repaired, day: copy.businessDay, sent: nil, answered: nil)
            throw .movedElsewhere(copy.number ?? .pickup(copy.order.pickupNumber), status: status)
        }
    }

    /// The order as the store answered a write of the till's copy on `stored`'s records (`answered`), when it is not
    /// the order the till worked `stored`'s payment out from: its lines or status changed since it was read (this
    /// counter's copy of the day is a few seconds old, or another counter changed it after the read), or its bill
    /// (`bill`, the cell the write left alone). Nil when it is as the till read it. The answer is kept in the day's copy.
    func changedSince(_ stored: StoredOrder, answered: [Record], bill: Int?) async throws(ShopError) -> StoredOrder? {
        guard !answered.isEmpty else { return nil }
        queries.keep(answered, day: stored.businessDay, sent: nil, answered: nil)
        let menu = try await catalog.snapshot(refresh: false).menu
        let found = OrderRecord.orders(from: answered.sorted { ($0.createdTime, $0.id) < ($1.createdTime, $1.id) }, menu: menu,
                                       clock: clock).orders
        guard found.count == 1, var now = found.first else { return nil }
        let billNow = answered.first?.fields[OrderField.bill]?.intValue
        guard now.order != stored.order || now.recordIDs != stored.recordIDs || billNow != bill else { return nil }
        now.till = nil  // the copy the write found is gone: the ledger decides
        return now
    }

    enum Truth: Equatable { case asWritten, elsewhere(OrderStatus) }

    /// What the records say after a write of `written`: a cancellation wins, then the furthest step recorded.
    static func truth(of records: [Record], written: OrderStatus) -> Truth {
        if cancelReason(in: records) != nil { return .elsewhere(.cancelled) }
        let steps: [OrderStatus] = [.preparing, .ready, .pickedUp]
        guard let rank = steps.firstIndex(of: written) else { return .asWritten }
        for step in steps[(rank + 1)...].reversed() {
            guard let field = OrderField.reached(step) else { continue }
            if records.contains(where: { $0.fields[field]?.stringValue?.isEmpty == false }) { return .elsewhere(step) }
        }
        return .asWritten
    }

    static func cancelReason(in records: [Record]) -> String? {
        records.lazy.compactMap { $0.fields[OrderField.cancelReason]?.stringValue }.first { !$0.isEmpty }
    }
}
