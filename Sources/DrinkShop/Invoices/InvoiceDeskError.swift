import DrinkShopCore
import EInvoice

/// What the till's e-invoicing refuses, in the words of the manager who set it up and the staff who meet it at
/// the counter: what is wrong, where, and what to do. Never holds the QR key.
public enum InvoiceDeskError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A value, document or file of the e-invoice itself.
    case einvoice(EInvoiceError)
    /// The shop's seller settings in the store cannot be read (someone edited them by hand).
    case storedSetup(key: String, EInvoiceError)
    /// No number is left for the period: every imported book is used or held by another counter.
    case noNumbers(period: String, printed: String)
    /// The store is away and this counter's book of numbers is used up: a new book needs the store.
    case noNumbersWhileAway(period: String)
    /// A range overlaps one imported before.
    case overlaps(new: String, existing: String)
    /// The same range was imported before.
    case alreadyImported(String)
    /// An E0501 file's range given to another 統一編號 than the shop's.
    case anotherSellersNumbers(range: String, file: String, shop: String)
    /// The period of an import is over (or not yet the current or next one).
    case periodNotOpen(period: String, today: String)
    /// Blank numbers are reported once the period is over.
    case periodNotOver(period: String)
    /// The period's blank numbers were reported already (its invoices may be archived since).
    case blanksReported(period: String, files: [String])
    /// An order paid in full has no invoice (`einvoice issue #N` issues it).
    case noInvoice(order: String)
    /// `einvoice issue` on an order that already has a live invoice.
    case alreadyInvoiced(order: String, number: String)
    /// `invoice #N <details>` on an order whose invoice is issued: the invoice does not change with them.
    case detailsAfterInvoice(order: String, number: String)
    /// `einvoice issue` on an order that is not paid in full.
    case notPaid(order: String, due: Int)
    /// A stored invoice record that cannot be read back.
    case storedInvoice(String)
    /// Turnkey's folder is not set, so a file cannot be written.
    case noTurnkeyFolder
    /// The shop has set no seller: it issues no invoice.
    case notSetUp
    /// The proof's QR check value could not be worked out (libcrypto failed), so no proof is printed.
    case proofCodes(number: String)

    public var description: String {
        switch self {
        case .einvoice(let error): return error.description
        case .storedSetup(let key, let error):
            return "the e-invoice setting \(key) in the store cannot be used: \(error); set it again with einvoice seller (電子發票設定有誤)"
        case .noNumbers(let period, let printed):
            return "no invoice numbers are left for \(printed) (\(period)) (發票字軌已用完): import the period's next range "
                + "from the platform, e.g. einvoice track \(period) AB 12345000-12345249; nothing was charged"
        case .noNumbersWhileAway(let period):
            return "this counter's book of invoice numbers for \(period) is used up and the store cannot be reached for the "
                + "next one (發票本已用完，需連線); nothing was charged: take the payment once the store is back"
        case .overlaps(let new, let existing):
            return "the range \(new) overlaps \(existing), imported before (字軌重疊); nothing was imported"
        case .alreadyImported(let range): return "the range \(range) is imported already (字軌已匯入); nothing changed"
        case .anotherSellersNumbers(let range, let file, let shop):
            return "the E0501 file gives \(range) to 統一編號 \(file), not to this shop's \(shop) (配號檔非本營業人); "
                + "nothing was imported: download the shop's own file from the platform"
        case .periodNotOpen(let period, let today):
            return "period \(period) is neither this period nor the next (today is \(today)) (期別不符); nothing was imported"
        case .periodNotOver(let period):
            return "period \(period) is not over yet (期別未結束); its blank numbers are reported after its last day"
        case .blanksReported(let period, let files):
            return "the blank numbers of period \(period) were reported already (空白字軌已申報: \(files.joined(separator: ", "))); "
                + "nothing was written again"
        case .noInvoice(let order): return "order \(order) has no e-invoice (沒有發票)"
        case .alreadyInvoiced(let order, let number):
            return "order \(order) has invoice \(number) already (已開立發票); nothing was issued"
        case .detailsAfterInvoice(let order, let number):
            return "order \(order) has invoice \(number) issued (已開立發票): its invoice details no longer change; nothing "
                + "changed (for an invoice to a carrier or a company, void the order and place it again)"
        case .notPaid(let order, let due):
            return "order \(order) still has $\(due) due (尚未付清); its invoice is issued when it is paid in full"
        case .storedInvoice(let detail): return "an invoice record in the store cannot be read: \(detail) (發票資料有誤)"
        case .notSetUp:
            return "the shop issues no e-invoice yet (未設定電子發票): a manager sets it up with "
                + "einvoice seller 12345675 NAME --address ADDRESS --qr-key KEY --turnkey DIR"
        case .noTurnkeyFolder:
            return "no Turnkey folder is set (未設定 Turnkey 目錄): einvoice seller … --turnkey DIR"
        case .proofCodes(let number):
            return "the proof of invoice \(number) could not be made (證明聯無法產生): its QR check failed; try the receipt again"
        }
    }
}
