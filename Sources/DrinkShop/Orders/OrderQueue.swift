import DrinkShopCore
import Foundation

/// Today's orders as the bar and the customers see them, computed from the order desk (never from
/// records): the make line (orders still to make, oldest first) and the pickup board's numbers.
public struct OrderQueue: Sendable {
    let orders: OrderDesk

    init(orders: OrderDesk) {
        self.orders = orders
    }

    /// The pickup screen's numbers: 製作中 (placed or being made) and 可取餐 (ready), each oldest first.
    /// Only orders with a pickup number show: an unsent order's provisional number is this counter's
    /// own, and orders from another app have none.
    public struct Board: Sendable, Equatable {
        public var preparing: [Int]
        public var ready: [Int]

        public init(preparing: [Int] = [], ready: [Int] = []) {
            self.preparing = preparing
            self.ready = ready
        }
    }

    /// The board now. Throws when today's orders cannot be read at all.
    public func board() async throws(ShopError) -> Board {
        let (today, _) = try await orders.today()
        var board = Board()
        for stored in Self.oldestFirst(today) {
            guard case .pickup(let number) = stored.number, !stored.isUnsent else { continue }
            switch stored.order.status {
            case .placed, .preparing: board.preparing.append(number)
            case .ready: board.ready.append(number)
            default: continue
            }
        }
        return board
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
