import DrinkShop
import DrinkShopCore

/// Cup stickers and receipts at the counter. The order desk never waits on a printer: a sticker that
/// does not print is one warning line, and `label #N` prints it later.
extension ShopInterpreter {
    /// After an order is placed: its stickers, when a label printer is set up.
    func printLabels(forNewOrder stored: StoredOrder) async {
        await followSharedPrinters()
        do {
            guard let printed = try await shop.printing.printLabels(forNewOrder: stored) else { return }
            say("Printed \(printed.pieces) cup label\(printed.pieces == 1 ? "" : "s") on \(printed.printer).\n")
            if let warning = printed.replacementWarning { warn(warning) }
        } catch {
            warn("\(error) (the order is placed)")
        }
    }

    func label(_ number: OrderNumber, cup: Int?, preview: Bool) async throws {
        await followSharedPrinters()
        if preview {
            say(try await shop.printing.labelPreview(number, cup: cup))
            return
        }
        let printed = try await shop.printing.printLabels(number, cup: cup)
        say("Printed \(printed.pieces) cup label\(printed.pieces == 1 ? "" : "s") of \(number) on \(printed.printer).\n")
        if let warning = printed.replacementWarning { warn(warning) }
    }

    /// How long the store's printer settings as read here are trusted before printing reads them again.
    static let sharedSettingsAge: Duration = .seconds(5)

    /// Reads the store's printer settings again when the last read is older than `sharedSettingsAge` (or
    /// `now`), and when they changed since this counter last read them (at another counter), uses them:
    /// a printer set at another counter is used here within seconds, counters started before the change
    /// included. The first read only notes them (the counter was set up with them at its start). This
    /// counter's own environment (DRINKSHOP_LABEL_PRINTER…) still overrides. A store that cannot be read
    /// keeps the printers as they were.
    func followSharedPrinters(now: Bool = false) async {
        let moment = instant()
        if !now, let last = sharedSettingsReadAt, last.duration(to: moment) < Self.sharedSettingsAge { return }
        guard let stored = try? await shop.settings.stored() else { return }
        sharedSettingsReadAt = moment
        let settings = PrinterRole.settings(stored)
        defer { sharedPrinterSettings = settings }
        guard let seen = sharedPrinterSettings, seen != settings else { return }
        if let printers = try? ShopPrinters.configured(environment: environmentPrinters, fallback: settings) {
            shop.printing.use(printers)
        }
    }

    /// `printer`: where each printer is; `printer ROLE ADDRESS|none` sets it in the store for every counter
    /// (a manager's change, in the audit trail) and uses it here at once.
    func printer(_ role: PrinterRole?, address: String?) async throws {
        if let role, let address {
            let set = try await shop.counter.setPrinter(role, to: address, by: try await acting())
            let stored = try await shop.settings.stored()
            shop.printing.use(try ShopPrinters.configured(environment: environmentPrinters,
                                                           fallback: PrinterRole.settings(stored)))
            sharedPrinterSettings = PrinterRole.settings(stored)
            say("The \(role.staffName) is now \(set ?? "none") on every counter"
                + (environmentPrinters[role.environmentVariable] != nil
                   ? " (this counter keeps \(role.environmentVariable), which overrides it)" : "") + ".\n")
            return
        }
        await followSharedPrinters(now: true)
        let printers = shop.printing.printers
        for shown in role.map({ [$0] }) ?? PrinterRole.allCases {
            let sink = shown == .label ? printers.label : printers.receipt
            say("\(shown.staffName): \(sink.map { "\($0.address)" } ?? "none")\n")
        }
    }

    func receipt(_ number: OrderNumber, preview: Bool) async throws {
        await followSharedPrinters()
        let facts = try await shop.till.receiptFacts(for: try await shop.orders.find(number))
        if preview {
            say(try await shop.printing.receiptPreview(number, facts: facts))
            return
        }
        let printed = try await shop.printing.printReceipt(number, facts: facts)
        say("Printed the receipt of \(number) on \(printed.printer).\n")
        if let warning = printed.replacementWarning { warn(warning) }
    }
}
