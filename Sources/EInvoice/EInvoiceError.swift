#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DrinkShopCore

/// Why an e-invoice value, document or file was refused, in the words staff and the shop's accountant use:
/// what is wrong and where, with a short Traditional Chinese gloss. Never holds the QR key.
public enum EInvoiceError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case periodFormat(String)
    case periodMonth(String)
    case trackFormat(String)
    case invoiceNumberFormat(String)
    case rangeOrder(String)
    case rangeNotWholeBooks(String)
    case trackLine(String)
    case qrKeyFormat
    case seller(InvoiceDetailsError)
    case sellerName(String)
    case sellerAddress(String)
    case itemDescription(line: Int)
    case itemQuantity(line: Int, quantity: Int)
    case noItems
    case nothingToInvoice(total: Int)
    case itemsDoNotAddUp(items: Int, paid: Int)
    case dateOutsidePeriod(date: String, period: String)
    case numberOutsideBook(number: String, book: String)
    case randomCodeFormat(String)
    case buyerName(String)
    case reasonLength(String)
    case allowanceNumberFormat(String)
    case allowanceTooLarge(invoice: String, allowance: Int, invoiced: Int)
    case fileExists(String)
    case fileWrite(path: String, problem: String)
    /// An E0501 配號 file that cannot be imported: where in it, and what is wrong.
    case allocationFile(place: String, problem: String)

    public var description: String {
        switch self {
        case .periodFormat(let text):
            return "period \"\(text)\" must be 5 digits, the ROC year then the period's even month, like 11512 for "
                + "Nov-Dec 115 (期別格式錯誤)"
        case .periodMonth(let text):
            return "period \"\(text)\" must end in an even month 02, 04, 06, 08, 10 or 12 (期別須為雙數月)"
        case .trackFormat(let text):
            return "track \"\(text)\" must be 2 capital letters, like AB (字軌須為 2 個英文字母)"
        case .invoiceNumberFormat(let text):
            return "invoice number \"\(text)\" must be 2 letters and 8 digits, like AB-12345678 (發票號碼格式錯誤)"
        case .rangeOrder(let text):
            return "number range \"\(text)\" must be two 8-digit numbers, first to last, like 12345000-12345249 "
                + "(號碼區間格式錯誤)"
        case .rangeNotWholeBooks(let text):
            return "number range \"\(text)\" must be whole books of 50: it starts at ...00 or ...50 and ends at "
                + "...49 or ...99, as the platform hands them out (號碼須為整本)"
        case .trackLine(let text):
            return "\"\(text)\" is not a track line; type the period, the track and the range as the platform shows "
                + "them, like: 11512 AB 12345000-12345249 (字軌資料格式錯誤)"
        case .qrKeyFormat:
            return "the QR key must be the 32 hexadecimal characters Turnkey's key tool gives (QR 金鑰須為 32 碼十六進位)"
        case .seller(let problem):
            return "the shop's own " + problem.description
        case .sellerName(let name):
            return "the shop's name \"\(name)\" must be 1 to 60 characters (營業人名稱須為 1 到 60 字)"
        case .sellerAddress(let address):
            return "the shop's address \"\(address)\" must be 1 to 100 characters (營業人地址須為 1 到 100 字)"
        case .itemDescription(let line):
            return "item \(line) has no name to print (品名不可空白)"
        case .itemQuantity(let line, let quantity):
            return "item \(line) has quantity \(quantity); a quantity is 1 or more, a discount is a negative amount "
                + "(數量須至少為 1)"
        case .noItems:
            return "an invoice needs at least one item (發票沒有品項)"
        case .nothingToInvoice(let total):
            return "the items add up to NT$\(total); an invoice is issued only for a sale above NT$0 (金額須大於零)"
        case .itemsDoNotAddUp(let items, let paid):
            return "the invoice's items add up to NT$\(items) but NT$\(paid) was paid (發票金額與實收不符)"
        case .dateOutsidePeriod(let date, let period):
            return "an invoice dated \(date) cannot take a number of period \(period); import this period's tracks "
                + "(發票日期不在字軌期別內)"
        case .numberOutsideBook(let number, let book):
            return "invoice number \(number) is not in book \(book) (號碼不在此本內)"
        case .randomCodeFormat(let text):
            return "random code \"\(text)\" must be 4 digits (隨機碼須為 4 碼數字)"
        case .buyerName(let name):
            return "the buyer's name \"\(name)\" must be 1 to 60 characters (買方名稱須為 1 到 60 字)"
        case .reasonLength(let reason):
            return "the reason \"\(reason)\" must be 1 to 20 characters (原因須為 1 到 20 字)"
        case .allowanceNumberFormat(let text):
            return "allowance number \"\(text)\" must be 1 to 16 letters and digits (折讓單號格式錯誤)"
        case .allowanceTooLarge(let invoice, let allowance, let invoiced):
            return "an allowance of NT$\(allowance) is more than invoice \(invoice)'s NT$\(invoiced) (折讓金額超過發票金額)"
        case .fileExists(let path):
            return "\(path) is already written; a document is never written twice (檔案已存在)"
        case .fileWrite(let path, let problem):
            return "could not write \(path): \(problem) (無法寫入發票檔)"
        case .allocationFile(let place, let problem):
            return "the E0501 file, \(place): \(problem); nothing was imported (配號檔內容有誤，未匯入)"
        }
    }

    public var errorDescription: String? { description }
}
