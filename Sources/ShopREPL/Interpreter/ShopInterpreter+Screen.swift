import LineEditor

/// The terminal a counter's output goes to: how big it is now, and a way to show long output a
/// screenful at a time. Nil on the interpreter for pipes, files and tests that read the whole output.
public protocol CounterScreen: Sendable {
    /// Rows and columns of the window now; asked before each command, so a resized window is followed.
    var size: (rows: Int, columns: Int) { get }
    /// Writes `text`, pausing after each screenful when it is longer than the window.
    func show(_ text: String) async
}

extension TerminalPager: CounterScreen {}

/// What a command said while its output was held to be fitted and paged as one text.
struct HeldOutput {
    var text = ""
    var errors = ""
}

extension ShopInterpreter {
    /// Runs `body` with the command's output held back, then shows it fitted to the screen's width and
    /// paged; errors and warnings follow it, so they are not scrolled away by the listing.
    func showingOnScreen(_ screen: any CounterScreen, width: Int, _ body: () async -> Outcome) async -> Outcome {
        held = HeldOutput()
        let outcome = await body()
        let output = held ?? HeldOutput()
        held = nil
        if !output.text.isEmpty { await screen.show(output.text.wrapped(toWidth: width)) }
        if !output.errors.isEmpty { self.output.writeError(output.errors.wrapped(toWidth: width)) }
        return outcome
    }
}

extension Command {
    /// Whether the command's output is a view made for reading at the counter (tables, receipts, help),
    /// fitted to the screen and paged there: never JSON (which a terminal must not cut), never a command
    /// that asks a question midway, never the full-screen make line.
    var isScreenView: Bool {
        switch self {
        case .menu(_, let json), .orders(_, let json, _), .report(let json, _): !json
        case .log, .help, .order, .edit, .promos: true
        case .till(let till): till.isScreenView
        case .watchOrders, .advance, .cancel, .delete, .label, .receipt, .void, .seed, .banner, .printer, .online,
             .login, .logout, .quit: false
        }
    }
}

extension TillCommand {
    /// The staff list is a table to read; the till's other commands answer in a line or two (or are JSON,
    /// or ask a question midway).
    var isScreenView: Bool {
        switch self {
        case .staffList: true
        case .pay, .adjust, .invoice, .soldOut, .restock, .price, .staffAdd, .staffPIN, .staffNoPIN, .staffRemove, .shiftShow,
             .shiftOpen, .close, .archive, .export, .member, .redeem, .buyPass: false
        }
    }
}
