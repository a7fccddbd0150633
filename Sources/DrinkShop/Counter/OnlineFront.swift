import DrinkShopCore
import Foundation

/// The customers' front (the page at `/order` of `drinkshop serve`), with its own, narrow table. A customer
/// is not on the staff and proves nothing, so PINs and roles do not apply to them; instead they may:
/// - place an order, only while a manager has opened online ordering (`online on`, a setting every counter
///   shares) and while fewer than a bound of the page's orders are still open (placed, being made, ready);
/// - read the status of an order the page placed, named by its number, day *and* key together.
/// Nothing else of the shop is reachable from there: no other order, no payment, staff, report or setting.
/// Orders placed here are recorded as placed by ``Counter/onlineFront`` and go through the same checks as
/// the counter's (`OrderDesk.place`: the menu, every rule, the promotion, a pickup number).
extension Counter {
    /// Who orders from the page are recorded as placed by (the counter's `orders` and the audit trail show it).
    public static let onlineFront = "網路點單 online"

    /// Whether a manager has opened online ordering (the store's setting, as `online` shows it).
    public func isOnlineOrderingOpen() async throws(ShopError) -> Bool {
        try await settings.onlineOrderingOpen()
    }

    /// Why customers may not order from the page now (nil: they may): a manager has not opened online ordering
    /// (the store's setting), or the business day is closed (`close` at a counter, until a shift opens again or
    /// the next business day). The one rule for the page's pages and for `placeOnline`.
    public func onlineOrderingRefusal() async throws(ShopError) -> OnlineRefusal? {
        guard try await settings.onlineOrderingOpen() else { return .closed }
        let dayClosed: Bool
        do { dayClosed = try await drawer.isDayClosed() } catch {
            if case .shop(let failure) = error { throw failure }
            throw .wrap(error)
        }
        return dayClosed ? .closedForTheDay : nil
    }

    /// Opens or closes ordering from the page, for every counter: a manager's action once PINs are set,
    /// with its audit entry.
    public func setOnlineOrdering(_ on: Bool, by acting: Acting) async throws(TillError) {
        let who = try await authorize(.changeSetting, acting)
        do { try await settings.setOnlineOrdering(on, by: who) } catch { throw .shop(error) }
    }

    /// Places an order from the page. Refused when online ordering is closed, when the page's open orders would
    /// go past `bounds` (their number, cups or unpaid NT$, in all or `sender`'s share of them), or by any rule the
    /// counter's orders obey (`ShopError`).
    ///
    /// Not atomic across processes: the page's server is the only one placing online orders, and it sends
    /// one at a time, so the bounds hold.
    ///
    /// With `member` (the number the organiser gave), the order is that member's: it earns their stamps, a
    /// stamp per cup as at the counter, once it is paid there (`StampRule`: an order cancelled unpaid earns
    /// nothing). Nothing else of the member is used or shown: the page proves nobody's number, so a pass's
    /// discount and free cups stay at the counter (`redeem`), where staff see the member, and the ticket
    /// tells the stamps this order will earn, never the card's. A typed number can only give stamps away.
    /// Without a stamp card set up the order is left as it is.
    ///
    /// With `orderRef` (from `newOrderRef()`, kept by the page before it sends), the order can be found again
    /// by it (`placedOnlineOrder`) when the page's server stopped before it heard the answer.
    public func placeOnline(_ draft: OrderDraft, member: MobileNumber? = nil, within bounds: OnlineOrderBounds,
                            from sender: OnlineOrderBounds.Sender? = nil, orderRef: String? = nil) async throws(OnlineRefusal)
        -> OnlineTicket
    {
        do {
            // One reading of the settings, fresh: whether the page is open, and whether the menu changed since this
            // copy of it was read (a drink, add-on or size sold out at a counter a moment ago is refused here).
            let shared = try await settings.readFromStore()
            guard shared[ShopSettings.onlineOrderingKey] == "on" else { throw OnlineRefusal.closed }
            await orders.catalog.follow(shared)
            // And not once the business day is closed (the same rule the pages ask).
            if let refusal = try await onlineOrderingRefusal() { throw refusal }
            // Priced (every rule checked) before it is weighed: its cups and what it costs.
            let priced = try await orders.priced(draft, placedBy: Self.onlineFront)
            let open = try await openOnlineOrders()
            if let refusal = bounds.refusal(cups: priced.cupCount, amount: priced.total, open: open, from: sender) {
                throw refusal
            }
            let stored = try await orders.place(draft, placedBy: Self.onlineFront, orderRef: orderRef)
            var stamps: Int?
            if let member, !stored.isUnsent,
               (try? await members.apply(to: stored, mobile: member, freeCups: 0, money: nil, usePass: false)) != nil,
               let policy = try? await members.program().stampPolicy {
                stamps = policy.stampsEarned(cups: stored.order.cupCount)
            }
            return OnlineTicket(number: stored.order.pickupNumber, day: stored.businessDay, orderRef: stored.orderRef,
                                total: stored.order.total, stamps: stamps)
        } catch let refusal as OnlineRefusal {
            throw refusal
        } catch let error as ShopError {
            throw .refused(error)
        } catch {
            throw .refused(.wrap(error))
        }
    }

