#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Counts and NT$ for one row of a report.
public struct ReportTotals: Sendable, Hashable {
    public var count: Int
    public var amount: Int

    public init(count: Int = 0, amount: Int = 0) {
        self.count = count
        self.amount = amount
    }

    mutating func add(_ amount: Int, count: Int = 1) {
        self.count += count
        self.amount += amount
    }
}

/// Money through one payment method. The columns add up as a cashier checks them: what customers handed
/// over less the change given back is what was taken (applied to bills); taken less refunded is net.
public struct MethodTotals: Sendable, Hashable {
    public var payments = 0
    /// What customers handed over (cash beyond the bill included).
    public var tendered = 0
    /// Applied to bills: `tendered - change`.
    public var taken = 0
    public var change = 0
    public var refunds = 0
    public var refunded = 0
    /// Taken less refunded.
    public var net: Int { taken - refunded }

    /// The figure `figure` names.
    public subscript(figure: MoneyFigure) -> Int {
        switch figure {
        case .handedOver: tendered
        case .change: change
        case .taken: taken
        case .refunded: refunded
        case .net: net
        }
    }
}

/// A cancelled order in the report: its reason, and for a void what went back.
public struct CancelledOrder: Sendable, Hashable {
    public let pickupNumber: Int
    public let reason: String
    public let total: Int
    public let refunded: [PaymentMethod: Int]
}

/// The report for a period (日結): sales, money by method, staff and hour, the promotions, adjustments
/// and member benefits given, voids and cancellations with reasons, stamps and passes, menu changes.
/// Built by a pure function from till values.
public struct TillReport: Sendable, Hashable {
    /// Orders placed in the period and not cancelled.
    public var orders = 0
    public var cups = 0
    /// Before promotions and adjustments.
    public var grossSales = 0
    /// What customers owe for the orders kept (the bills' totals).
    public var netSales = 0
    /// What is still due on the orders kept.
    public var unpaid = 0

    /// NT$ off by promotions.
    public var promotionDiscounts: Int { promotions.values.reduce(0) { $0 + $1.amount } }
    /// NT$ off by member benefits (free cups, passes).
    public var memberDiscounts: Int { freeCups.amount + passes.values.reduce(0) { $0 + $1.amount } }
    /// The adjustments' signed total (a bag fee adds, an own cup takes off).
    public var adjustmentsTotal: Int { adjustments.values.reduce(0) { $0 + $1.amount } }
    /// Money applied to orders, by every method.
    public var taken: Int { byMethod.values.reduce(0) { $0 + $1.taken } }
    /// Money given back, by every method.
    public var refunded: Int { byMethod.values.reduce(0) { $0 + $1.refunded } }

    /// The report's two identities, every figure from this one computation: gross − promotions − member
    /// benefits ± adjustments = net sales, and net sales = taken − refunded + unpaid. A difference (money kept
    /// for a cancelled order, an overpayment) is what `check --books` names.
    public var salesAddUp: Bool { grossSales - promotionDiscounts - memberDiscounts + adjustmentsTotal == netSales }
    public var moneyAddsUp: Bool { taken - refunded + unpaid == netSales }
    public var byMethod: [PaymentMethod: MethodTotals] = [:]
    /// Net sales and orders by who placed the order.
    public var byStaff: [String: ReportTotals] = [:]
    /// Net sales and orders by hour of day on the shop's calendar (0–23).
    public var byHour: [Int: ReportTotals] = [:]
    /// NT$ off by promotion name.
    public var promotions: [String: ReportTotals] = [:]
    /// Signed NT$ by adjustment name, counting cups or items.
    public var adjustments: [String: ReportTotals] = [:]
    /// Free cups given for stamps (count, NT$ off) and stamps spent.
    public var freeCups = ReportTotals()
    public var stampsRedeemed = 0
    /// NT$ off by pass name, counting orders.
    public var passes: [String: ReportTotals] = [:]
    public var voids: [CancelledOrder] = []
    public var cancellations: [CancelledOrder] = []
    /// Orders kept but not yet paid in full.
    public var unpaidOrders: [Int] = []
    /// Menu control and staff changes in the period, oldest first.
    public var menuChanges: [AuditEntry] = []
    /// Orders handed over with money due (who did it, and how much was due), oldest first.
    public var unpaidHandovers: [AuditEntry] { menuChanges.filter(\.isUnpaidHandover) }

    /// The report over orders created in `start..<end`, and audit entries in the same window.
    public static func make(orders: [TillOrder], audit: [AuditEntry] = [], from start: Date, to end: Date,
                            calendar: ShopCalendar) -> TillReport
    {
        var report = TillReport()
        report.add(orders.filter { $0.order.createdAt >= start && $0.order.createdAt < end }, calendar: calendar)
        report.menuChanges = audit.filter { $0.at >= start && $0.at < end }.sorted { $0.at < $1.at }
        return report
    }

    /// Adds `orders` to the figures, in time order. A period read a day at a time adds each day's orders
    /// in turn (days in order), which gives the report `make` gives for all of them at once, without
    /// holding every order of a month.
    public mutating func add(_ tillOrders: [TillOrder], calendar: ShopCalendar) {
        let inOrder = tillOrders
            .sorted { ($0.order.createdAt, $0.order.pickupNumber) < ($1.order.createdAt, $1.order.pickupNumber) }
        for till in inOrder {
            addMoney(till.money)
            let order = till.order
            if order.status == .cancelled {
                let refunded = Dictionary(till.money.refunds.map { ($0.method, $0.amount) }, uniquingKeysWith: +)
                let line = CancelledOrder(pickupNumber: order.pickupNumber, reason: order.cancelReason ?? "",
                                          total: till.charges.total, refunded: refunded)
                if till.isVoid { voids.append(line) } else { cancellations.append(line) }
                continue
            }
            let total = till.charges.total
            self.orders += 1
            self.cups += order.cupCount
            grossSales += till.charges.subtotal
            netSales += total
            byStaff[order.placedBy, default: ReportTotals()].add(total)
            byHour[calendar.hour(of: order.createdAt), default: ReportTotals()].add(total)
            if let promotion = till.charges.promotion {
                promotions[promotion.name, default: ReportTotals()].add(promotion.totalDiscount)
            }
            for adjustment in till.charges.adjustments {
                adjustments[adjustment.name, default: ReportTotals()].add(adjustment.amount, count: adjustment.count)
            }
            for discount in till.charges.memberDiscounts {
                switch discount {
                case .freeCup(_, let cups, let amount):
                    freeCups.add(amount, count: cups)
                case .pass(let name, let amount):
                    passes[name, default: ReportTotals()].add(amount)
                }
            }
            stampsRedeemed += till.stampsRedeemed
            if till.money.due > 0 {
                unpaidOrders.append(order.pickupNumber)
                unpaid += till.money.due
            }
        }
    }

    private mutating func addMoney(_ money: OrderPayments) {
        for payment in money.payments {
            var totals = byMethod[payment.method, default: MethodTotals()]
            totals.payments += 1
            totals.tendered += payment.tendered
            totals.taken += payment.amount
            totals.change += payment.change
            byMethod[payment.method] = totals
        }
        for refund in money.refunds {
            var totals = byMethod[refund.method, default: MethodTotals()]
            totals.refunds += 1
            totals.refunded += refund.amount
            byMethod[refund.method] = totals
        }
    }
}
