import DrinkShopCore
import Foundation

/// Today's orders as the bar and the customers see them, computed from the order desk (never from
/// records): the make line (orders still to make, oldest first) and the pickup board's numbers.
public struct OrderQueue: Sendable {
    let orders: OrderDesk

    init(orders: OrderDesk) {
        self.orders = orders
    }

    /// An order the pickup screen may show: one with a pickup number that is placed, being made or ready,
    /// of today or left open from an earlier day. Unsent orders are left out (a provisional number is this
    /// counter's own), and so are orders from another app (they have no number). What the screen does
    /// with them (order, earlier days apart, the newest ready) is the display's board model's decision.
    public struct Ticket: Sendable, Equatable {
        public var number: Int
        /// The order's business day (`2026-12-02`).
        public var businessDay: BusinessDay
        /// Ready to collect; otherwise placed or being made.
        public var isReady: Bool
        /// When it became ready, where the base records it.
        public var readyAt: Date?
        /// The P number it was kept under while the store was away (1 for `A-P1`), if any.
        public var provisionalNumber: Int?
        /// The letter of the counter that kept it (`A` for `A-P1`); nil for one an earlier version kept.
        public var provisionalCounter: String?
        /// How the customer's slip names it while it was kept: `A-P1` (`P1` from an earlier version).
        public var keptText: String? { provisionalNumber.map { OrderNumber.keptText($0, counter: provisionalCounter) } }

        public init(number: Int, businessDay: BusinessDay, isReady: Bool, readyAt: Date? = nil, provisionalNumber: Int? = nil,
                    provisionalCounter: String? = nil) {
            self.number = number
            self.businessDay = businessDay
            self.isReady = isReady
            self.readyAt = readyAt
            self.provisionalNumber = provisionalNumber
            self.provisionalCounter = provisionalCounter
        }
    }

    /// Today's business day and the tickets the pickup screen may show, oldest order first. Throws when
    /// the orders cannot be read at all.
    public func pickupTickets() async throws(ShopError) -> (today: BusinessDay, tickets: [Ticket]) {
        // Read before the orders: should the day turn between the two, the new day's orders still count
        // as today's (`>= today` below in the board model), never as an earlier day's.
        let today = orders.clock.today
        let (list, _) = try await orders.today()
        var tickets: [Ticket] = []
        for stored in Self.oldestFirst(list) {
            guard case .pickup(let number) = stored.number, !stored.isUnsent else { continue }
            switch stored.order.status {
            case .placed, .preparing:
                tickets.append(Ticket(number: number, businessDay: stored.businessDay, isReady: false,
                                      provisionalNumber: stored.provisionalNumber, provisionalCounter: stored.provisionalCounter))
            case .ready:
                tickets.append(Ticket(number: number, businessDay: stored.businessDay, isReady: true, readyAt: stored.readyAt,
                                      provisionalNumber: stored.provisionalNumber, provisionalCounter: stored.provisionalCounter))
            default: continue
            }
        }
        return (today, tickets)
    }

    /// The make line: orders placed or being made, oldest first, and notes on what could not be read.
    public func makeLine() async throws(ShopError) -> (orders: [StoredOrder], problems: [String]) {
        let (today, problems) = try await orders.today()
        let open = today.filter { $0.order.status == .placed || $0.order.status == .preparing }
        return (Self.oldestFirst(open), problems)
    }

    static func oldestFirst(_ orders: [StoredOrder]) -> [StoredOrder] {
        orders.enumerated().sorted { a, b in
            (a.element.order.createdAt, a.offset) < (b.element.order.createdAt, b.offset)
        }.map(\.element)
    }
}
