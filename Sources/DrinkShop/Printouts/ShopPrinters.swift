import Printing

/// Which printer a job is for.
public enum PrinterRole: String, Sendable, CaseIterable {
    /// The cup-sticker printer at the bar (TSPL).
    case label
    /// The receipt printer at the counter (ESC/POS).
    case receipt
    /// Where the stickers of orders from the customers' page print: the label printer of the counter set to
    /// take them (`printer online ADDRESS`); without one, the label printer of `drinkshop serve`, which
    /// prints them as each order is placed (once: only the server prints them).
    case online

    /// The environment variable that names this printer's address.
    public var environmentVariable: String {
        switch self {
        case .label: "DRINKSHOP_LABEL_PRINTER"
        case .receipt: "DRINKSHOP_RECEIPT_PRINTER"
        case .online: "DRINKSHOP_ONLINE_LABEL_PRINTER"
        }
    }

    /// The store setting (`Setting` table) that names this printer for every counter.
    public var settingKey: String {
        switch self {
        case .label: "labelPrinter"
        case .receipt: "receiptPrinter"
        case .online: "onlineLabelPrinter"
        }
    }

    /// The printers the store's settings name, by role (for `ShopPrinters.configured`'s fallback).
    public static func settings(_ stored: [String: String]) -> [PrinterRole: String] {
        var found: [PrinterRole: String] = [:]
        for role in allCases { found[role] = stored[role.settingKey] }
        return found
    }

    public var staffName: String {
        switch self {
        case .label: "label printer"
        case .receipt: "receipt printer"
        case .online: "online orders' label printer"
        }
    }
}

/// The shop's printers as configured: each is optional (a shop without a label printer writes cups by hand).
public struct ShopPrinters: Sendable {
    public var label: PrinterSink?
    public var receipt: PrinterSink?
    /// The online orders' label printer when one is set (else they go to `label`).
    public var online: PrinterSink?

    public init(label: PrinterSink? = nil, receipt: PrinterSink? = nil, online: PrinterSink? = nil) {
        self.label = label
        self.receipt = receipt
        self.online = online
    }

    /// The printers named by `DRINKSHOP_LABEL_PRINTER` and `DRINKSHOP_RECEIPT_PRINTER` (each a
    /// ``PrinterAddress``: `tcp://HOST:PORT`, a device such as `/dev/usb/lp0`, or a file path), over
    /// `fallback` (the store's setting, where there is one): the environment wins. An empty variable
    /// means "no printer". A bad address is refused here, at start, naming the variable.
    public static func configured(environment: [String: String], fallback: [PrinterRole: String] = [:])
        throws(PrintingError) -> ShopPrinters
    {
        var printers = ShopPrinters()
        for role in PrinterRole.allCases {
            let fromEnvironment = environment[role.environmentVariable]
            guard let setting = fromEnvironment ?? fallback[role],
                  !setting.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let source = fromEnvironment != nil ? role.environmentVariable : "the store's \(role.staffName) setting"
            let sink: PrinterSink
            do { sink = try PrinterSink(setting: setting) } catch { throw .badAddress(source: source, error) }
            switch role {
            case .label: printers.label = sink
            case .receipt: printers.receipt = sink
            case .online: printers.online = sink
            }
        }
        return printers
    }

    /// The printer a role's jobs go to: online orders' stickers to the label printer when none of their own is set.
    public func sink(_ role: PrinterRole) -> PrinterSink? {
        switch role {
        case .label: label
        case .receipt: receipt
        case .online: online ?? label
        }
    }
}

/// Why a label or receipt was not printed. The order is never affected.
public enum PrintingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A printer address that cannot be used; `source` names where it came from.
    case badAddress(source: String, PrinterAddressError)
    /// No printer of this kind is configured.
    case noPrinter(PrinterRole)
    /// `label #N C` for a cup the order does not have.
    case noSuchCup(OrderNumber, cup: Int, cupCount: Int)
    /// The printer did not take the job; `again` is the command that prints it later.
    case printerFailed(PrinterRole, PrinterError, again: String)
    /// Nothing was sent: the store could not make the change printed durable; `again` prints it later.
    case notDurable(PrinterRole, String, again: String)

    public var description: String {
        switch self {
        case .badAddress(let source, let error):
            return "\(source): \(error)"
        case .noPrinter(let role):
            return "no \(role.staffName) is set up; a manager sets one for every counter with: printer \(role.rawValue) tcp://HOST:9100 "
                + "(or add --preview to see it here)"
        case .noSuchCup(let number, let cup, let count):
            return "order \(number) has \(count) cup\(count == 1 ? "" : "s"), so there is no cup \(cup)"
        case .printerFailed(let role, let error, let again):
            return "the \(role.staffName) did not print: \(error) — print it later with: \(again)"
        case .notDurable(let role, let problem, let again):
            return "nothing was sent to the \(role.staffName): \(problem) — print it later with: \(again)"
        }
    }
}
