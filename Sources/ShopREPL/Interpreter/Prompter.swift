import DrinkShop

/// How a counter asks staff something midway through a command: each question nil where nobody can be asked
/// (pipes, files, tests), and the command then refuses with what to do instead. The program chooses it once,
/// by where the counter runs (the REPL's line reader, a one-shot command's terminal, or nobody).
public struct Prompter: Sendable {
    /// A yes/no question (handing over unpaid, deleting an order).
    public var confirm: (@Sendable (String) async -> Bool)?
    /// A PIN, read without echo and never kept in history.
    public var readSecret: (@Sendable (String) async -> String?)?
    /// A question with a typed answer (the float of a shift a cash payment opens, which thing a name means).
    public var ask: (@Sendable (String) async -> String?)?

    public init(confirm: (@Sendable (String) async -> Bool)? = nil, readSecret: (@Sendable (String) async -> String?)? = nil,
                ask: (@Sendable (String) async -> String?)? = nil) {
        self.confirm = confirm
        self.readSecret = readSecret
        self.ask = ask
    }

    /// Nobody to ask.
    public static let nobody = Prompter()
}

/// What a one-shot command brings to prove who acts, read once from its environment by the program (never from
/// its command line): the PIN (DRINKSHOP_PIN), a new PIN for `staff pin` (DRINKSHOP_NEW_PIN), and where a proven
/// PIN is kept for a few minutes (nil: every command hashes). Its description never shows a PIN.
public struct OneShotCredentials: Sendable, CustomStringConvertible {
    public var pin: String?
    public var newPIN: String?
    public var grants: StaffGrants?
    /// The e-invoice's QR key for `einvoice seller` (DRINKSHOP_QR_KEY), where nobody is asked.
    public var qrKey: String?

    public init(pin: String? = nil, newPIN: String? = nil, grants: StaffGrants? = nil, qrKey: String? = nil) {
        self.pin = pin
        self.newPIN = newPIN
        self.grants = grants
        self.qrKey = qrKey
    }

    /// None: a REPL, which asks.
    public static let none = OneShotCredentials()

    public var description: String {
        "one-shot credentials (PIN \(pin == nil ? "not " : "")given, new PIN \(newPIN == nil ? "not " : "")given)"
    }
}
