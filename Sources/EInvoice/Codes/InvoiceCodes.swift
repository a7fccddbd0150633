/// What the proof's barcode and QR codes hold, as the Ministry's 電子發票證明聯一維及二維條碼規格 lays them out.
public struct InvoiceCodes: Sendable, Hashable {
    /// The Code 39 barcode's 19 characters: period, invoice number, random code (`11512AB123456781234`).
    public let barcode: String
    /// The left QR code: the 77-character head, then `:**********:` and the items it carries.
    public let leftQR: String
    /// The right QR code: `**` and the items that did not fit on the left.
    public let rightQR: String
    /// How many items the two codes carry, of how many the invoice has.
    public let itemsCarried: Int

    /// The most UTF-8 bytes one QR code holds here: a version 8 symbol at error level L takes 192 bytes and
    /// is 49 modules wide, 147 dots at 3 dots a module, so two fit side by side on a 58 mm (384-dot) head.
    public static let qrByteLimit = 180

    /// - Returns: nil only when libcrypto fails (out of memory).
    public init?(of invoice: EInvoice) {
        let check = QRCheck.value(of: invoice.number.text + invoice.randomCode.description, key: invoice.seller.qrKey)
        guard let check else { return nil }
        self.init(invoice: invoice, check: check)
    }

    init(invoice: EInvoice, check: String) {
        barcode = invoice.period.code + invoice.number.text + invoice.randomCode.description
        let head = invoice.number.text + invoice.issued.rocDate + invoice.randomCode.description
            + Self.hex8(invoice.amounts.untaxedAmount) + Self.hex8(invoice.amounts.totalAmount)
            + invoice.recipient.qrBuyer + invoice.seller.businessNumber + check
        let groups = invoice.items.map { ":" + Self.qrName($0.description) + ":\($0.quantity):\($0.unitPrice)" }
        func left(_ split: Int, carried: Int) -> String {
            head + ":**********:\(carried):\(groups.count):1" + groups[..<split].joined()
        }
        func right(_ split: Int, carried: Int) -> String { "**" + String(groups[split..<carried].joined().dropFirst()) }
        // The two codes are printed side by side at the same size, so the items are split where the larger
        // of the two is smallest, the left holding at least one item (as the specification's example does);
        // items that fit in neither code are left out from the end, and the counts say how many are carried.
        // No more items than the two codes' bytes could hold at all: a long bill is tried from there down.
        var most = 0
        var bytes = 0
        while most < groups.count, bytes + groups[most].utf8.count <= 2 * Self.qrByteLimit {
            bytes += groups[most].utf8.count
            most += 1
        }
        var best = (split: 0, carried: 0)
        for carried in stride(from: most, through: 0, by: -1) {
            let splits = (carried == 0 ? 0...0 : 1...carried).filter {
                left($0, carried: carried).utf8.count <= Self.qrByteLimit && right($0, carried: carried).utf8.count <= Self.qrByteLimit
            }
            if let split = splits.min(by: {
                max(left($0, carried: carried).utf8.count, right($0, carried: carried).utf8.count)
                    < max(left($1, carried: carried).utf8.count, right($1, carried: carried).utf8.count)
            }) {
                best = (split, carried)
                break
            }
        }
        itemsCarried = best.carried
        leftQR = left(best.split, carried: best.carried)
        rightQR = right(best.split, carried: best.carried)
    }

    /// 8 lowercase hex digits (negative amounts never reach here: an invoice's total is above 0).
    static func hex8(_ value: Int) -> String {
        let text = String(max(0, value), radix: 16)
        return String(repeating: "0", count: max(0, 8 - text.count)) + text
    }

    /// An item's name in a QR code, where `:` separates fields: a `:` becomes `：`.
    static func qrName(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == ":" ? "：" : $0 }))
    }
}
