import DrinkShopCore

/// The one table of who may run what: every command the counter takes, with the action it needs once PINs
/// are set (nil: anyone at the counter, logged in or not: looking, help, logging in). The interpreter
/// checks it before running any command; the switches have no `default`, so a command added to `Command`
/// or `TillCommand` does not compile until it has its entry here. A command whose need depends on the
/// order it touches (cancelling a paid order is a void; a manager's adjustment) is checked here for the
/// least it needs and again, for the rest, where the order is known.
extension Command {
    public var requiredAction: ShopAction? {
        switch self {
        case .menu, .orders, .banner, .promos, .report, .log, .login, .logout, .help, .quit: nil
        case .label, .receipt: nil
        case .printer(_, let address): address == nil ? nil : .changeSetting
        case .online(let on): on == nil ? nil : .changeSetting
        case .order: .placeOrder
        case .watchOrders, .advance: .advanceOrder
        case .edit: .editOrder
        case .cancel: .cancelOrder
        case .void: .void
        case .delete: .deleteOrder
        case .seed: .seedMenu
        case .till(let command): command.requiredAction
        }
    }
}

extension TillCommand {
    public var requiredAction: ShopAction? {
        switch self {
        case .pay: .takePayment
        case .adjust, .invoice: .editOrder
        case .soldOut: .soldOut
        case .restock: .restock
        case .price: .changePrice
        case .staffList, .shiftShow, .member, .export: nil
        case .staffAdd, .staffPIN, .staffNoPIN, .staffRemove: .staffChanges
        case .shiftOpen: .openShift
        case .close: .closeDay
        case .archive(let request):
            switch request {
            case .status: nil
            case .now: .closeDay
            case .on, .off: .changeSetting
            }
        case .redeem: .redeemStamps
        case .buyPass: .sellPass
        }
    }
}
