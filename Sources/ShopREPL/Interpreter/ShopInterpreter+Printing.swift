import DrinkShop
import DrinkShopCore

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

    func label(_ number: OrderNumber, cup: Int?, preview: Bool) async throws {
        if preview {
            say(try await shop.printing.labelPreview(number, cup: cup))
            return
        }
        let printed = try await shop.printing.printLabels(number, cup: cup)
        say("Printed \(printed.pieces) cup label\(printed.pieces == 1 ? "" : "s") of \(number) on \(printed.printer).\n")
        if let warning = printed.replacementWarning { warn(warning) }
    }

    func receipt(_ number: OrderNumber, preview: Bool) async throws {
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
