import DrinkShopCore
import EInvoice
import Foundation
import Printing
import Synchronization

/// Cup stickers and receipts for today's orders: builds them from the order desk's orders
/// (`OrderPrintout`), formats them for the printer's language, and sends them. Printing never changes
/// or blocks an order: a printer that fails is reported as a `PrintingError`, and the job can be sent again.
public final class PrintDesk: Sendable {
    private let configured: Mutex<ShopPrinters>
    /// The printers in use: the environment's at start, then the store's settings (`use`).
    public var printers: ShopPrinters { configured.withLock { $0 } }
    let orders: OrderDesk
    let clock: ShopClock
    let shopName: String
    /// Waits until what the store committed is on the disk (`CommitStrategy.durable`): nothing is printed of an
    /// order a power cut could take back.
    let durable: @Sendable () async throws(ShopError) -> Void

    init(printers: ShopPrinters, orders: OrderDesk, clock: ShopClock, shopName: String = OrderPrintout.defaultShopName,
         durable: @escaping @Sendable () async throws(ShopError) -> Void) {
        configured = Mutex(printers)
        self.orders = orders
        self.clock = clock
        self.shopName = shopName
        self.durable = durable
    }

    /// What became of a job that reached its printer.
    public struct Printed: Sendable, Equatable {
        /// Where it went, e.g. `tcp://192.168.1.50:9100`.
        public var printer: String
        /// How many stickers (1 for a receipt).
        public var pieces: Int
        /// Said when characters could not be printed as written (`the printer cannot print 堃 (printed as ?)`).
        public var replacementWarning: String?
    }

    /// Uses `printers` from now on (the store's printer settings read, or changed at this counter).
    func use(_ printers: ShopPrinters) {
        configured.withLock { $0 = printers }
    }

    /// Whether a label printer is set up, so a new order's stickers print by themselves.
    public var printsLabelsOnPlacement: Bool { printers.label != nil }

    // MARK: - Labels

    /// The stickers of today's order `number`: every cup, or only cup `cup` (from 1).
    public func labels(_ number: OrderNumber, cup: Int? = nil) async throws -> [CupLabel] {
        try select(OrderPrintout.labels(for: try await orders.find(number)), number: number, cup: cup)
    }

    /// The stickers as text, the same rows the paper gets (`label #N --preview`).
    public func labelPreview(_ number: OrderNumber, cup: Int? = nil) async throws -> String {
        let preview = TextPreview(timeZone: clock.timeZone)
        let labels = try await labels(number, cup: cup)
        return labels.map(preview.render).joined(separator: "\n") + "\n" + warningLine(labelJob(labels))
    }

    /// Prints the stickers of today's order `number` (all cups, or one).
    public func printLabels(_ number: OrderNumber, cup: Int? = nil) async throws -> Printed {
        let labels = try await labels(number, cup: cup)
        return try await send(labelJob(labels), pieces: labels.count, to: .label,
                              again: "label \(number)" + (cup.map { " \($0)" } ?? ""))
    }

    /// Prints the stickers of an order just placed, when a label printer is set up; nil when none is.
    /// A failure is thrown for the counter to say; the order stays placed.
    public func printLabels(forNewOrder stored: StoredOrder) async throws(PrintingError) -> Printed? {
        guard printers.label != nil else { return nil }
        let labels = OrderPrintout.labels(for: stored)
        let again = stored.number.map { "label \($0)" } ?? "label"
        return try await send(labelJob(labels), pieces: labels.count, to: .label, again: again)
    }

    /// Prints the stickers of an order from the customers' page on the online orders' label printer (else the
    /// label printer); nil when neither is set up. Run where the page runs (`drinkshop serve`), once per order.
    public func printLabels(forOnlineOrder stored: StoredOrder) async throws(PrintingError) -> Printed? {
        guard printers.sink(.online) != nil else { return nil }
        let labels = OrderPrintout.labels(for: stored)
        let again = stored.number.map { "label \($0)" } ?? "label"
        return try await send(labelJob(labels), pieces: labels.count, to: .online, again: again)
    }

    // MARK: - Receipts

    /// The receipt of today's order `number`, with what the till knows (`facts`).
    /// - Parameter order: the order when the caller has just read it (no second read).
    public func receipt(_ number: OrderNumber, facts: ReceiptFacts = ReceiptFacts(), order: StoredOrder? = nil) async throws -> Receipt {
        let stored: StoredOrder
        if let order { stored = order } else { stored = try await orders.find(number) }
        return OrderPrintout.receipt(for: stored, facts: facts, shopName: shopName)
    }

    /// The receipt as text (`receipt #N --preview`).
    public func receiptPreview(_ number: OrderNumber, facts: ReceiptFacts = ReceiptFacts(), order: StoredOrder? = nil) async throws
        -> String
    {
        let receipt = try await receipt(number, facts: facts, order: order)
        return TextPreview(timeZone: clock.timeZone).render(receipt) + "\n" + warningLine(receiptJob(receipt))
    }

    public func printReceipt(_ number: OrderNumber, facts: ReceiptFacts = ReceiptFacts(), order: StoredOrder? = nil) async throws
        -> Printed
    {
        let receipt = try await receipt(number, facts: facts, order: order)
        return try await send(receiptJob(receipt), pieces: 1, to: .receipt, again: "receipt \(number)")
    }

    /// Prints an invoice's proof (電子發票證明聯) on the receipt printer, after order `number`'s receipt.
    public func printProof(_ proof: InvoiceProof, of number: OrderNumber) async throws(PrintingError) -> Printed {
        try await send(proof.escPOS, pieces: 1, to: .receipt, again: "receipt \(number)")
    }

    // MARK: - Pieces

    func labelJob(_ labels: [CupLabel]) -> PrintJob { TSPLFormatter(timeZone: clock.timeZone).format(labels) }

    func receiptJob(_ receipt: Receipt) -> PrintJob { ESCPOSFormatter(timeZone: clock.timeZone).format(receipt) }

    private func select(_ labels: [CupLabel], number: OrderNumber, cup: Int?) throws(PrintingError) -> [CupLabel] {
        guard let cup else { return labels }
        guard labels.indices.contains(cup - 1) else { throw .noSuchCup(number, cup: cup, cupCount: labels.count) }
        return [labels[cup - 1]]
    }

    private func warningLine(_ job: PrintJob) -> String {
        job.replacementWarning.map { "warning: \($0)\n" } ?? ""
    }

    private func send(_ job: PrintJob, pieces: Int, to role: PrinterRole, again: String) async throws(PrintingError)
        -> Printed
    {
        guard let sink = printers.sink(role) else { throw .noPrinter(role) }
        do { try await durable() } catch { throw .notDurable(role, error.description, again: again) }
        do { try await sink.send(job.bytes) } catch { throw .printerFailed(role, error, again: again) }
        return Printed(printer: sink.address.description, pieces: pieces, replacementWarning: job.replacementWarning)
    }
}
