/// The money figures staff read on the close slip, the till report and the exports, each under one name
/// everywhere (a cashier never reads two numbers under one name): what customers handed over, the change
/// given back, what was taken (handed over less change: what went to bills), what was refunded, and net
/// (taken less refunded).
public enum MoneyFigure: String, CaseIterable, Sendable {
    case handedOver, change, taken, refunded, net

    /// Its name on slips and reports, in English with the Chinese staff use.
    public var label: String {
        switch self {
        case .handedOver: "handed over 收款"
        case .change: "change 找零"
        case .taken: "taken 實收"
        case .refunded: "refunded 退款"
        case .net: "net 淨額"
        }
    }

    /// `label` as a column's heading ("Handed over 收款").
    public var heading: String { label.prefix(1).uppercased() + label.dropFirst() }

    /// Its column in the CSV files and the report's JSON.
    public var column: String {
        switch self {
        case .handedOver: "tendered"
        case .change: "change"
        case .taken: "taken"
        case .refunded: "refunded"
        case .net: "net"
        }
    }
}
