import CivilDate
import DrinkShopCore

/// Where a B2C invoice goes, or who a B2B invoice is for.
public enum InvoiceRecipient: Sendable, Hashable {
    /// A consumer who takes the printed proof (PrintMark Y).
    case printed
    /// A consumer's carrier: a mobile barcode (3J0002) or a citizen certificate (CQ0001); nothing is printed.
    case carrier(InvoiceDetails)
    /// Donated to a charity by its love code (愛心碼); nothing is printed.
    case donation(String)
    /// A company by its 統一編號 and name (B2B, tax shown, the proof printed with format 25).
    case business(number: String, name: String)

    /// The recipient for the invoice details the counter took (none means a printed proof).
    ///
    /// A company's name is not asked at the counter; without one the buyer's name is its 統一編號, which
    /// identifies it exactly (MIG's `Buyer/Name` must not be empty).
    public init(details: InvoiceDetails?, companyName: String? = nil) throws(EInvoiceError) {
        guard let details else {
            self = .printed
            return
        }
        switch details {
        case .mobileBarcode, .citizenCertificate: self = .carrier(details)
        case .donation(let code): self = .donation(code)
        case .businessNumber(let number):
            let name = InvoiceItem.cleaned(companyName ?? "")
            guard name.count <= 60 else { throw .buyerName(name) }
            self = .business(number: number, name: name.isEmpty ? number : name)
        }
    }

    /// `Buyer/Identifier`: the 統一編號, or 10 zeros for a consumer.
    public var buyerIdentifier: String {
        if case .business(let number, _) = self { return number }
        return "0000000000"
    }

    /// The buyer's 統一編號 in the QR code: 8 zeros for a consumer.
    var qrBuyer: String {
        if case .business(let number, _) = self { return number }
        return "00000000"
    }

    /// `Buyer/Name`. For a consumer the sources disagree (one centre wants exactly 4 Big5 bytes, another
    /// refuses `0000`); `顧客` (customer) satisfies both.
    public var buyerName: String {
        if case .business(_, let name) = self { return name }
        return "顧客"
    }

    /// Whether the proof is printed (PrintMark Y): printed and B2B invoices; carrier and donated ones are not.
    public var printsProof: Bool {
        switch self {
        case .printed, .business: true
        case .carrier, .donation: false
        }
    }

    public var isBusiness: Bool {
        if case .business = self { return true }
        return false
    }
}

/// The 4-digit random code (隨機碼) of one invoice, which the buyer needs to look it up.
public struct RandomCode: Sendable, Hashable, CustomStringConvertible {
    public let value: Int

    public init<Generator: RandomNumberGenerator>(using generator: inout Generator) {
        value = Int.random(in: 0...9999, using: &generator)
    }

    public init(parsing text: String) throws(EInvoiceError) {
        let value = text.trimmingSpaces
        guard value.utf8.count == 4, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(value) else {
            throw .randomCodeFormat(value)
        }
        self.value = number
    }

    public var description: String { String(value, digits: 4) }
}

/// A moment of issue in the shop's local time (Taiwan), as the counter's calendar gives it.
public struct InvoiceMoment: Sendable, Hashable, Comparable {
    public let day: YearMonthDay
    public let hour: Int
    public let minute: Int
    public let second: Int

    public init(day: YearMonthDay, hour: Int, minute: Int, second: Int) {
        self.day = day
        self.hour = min(max(hour, 0), 23)
        self.minute = min(max(minute, 0), 59)
        self.second = min(max(second, 0), 59)
    }

    /// `20261115`: MIG's dates.
    public var migDate: String { String(day.year, digits: 4) + String(day.month, digits: 2) + String(day.day, digits: 2) }
    /// `14:30:05`: MIG's times and the proof's.
    public var clock: String { String(hour, digits: 2) + ":" + String(minute, digits: 2) + ":" + String(second, digits: 2) }
    /// `1151115`: the QR code's ROC date.
    public var rocDate: String { String(day.year - 1911, digits: 3) + String(day.month, digits: 2) + String(day.day, digits: 2) }
    /// `2026-11-15 14:30:05`: the proof's line.
    public var printed: String {
        String(day.year, digits: 4) + "-" + String(day.month, digits: 2) + "-" + String(day.day, digits: 2) + " " + clock
    }

    public static func < (lhs: InvoiceMoment, rhs: InvoiceMoment) -> Bool {
        (lhs.day, lhs.hour, lhs.minute, lhs.second) < (rhs.day, rhs.hour, rhs.minute, rhs.second)
    }
}

/// One issued 統一發票 (F0401): its number, moment, seller, recipient, items and amounts, random code.
public struct EInvoice: Sendable, Hashable {
    public let number: InvoiceNumber
    public let period: InvoicePeriod
    public let issued: InvoiceMoment
    public let seller: InvoiceSeller
    public let recipient: InvoiceRecipient
    public let content: InvoiceContent
    public let randomCode: RandomCode

    /// An invoice for a bill paid in full, numbered from `book`.
    /// - Throws: `EInvoiceError` when the number is not the book's, the moment is outside the book's period,
    ///   or the bill's lines do not add up to what was paid.
    public init(number: InvoiceNumber, from book: InvoiceBook, issued: InvoiceMoment, seller: InvoiceSeller,
                recipient: InvoiceRecipient, lines: [SaleLine], paid: Int, randomCode: RandomCode) throws(EInvoiceError) {
        guard book.contains(number) else { throw .numberOutsideBook(number: number.printed, book: book.description) }
        guard book.period.contains(issued.day) else {
            throw .dateOutsidePeriod(date: issued.printed, period: book.period.code)
        }
        self.number = number
        self.period = book.period
        self.issued = issued
        self.seller = seller
        self.recipient = recipient
        self.content = try InvoiceContent(lines: lines, paid: paid, showsTax: recipient.isBusiness)
        self.randomCode = randomCode
    }

    public var amounts: InvoiceAmounts { content.amounts }
    public var items: [InvoiceItem] { content.items }
}
