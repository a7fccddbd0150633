import DrinkShop
import DrinkShopCore

/// The stickers of each order from the customers' page, printed by `drinkshop serve` as the order is placed
/// (here only, so once): on the online orders' label printer (the counter's set with `printer online
/// ADDRESS`), else this server's label printer (DRINKSHOP_LABEL_PRINTER, else the store's `printer label`).
/// The settings are read for each order, so a change at a counter counts from the next one. What became of
/// it goes to the server's log; a printer that fails never touches the order (`label #N` prints it again).
struct OnlineLabels: Sendable {
    let shop: Shop
    /// The printer variables `serve` was started with (they override the store's settings).
    let environment: [String: String]

    init(shop: Shop, environment: [String: String]) {
        self.shop = shop
        self.environment = environment.filter { name, _ in PrinterRole.allCases.contains { $0.environmentVariable == name } }
    }

    /// Prints `ticket`'s stickers on a task of its own (the customer's answer does not wait for the printer).
    func print(_ ticket: OnlineTicket) {
        let (shop, environment) = (shop, environment)
        Task {
            let number = OrderNumber.onDay(ticket.number, day: ticket.day.description)
            do {
                let stored = try await shop.settings.stored()
                shop.counter.usePrinters(try ShopPrinters.configured(environment: environment, fallback: PrinterRole.settings(stored)))
                let order = try await shop.orders.find(number)
                guard let printed = try await shop.printing.printLabels(forOnlineOrder: order) else { return }
                Console.complain("online order #\(ticket.number): \(printed.pieces) cup label\(printed.pieces == 1 ? "" : "s") "
                    + "printed on \(printed.printer)" + (printed.replacementWarning.map { " (\($0))" } ?? ""))
            } catch {
                Console.complain("online order #\(ticket.number): its cup labels did not print: \(error)")
            }
        }
    }
}
