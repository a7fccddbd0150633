import DrinkShop
import DrinkShopCore

/// One thing staff asked for, parsed and checked for shape (not yet for business rules): what a command's grammar
/// (`CommandSpec`) makes of its words and its handler in the interpreter takes.
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
    // The till's.
    /// `pay #12 cash 500`; no amount pays what is due.
    case pay(OrderNumber, PaymentMethod, amount: Int?)
    /// `adjust #12 cup 2 bag 1`: adjustment codes with counts (a count of 0 removes one).
    case adjust(OrderNumber, [String: Int])
    /// `invoice #12 04595257` (or `/ABC1234`, a citizen certificate, a donation code; `none` clears).
    case invoice(OrderNumber, String?)
    case soldOut(String)
    case restock(String)
    case price(String, CupSize, Int)
    case staffList
    case staffAdd(String, StaffRole)
    case staffPIN(String)
    case staffNoPIN(String)
    case staffRemove(String)
    case shiftShow
    case shiftOpen(float: Int)
    /// `close COUNTED [--archive]`: count the drawer; `--archive` then archives the closed days.
    case close(counted: Int, archive: Bool)
    /// `archive [status | now | on | off]`: closed days moved out of the base (see `DayArchiver`).
    case archive(ArchiveRequest)
    /// `einvoice …`: the 統一發票's setup, numbers and files.
    case einvoice(EInvoiceRequest)
    case export(path: String, from: String?, to: String?)
    /// `member 0912345678`: stamps and pass.
    case member(String)
    /// `redeem #N [cups]`: free cups for the order's member's stamps.
    case redeem(OrderNumber, cups: Int)
    /// `pass 0912345678 月卡`: sell a pass.
    case buyPass(mobile: String, pass: String)
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
}

extension ParsedCommand {
    /// The command with its free text as staff typed it (`Command.keepingTyped`).
    func keepingTyped(_ words: [Tokenizer.Word]) -> ParsedCommand {
        ParsedCommand(spec: spec, command: command.keepingTyped(words))
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

/// What `einvoice` is asked to do.
public enum EInvoiceRequest: Sendable, Equatable {
    /// The period's ranges, books and what is left (nil: this period).
    case tracks(period: String?)
    /// The seller: 統一編號, name, address, the QR key (nil: asked unseen, or DRINKSHOP_QR_KEY), Turnkey's folder.
    case seller(number: String, name: String, address: String, qrKey: String?, turnkey: String?)
    /// A range as the platform handed it out: `11512 AB 12345000-12345249`.
    case track(String)
    /// The platform's E0501 配號 file (one word ending in `.xml`).
    case trackFile(path: String)
    /// Files written now for a crash, files Turnkey has not picked up.
    case status
    /// The period's blank numbers (E0402).
    case blanks(period: String)
    /// The invoice of a paid order that has none.
    case issue(OrderNumber)
}

/// What `archive` is asked to do.
public enum ArchiveRequest: String, Sendable, Equatable {
    case status, now, on, off
}
