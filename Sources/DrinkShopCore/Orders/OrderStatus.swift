/// Where an order is in the shop: placed → preparing → ready → picked up, or cancelled (with a
/// reason) while placed or preparing. The raw value is the string stored in Airtable.
///
/// The transitions are pure: they return the next status or throw an `OrderStatusError` saying
/// why not, and never look at a clock or a store.
public enum OrderStatus: String, CaseIterable, Sendable, Hashable {
    case placed
    case preparing
    case ready
    case pickedUp = "picked up"
    case cancelled

    /// The status `advance` moves to, or nil for a finished order.
    public var next: OrderStatus? {
        switch self {
        case .placed: .preparing
        case .preparing: .ready
        case .ready: .pickedUp
        case .pickedUp, .cancelled: nil
        }
    }

    /// Whether the order's lines may change (only while placed; once the drinks are being made
    /// the order is locked).
    public var canEdit: Bool { self == .placed }

    /// Whether the order may be cancelled (placed or preparing; a ready drink is already made).
    public var canCancel: Bool { self == .placed || self == .preparing }

    /// Whether nothing can happen to the order any more.
    public var isFinal: Bool { self == .pickedUp || self == .cancelled }

    /// The label the shop's screens show (製作中, 可取餐...).
    public var chineseLabel: String {
        switch self {
        case .placed: "已下單"
        case .preparing: "製作中"
        case .ready: "可取餐"
        case .pickedUp: "已取餐"
        case .cancelled: "已取消"
        }
    }

    /// Reads a status from its stored value, its Chinese label or a close spelling
    /// ("picked-up", "pickedup", "canceled"), ignoring case; nil otherwise.
    public init?(parsing text: String) {
        let key = text.matchingKey.replacingDashes
        let aliases: [String: OrderStatus] = ["pickedup": .pickedUp, "canceled": .cancelled, "done": .pickedUp]
        if let status = OrderStatus(rawValue: key) ?? aliases[key]
            ?? Self.allCases.first(where: { $0.chineseLabel == key }) {
            self = status
        } else {
            return nil
        }
    }

    /// The status after `advance #N`.
    /// - Parameter order: the pickup number, for the error message.
    /// - Throws: `OrderStatusError.finished` for a picked-up or cancelled order.
    public func advanced(order: Int) throws(OrderStatusError) -> OrderStatus {
        guard let next else { throw .finished(order: order, status: self) }
        return next
    }

    /// The status after `cancel #N`: cancelled.
    /// - Throws: `OrderStatusError.onlyPickupLeft` for a ready order, `.finished` for a
    ///   picked-up or cancelled one.
    public func cancelled(order: Int) throws(OrderStatusError) -> OrderStatus {
        switch self {
        case .placed, .preparing: return .cancelled
        case .ready: throw .onlyPickupLeft(order: order)
        case .pickedUp, .cancelled: throw .finished(order: order, status: self)
        }
    }

    /// Succeeds when the order's lines may be edited.
    /// - Throws: `OrderStatusError.notEditable` unless the order is placed.
    public func checkEditable(order: Int) throws(OrderStatusError) {
        guard canEdit else { throw .notEditable(order: order, status: self) }
    }
}

extension String {
    fileprivate var replacingDashes: String {
        String(map { $0 == "-" || $0 == "_" ? " " : $0 })
    }
}
