import DrinkShop

/// What the interpreter itself refuses (the shop's services refuse with `ShopError`).
enum InterpreterError: Error, Sendable, CustomStringConvertible {
    /// `menu <filter>` matched no drink.
    case noDrinkMatches(String)
    /// `delete #N` without `--yes` where no one can be asked.
    case deleteNeedsConfirmation(OrderNumber)
    /// Staff said no to handing over an order with money due.
    case keptUnpaid(OrderNumber, due: Int)

    var description: String {
        switch self {
        case .noDrinkMatches(let filter):
            return "no drink matches \"\(filter)\"; try a category (季節限定 單品茶 調茶 雲蓋 歐蕾) or the start of a name"
        case .deleteNeedsConfirmation(let number):
            return "delete removes order \(number) for good; add --yes to confirm"
        case .keptUnpaid(let number, let due):
            return "order \(number) stays ready with $\(due) due; take the payment (pay \(number) …), then advance it"
        }
    }
}
