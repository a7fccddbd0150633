import Foundation

/// One sticker for one cup, as the bar sticks it on: everything a barista and the customer need, and
/// nothing that identifies the customer beyond a shortened name.
public struct CupLabel: Sendable, Equatable {
    /// The pickup number called out and shown on the screen, e.g. "A023" or "#P2".
    public var pickupNumber: String
    /// This cup's position among the order's cups, from 1.
    public var cupIndex: Int
    /// How many cups the order has.
    public var cupCount: Int
    /// The drink's name as on the menu.
    public var drink: String
    /// Size as staff say it, e.g. "大杯".
    public var size: String
    /// Sugar level, e.g. "半糖".
    public var sugar: String
    /// Ice level, e.g. "少冰".
    public var ice: String
    /// Toppings in the order chosen.
    public var addOns: [String]
    /// A free note for the bar ("分開裝"); nil or empty when there is none.
    public var note: String?
    /// When the order was placed.
    public var time: Date
    /// Who the order is for, in full; the formatter prints only ``CustomerName/shortened(_:)`` of it.
    public var customerName: String?

    /// A label for cup `cupIndex` of `cupCount`.
    public init(
        pickupNumber: String, cupIndex: Int, cupCount: Int, drink: String, size: String, sugar: String, ice: String,
        addOns: [String] = [], note: String? = nil, time: Date, customerName: String? = nil
    ) {
        self.pickupNumber = pickupNumber
        self.cupIndex = cupIndex
        self.cupCount = cupCount
        self.drink = drink
        self.size = size
        self.sugar = sugar
        self.ice = ice
        self.addOns = addOns
        self.note = note
        self.time = time
        self.customerName = customerName
    }
}
