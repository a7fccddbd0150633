import DrinkShop
import DrinkShopCore
import EInvoice

/// Cup stickers and receipts at the counter. The order desk never waits on a printer: a sticker that
/// does not print is one warning line, and `label #N` prints it later.
extension ShopInterpreter {
    /// After an order is placed: its stickers, when a label printer is set up.
    func printLabels(forNewOrder stored: StoredOrder) async {
        do {
            guard let printed = try await shop.printing.printLabels(forNewOrder: stored) else { return }
            say("Printed \(printed.pieces) cup label\(printed.pieces == 1 ? "" : "s") on \(printed.printer).\n")
            if let warning = printed.replacementWarning { warn(warning) }
        } catch {
            warn("\(error) (the order is placed)")
        }
    }

    /// An order kept while the store was away got stickers with its provisional number (#P1): once it is
    /// sent and has its pickup number, they are printed again with it, as `label #N` would (only when a
    /// label printer is set up).
    func printLabelsAgain(_ sent: SentOrder) async {
        guard shop.printing.printsLabelsOnPlacement else { return }
        let number = sent.number(today: shop.clock.today)
        do {
            let printed = try await shop.printing.printLabels(number)
            say("Printed \(printed.pieces) cup label\(printed.pieces == 1 ? "" : "s") of \(number) again on \(printed.printer): "
                + "its pickup number replaces \(sent.queuedAs) (貼紙重印取餐號).\n")
            if let warning = printed.replacementWarning { warn(warning) }
        } catch {
            warn("\(error) (order \(number) is sent; label \(number) prints its stickers)")
        }
    }

    func label(_ number: OrderNumber, cup: Int?, preview: Bool) async throws {
        if preview {
            say(try await shop.printing.labelPreview(number, cup: cup))
            return
        }
        let printed = try await shop.printing.printLabels(number, cup: cup)
        say("Printed \(printed.pieces) cup label\(printed.pieces == 1 ? "" : "s") of \(number) on \(printed.printer).\n")
        if let warning = printed.replacementWarning { warn(warning) }
    }

    /// `printer`: where each printer is; `printer ROLE ADDRESS|none` sets it in the store for every counter
    /// (a manager's change, in the audit trail) and uses it here at once.
    func printer(_ role: PrinterRole?, address: String?) async throws {
        if let role, let address {
            let set = try await shop.counter.setPrinter(role, to: address, by: try await acting())
            let stored = try await shop.settings.stored()
            shop.counter.usePrinters(try ShopPrinters.configured(environment: environmentPrinters,
                                                           fallback: PrinterRole.settings(stored)))
            say("The \(role.staffName) is now \(set ?? "none") on every counter"
                + (environmentPrinters[role.environmentVariable] != nil
                   ? " (this counter keeps \(role.environmentVariable), which overrides it)" : "") + ".\n")
            return
        }
        let printers = shop.printing.printers
        for shown in role.map({ [$0] }) ?? PrinterRole.allCases {
            switch (shown, printers.online) {
            case (.online, nil):
                say("\(shown.staffName): none (drinkshop serve prints them on its label printer)\n")
            default:
                say("\(shown.staffName): \(printers.sink(shown).map { "\($0.address)" } ?? "none")\n")
            }
        }
    }

    /// `receipt #N`: the receipt, then the proof of its live invoice when one prints (printed B2C or B2B), counted
    /// on the invoice before it prints, so every print after the first says 補印; a carrier's or donated invoice is a line on the receipt saying where
    /// it went. `--preview` shows both as text and counts nothing.
    func receipt(_ number: OrderNumber, preview: Bool) async throws {
        let stored = try await shop.orders.find(number)
        var facts = try await shop.till.receiptFacts(for: stored)
        let invoice = try await shop.counter.invoiceOnReceipt(of: stored)
        if let invoice {
            // The invoice's line says what the details' line said, and which invoice it is.
            facts.invoiceLines = [invoice.line] + facts.invoiceLines.filter { $0 != invoice.invoice.details?.description }
        }
        if preview {
            say(try await shop.printing.receiptPreview(number, facts: facts, order: stored))
            if let proof = invoice?.proof { say(proof.preview + "\n") }
            return
        }
        let printed = try await shop.printing.printReceipt(number, facts: facts, order: stored)
        say("Printed the receipt of \(number) on \(printed.printer).\n")
        if let warning = printed.replacementWarning { warn(warning) }
        guard let invoice, let proof = try await shop.counter.proofToPrint(invoice) else { return }
        let proofPrinted = try await shop.printing.printProof(proof, of: number)
        say("Printed the proof of invoice \(invoice.invoice.number.printed)"
            + (proof.isReprint ? " again (補印)" : "") + " on \(proofPrinted.printer).\n")
    }
}
