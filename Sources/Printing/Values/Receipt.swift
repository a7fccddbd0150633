import Foundation

/// A customer's receipt for one order. Money is integer NT$, signs as they affect the total
/// (a discount is negative).
public struct Receipt: Sendable, Equatable {
    /// One ordered line: "熟成紅茶 大杯 ×2  NT$70".
    public struct Line: Sendable, Equatable {
        public var name: String
        /// Options in one short text, e.g. "大杯 半糖 少冰 +白玉"; empty when none.
        public var detail: String
        public var quantity: Int
        /// The line's amount (all cups), before promotions.
        public var amount: Int

        public init(name: String, detail: String = "", quantity: Int, amount: Int) {
            self.name = name
            self.detail = detail
            self.quantity = quantity
            self.amount = amount
        }
    }

    /// A promotion or manual adjustment: "第二杯半價 -35".
    public struct Adjustment: Sendable, Equatable {
        public var label: String
        public var amount: Int

        public init(label: String, amount: Int) {
            self.label = label
            self.amount = amount
        }
    }

    /// How part of the total was paid: "現金 100".
    public struct Payment: Sendable, Equatable {
        public var method: String
        public var amount: Int

        public init(method: String, amount: Int) {
            self.method = method
            self.amount = amount
        }
    }

    /// The shop's name printed at the top.
    public var shopName: String
    public var pickupNumber: String
    public var time: Date
    public var lines: [Line]
    public var adjustments: [Adjustment]
    public var total: Int
    public var payments: [Payment]
    /// Change handed back; nil when none is due.
    public var change: Int?
    /// Invoice details (統一發票 number, buyer's tax ID, carrier) as ready-made lines; empty when none.
    public var invoiceLines: [String]
    /// Closing lines ("謝謝光臨").
    public var footer: [String]

    public init(
        shopName: String, pickupNumber: String, time: Date, lines: [Line], adjustments: [Adjustment] = [],
        total: Int, payments: [Payment] = [], change: Int? = nil, invoiceLines: [String] = [], footer: [String] = []
    ) {
        self.shopName = shopName
        self.pickupNumber = pickupNumber
        self.time = time
        self.lines = lines
        self.adjustments = adjustments
        self.total = total
        self.payments = payments
        self.change = change
        self.invoiceLines = invoiceLines
        self.footer = footer
    }
}
