import DrinkShopCore

/// The end-of-day figures (a Z report): what was sold, what it brought in, what was cancelled.
/// Cancelled orders count only in the cancelled figures; revenue is after discounts.
public struct DailyReport: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var name: String
        public var cups: Int
        public var revenue: Int
    }

    /// A cancelled or voided order, with who and why.
    public struct Withdrawn: Sendable, Equatable {
        public var number: String
        public var orderName: String
        public var cups: Int
        public var amount: Int
        public var reason: String
        /// Who voided it; nil for a cancellation.
        public var voidedBy: String?
    }

    public var days: DayRange
    /// "2026-12-01", or "2026-12-01 to 2026-12-03".
    public var day: String { days.description }
    public var orders = 0
    public var cups = 0
    public var subtotal = 0
    public var discounts = 0
    public var revenue: Int { subtotal - discounts }
    /// Cancelled before anything was made and before any money was taken (voids not included).
    public var cancelledOrders = 0
    public var cancelledAmount = 0
    /// Voids (`Order.isVoid(moneyReturned:)`): voided after they were made, or cancelled with money given
    /// back; kept, not revenue. The till report names the same orders voids.
    public var voidedOrders = 0
    public var voidedAmount = 0
    /// Each cancellation and void, in pickup-number order; their counts and sums are the figures above.
    public var cancellations: [Withdrawn] = []
    public var voids: [Withdrawn] = []
    /// Audit-trail entries of the day, by action (`cancelOrder`, `void`, `deleteOrder`, `editOrder`…).
    public var auditCounts: [String: Int] = [:]
    /// Orders not yet picked up (nor cancelled): the day is not closed while there are any.
    public var openOrders = 0
    public var byDrink: [Row] = []
    public var byCategory: [Row] = []
    public var bySize: [Row] = []
    public var addOns: [Row] = []

    /// - Parameter moneyReturned: for each order, whether money was given back for it (from the till's copy
    ///   on the order); missing entries count as none.
    public init(days: DayRange, orders: [Order], moneyReturned: [Bool] = [], audit: [AuditEntry] = []) {
        for entry in audit { auditCounts[entry.action.rawValue, default: 0] += 1 }
        self.days = days
        var drinks: [String: Row] = [:]
        var categories: [String: Row] = [:]
        var sizes: [String: Row] = [:]
        var toppings: [String: Row] = [:]
        for (index, order) in orders.enumerated() {
            if order.status == .cancelled {
                let withdrawn = Withdrawn(number: "#\(order.pickupNumber)", orderName: order.orderName, cups: order.cupCount,
                                          amount: order.total, reason: order.cancelReason ?? "", voidedBy: order.voidedBy)
                if order.isVoid(moneyReturned: index < moneyReturned.count && moneyReturned[index]) {
                    voidedOrders += 1
                    voidedAmount += order.total
                    voids.append(withdrawn)
                } else {
                    cancelledOrders += 1
                    cancelledAmount += order.total
                    cancellations.append(withdrawn)
                }
                continue
            }
            self.orders += 1
            if !order.status.isFinal { openOrders += 1 }
            cups += order.cupCount
            subtotal += order.subtotal
            discounts += order.discount
            for (index, line) in order.lines.enumerated() {
                let net = line.lineTotal - order.discount(forLine: index)
                DailyReport.add(&drinks, line.drinkName, cups: line.quantity, revenue: net)
                DailyReport.add(&categories, line.category.rawValue, cups: line.quantity, revenue: net)
                DailyReport.add(&sizes, line.size.rawValue, cups: line.quantity, revenue: net)
                for addOn in line.addOns {
                    DailyReport.add(&toppings, addOn.rawValue, cups: line.quantity, revenue: AddOn.price * line.quantity)
                }
            }
        }
        let ranked = { (rows: [String: Row]) in rows.values.sorted { ($1.cups, $0.name) < ($0.cups, $1.name) } }
        byDrink = ranked(drinks)
        byCategory = DrinkCategory.allCases.compactMap { categories[$0.rawValue] }
        bySize = CupSize.allCases.compactMap { sizes[$0.rawValue] }
        addOns = AddOn.allCases.compactMap { toppings[$0.rawValue] }
    }

    private static func add(_ rows: inout [String: Row], _ name: String, cups: Int, revenue: Int) {
        var row = rows[name] ?? Row(name: name, cups: 0, revenue: 0)
        row.cups += cups
        row.revenue += revenue
        rows[name] = row
    }
}
