import DrinkShop
import DrinkShopCore

/// One thing staff asked for, parsed and checked for shape (not yet for business rules).
public enum Command: Sendable, Equatable {
    case menu(filter: String?, json: Bool)
    case order(OrderDraft)
    case orders(OrdersFilter, json: Bool, days: DaySpan? = nil)
    /// `orders --watch`: the make line, full screen at a terminal.
    case watchOrders
    case edit(OrderNumber, line: Int?, LineChangeDraft)
    /// `advance #N [--unpaid]`: `unpaid` hands over an order with money due.
    case advance(OrderNumber, unpaid: Bool = false)
    case cancel(OrderNumber, reason: String?)
    case delete(OrderNumber, confirmed: Bool)
    /// Cup stickers: every cup, or one (from 1); shown as text with `preview`.
    case label(OrderNumber, cup: Int?, preview: Bool)
    case receipt(OrderNumber, preview: Bool)
    case void(OrderNumber, reason: String)
    case seed(path: String, replace: Bool = false)
    case banner(BannerMove?)
    case promos
    /// `printer`: show the printers; `printer label ADDRESS|none`: set one for every counter.
    case printer(PrinterRole?, address: String?)
    /// `online`: whether the page at `/order` takes orders; `online on|off` sets it for every counter.
    case online(Bool?)
    case report(json: Bool, days: DaySpan? = nil)
    case log(days: DaySpan?)
    case login(String)
    case logout
    case help(topic: String?)
    case quit
    /// The till's commands (`TillGrammar.swift`).
    case till(TillCommand)
}

extension Command {
    /// The command with its free text (a cancel's or void's reason) as staff typed it in `words`: CJK
    /// punctuation (`，`, `！`) kept, not the grammar's NFKC and comma words (`售完 , 客人改點`).
    func keepingTyped(_ words: [Tokenizer.Word]) -> Command {
        switch self {
        case .cancel(let number, let reason?): .cancel(number, reason: Tokenizer.typedTail(words, joined: reason))
        case .void(let number, let reason): .void(number, reason: Tokenizer.typedTail(words, joined: reason))
        default: self
        }
    }

    /// Whether the shared settings and PINs are read again before the command runs: all but help and quit.
    var followsSharedSettings: Bool {
        switch self {
        case .help, .quit: false
        case .menu, .order, .orders, .watchOrders, .edit, .advance, .cancel, .delete, .label, .receipt, .void, .seed, .banner,
             .promos, .printer, .online, .report, .log, .login, .logout, .till: true
        }
    }
}

/// A manual move of the banner.
public enum BannerMove: Sendable, Equatable {
    case next
    case previous
}

/// Which of today's orders `orders` lists.
public enum OrdersFilter: Sendable, Equatable {
    /// Not yet picked up or cancelled (the default).
    case open
    case all
    case status(OrderStatus)
}
