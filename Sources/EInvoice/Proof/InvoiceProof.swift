import Printing

/// The 電子發票證明聯 (5.7 cm thermal paper) as rows, in the order the Ministry's sample and the sources agree
/// on: the shop's name, the title (a reprint's says 補印), the period and the number large, the moment of issue
/// (B2B: `格式 25`), random code and total, seller (B2B: and buyer), the Code 39 barcode, then the two QR codes
/// side by side. The items are not printed (the proof carries them in its QR codes).
public struct InvoiceProof: Sendable, Hashable {
    public enum TextSize: Sendable, Hashable {
        case normal
        /// Double height, for a title too wide to be doubled both ways.
        case tall
        /// Double width and height.
        case large
    }

    public enum Row: Sendable, Hashable {
        case text(String, TextSize)
        case barcode(String)
        case qrPair(left: String, right: String)
    }

    /// Columns of normal text on a 58 mm head (384 dots, 12 dots a column).
    public static let columns = 32

    public let rows: [Row]
    /// Whether it is a reprint (its title says 補印).
    public let isReprint: Bool

    /// The proof of `invoice`, or nil when the invoice prints none (a carrier's or a donated one: the receipt
    /// says where it went instead).
    public init?(invoice: EInvoice, codes: InvoiceCodes, reprint: Bool = false) {
        guard invoice.recipient.printsProof else { return nil }
        var rows: [Row] = [.text(invoice.seller.name, .normal)]
        let title = reprint ? "電子發票證明聯補印" : "電子發票證明聯"
        rows.append(.text(title, Big5.columns(title) * 2 <= Self.columns ? .large : .tall))
        rows.append(.text(invoice.period.printed, .large))
        rows.append(.text(invoice.number.printed, .large))
        rows.append(.text(invoice.issued.printed + (invoice.recipient.isBusiness ? " 格式 25" : ""), .normal))
        rows.append(.text("隨機碼 \(invoice.randomCode)   總計 \(invoice.amounts.totalAmount)", .normal))
        var parties = "賣方 \(invoice.seller.businessNumber)"
        if invoice.recipient.isBusiness { parties += "  買方 \(invoice.recipient.buyerIdentifier)" }
        rows.append(.text(parties, .normal))
        rows.append(.barcode(codes.barcode))
        rows.append(.qrPair(left: codes.leftQR, right: codes.rightQR))
        self.rows = rows
        isReprint = reprint
    }

    /// The proof as text for `--preview`: each line centred on the paper's 32 columns (large text spaced out to
    /// its printed width), then the barcode's and the QR codes' contents written out.
    public var preview: String {
        var lines: [String] = []
        for row in rows {
            switch row {
            case .text(let text, let size):
                let shown = Big5.encode(PrintJob.printed(text)).printedText
                let spaced = size == .large ? shown.map(String.init).joined(separator: " ") : shown
                let width = size == .large ? Big5.columns(shown) * 2 - 1 : Big5.columns(shown)
                lines.append(String(repeating: " ", count: max(0, (Self.columns - width) / 2)) + spaced)
            case .barcode(let content):
                lines.append("[Code 39] \(content)")
            case .qrPair(let left, let right):
                lines.append("[QR left] \(left)")
                lines.append("[QR right] \(right)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