    /// The status of an order the page placed now. The number, day and key must all match, so a guessed
    /// number reads nothing.
    /// - Throws: `ShopError.noSuchOrder` when they do not.
    public func onlineOrderStatus(_ ticket: OnlineTicket) async throws(ShopError) -> OrderStatus {
        try await onlineOrder(ticket).status
    }

    /// An order the page placed as the store holds it now: staff may have changed its drinks at the counter
    /// (`edit #70 1 熟成紅茶`), which changes its price; the page shows this, not what was sent. Named as
    /// `onlineOrderStatus` names it.
    /// - Throws: `ShopError.noSuchOrder` when the number, day and key do not all match.
    public func onlineOrder(_ ticket: OnlineTicket) async throws(ShopError) -> OnlineOrder {
        let number = OrderNumber.onDay(ticket.number, day: ticket.day.description)
        let stored = try await orders.find(number)
        guard stored.orderRef == ticket.orderRef else { throw .noSuchOrder(number) }
        return OnlineOrder(status: stored.order.status, lines: stored.order.lines, promotion: stored.order.promotion,
                           bill: stored.till?.bill ?? stored.order.total, revision: stored.auditEntries.count)
    }

    /// The orders placed from the page that are open (placed, being made or ready), of any day, with their cups
    /// and what is still to be paid.
    public func openOnlineOrders() async throws(ShopError) -> [OpenOnlineOrder] {
        let menu = try await orders.catalog.snapshot(refresh: false).menu
        let records = try await orders.queries.open()
        let open = OrderRecord.orders(from: records, menu: menu, clock: clock).orders
        return open.filter { $0.isOnline && !$0.order.status.isFinal }.map { stored in
            let paid = (stored.till?.paid ?? 0) - (stored.till?.refunded ?? 0)
            return OpenOnlineOrder(orderRef: stored.orderRef, cups: stored.order.cupCount, unpaid: max(0, stored.order.total - paid))
        }
    }
}

extension StoredOrder {
    /// Whether the order came from the customers' page (placed by ``Counter/onlineFront``).
    public var isOnline: Bool { order.placedBy == Counter.onlineFront }
}

/// What the page keeps of an order it placed: enough to follow its status, nothing to change it with.
public struct OnlineTicket: Sendable, Hashable {
    /// The pickup number (取餐號).
    public let number: Int
    /// Its business day.
    public let day: BusinessDay
    /// The key its line records share; with the number and day, it names the order beyond guessing.
    public let orderRef: String
    /// What is due at the counter (after the promotion), NT$.
    public let total: Int
    /// The stamps this order earns the member once paid at the counter, when the organiser gave a member number
    /// and a stamp card is set up (never the card's own count: the page proves nobody's number).
    public let stamps: Int?

    public init(number: Int, day: BusinessDay, orderRef: String, total: Int, stamps: Int? = nil) {
        self.number = number
        self.day = day
        self.orderRef = orderRef
        self.total = total
        self.stamps = stamps
    }
}

/// Why the page's order was not placed.
public enum OnlineRefusal: Error, Sendable, CustomStringConvertible {
    /// A manager has closed online ordering (`online off`), or never opened it.
    case closed
    /// The business day is closed (`close` at a counter); the page takes orders again the next business day, or
    /// once a shift is opened.
    case closedForTheDay
    /// The page's open orders would go past `bound` (in all, or the sender's share of it); the shop takes more
    /// once some are collected or paid.
    case tooManyOpen(OnlineBound, yourShare: Bool)
    /// The order itself was refused (a rule, a drink sold out meanwhile, the store failing…).
    case refused(ShopError)

    public var description: String {
        switch self {
        case .closed: "online ordering is closed (目前未開放網路點餐)"
        case .closedForTheDay: "the shop has closed for today (今日已打烊)"
        case .tooManyOpen(let bound, let yourShare):
            switch (bound, yourShare) {
            case (.orders(let limit), false): "\(limit) online orders are still open; try again once some are collected (網路訂單已滿)"
            case (.cups(let limit), false): "online orders hold \(limit) cups at most at once; try again once some are collected (網路訂單杯數已滿)"
            case (.unpaid(let limit), false): "online orders may leave NT$\(limit) unpaid at most; try again once some are paid (網路訂單未付金額已滿)"
            case (.orders(let limit), true): "your network has \(limit) online orders open, its share; try again once some are collected (同一網路訂單過多)"
            case (.cups(let limit), true): "your network's open online orders hold \(limit) cups, its share (同一網路杯數過多)"
            case (.unpaid(let limit), true): "your network's open online orders leave NT$\(limit) unpaid, its share (同一網路未付金額過多)"
            }
        case .refused(let error): error.description
        }
    }
}

/// An order placed from the page, as the store holds it now (`Counter.onlineOrder`).
public struct OnlineOrder: Sendable, Equatable {
    public let status: OrderStatus
    /// Its lines as they are now, in the order sent (an edit at the counter changes a line in its place).
    public let lines: [OrderLine]
    /// The promotion it gets now (chosen again after each edit).
    public let promotion: AppliedPromotion?
    /// What it costs at the counter: the till's bill when its adjustments changed it, else the order's total.
    public let bill: Int
    /// How many times staff changed it (its audit entries: edits, a cancel or void): moves on with each change.
    public let revision: Int
}
