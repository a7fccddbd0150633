import Airtable
import CivilDate
import DrinkShopCore
import EInvoice
import Foundation

/// One invoice as the `EInvoice` table keeps it: enough to print its proof again, write its files again and check
/// it against the order's bill, whatever happens to the order afterwards.
public struct IssuedInvoice: Sendable, Hashable {
    public enum State: String, Sendable, Hashable { case issued, voided, allowance }

    /// The record's id (empty before it is written).
    public var id: String = ""
    public let number: InvoiceNumber
    public let book: InvoiceBook
    /// The counter that issued it (`einvoice tracks` shows who holds which book).
    public let holder: String
    public let orderRef: String
    /// The order's pickup number and business day (an invoice issued while its order was kept gets them when the
    /// order is sent: `InvoiceDesk.recordKept`).
    public internal(set) var pickupNumber: Int
    public internal(set) var businessDay: BusinessDay
    public let issuedAt: Date
    public let issued: InvoiceMoment
    public let randomCode: RandomCode
    /// The invoice details the counter took (nil: a printed proof for a consumer).
    public let details: InvoiceDetails?
    public let lines: [SaleLine]
    public let amounts: InvoiceAmounts
    public let issuedBy: String
    public var state: State = .issued
    /// The files written into Turnkey's folder (nil: not yet).
    public var issueFile: String?
    public var voided: InvoiceMoment?
    public var voidReason: String?
    public var voidedBy: String?
    public var voidFile: String?
    public var allowanceNumber: String?
    public var allowanceMoment: InvoiceMoment?
    public var allowanceFile: String?
    /// How many times its proof (電子發票證明聯) was printed: every print after the first says 補印. Written only
    /// by `Counter.proofToPrint`, never by the cells an issue or a file writes.
    public var proofPrints = 0

    /// Whether the invoice counts (issued, not voided): an order paid in full has exactly one such.
    public var isLive: Bool { state == .issued }

    /// The receipt's line for it, saying where it went: `發票 AB-12345678` (its proof printed), `… 存入載具 /ABC1234`,
    /// `… 存入自然人憑證 …`, `… 捐贈 愛心碼 8585`, `… 統編 04595257`.
    public var receiptLine: String {
        let head = "發票 \(number.printed)"
        switch details {
        case nil: return head
        case .mobileBarcode(let code)?: return head + " 存入載具 \(code)"
        case .citizenCertificate(let code)?: return head + " 存入自然人憑證 \(code)"
        case .donation(let code)?: return head + " 捐贈 愛心碼 \(code)"
        case .businessNumber(let code)?: return head + " 統編 \(code)"
        }
    }

    /// The invoice as the e-invoice core builds its documents and proof from.
    public func invoice(seller: InvoiceSeller) throws(InvoiceDeskError) -> EInvoice {
        do {
            return try EInvoice(number: number, from: book, issued: issued, seller: seller,
                                recipient: try InvoiceRecipient(details: details), lines: lines, paid: amounts.totalAmount,
                                randomCode: randomCode)
        } catch {
            throw .einvoice(error)
        }
    }

    // MARK: - Cells

    var cells: Fields {
        var cells = Fields([
            EInvoiceField.number: .string(number.text), .period: .string(book.period.code), .book: .string(book.key),
            .holder: .string(holder), .orderRef: .string(orderRef), .pickupNumber: .int(pickupNumber),
            .orderDay: .string(businessDay.description), .issuedAt: .string(AirtableTimestamp.format(issuedAt)),
            .issuedMoment: .string(issued.printed), .randomCode: .string(randomCode.description),
            .recipientKind: .string(details?.kindCode ?? "printed"), .recipientValue: .string(details?.value ?? ""),
            .lines: .string(Self.linesText(lines)), .salesAmount: .int(amounts.salesAmount), .taxAmount: .int(amounts.taxAmount),
            .totalAmount: .int(amounts.totalAmount), .state: .string(state.rawValue), .issuedBy: .string(issuedBy),
        ])
        if let issueFile { cells[EInvoiceField.issueFile] = .string(issueFile) }
        return cells
    }

    static func linesText(_ lines: [SaleLine]) -> String {
        JSONWriter.string(.array(lines.map {
            .object(["description": .string($0.description), "quantity": .int($0.quantity), "amount": .int($0.amount)])
        }))
    }

    /// Reads a record back.
    /// - Throws: `.storedInvoice` naming the record and the cell that cannot be read.
    init(record: Record) throws(InvoiceDeskError) {
        let fields = record.fields
        func text(_ field: EInvoiceField) -> String { fields[field]?.stringValue ?? "" }
        func problem(_ what: String) -> InvoiceDeskError { .storedInvoice("record \(record.id) (\(text(.number))): \(what)") }
        do {
            number = try InvoiceNumber(parsing: text(.number))
            guard let book = InvoiceBook(key: text(.book)), book.period == (try InvoicePeriod(parsing: text(.period))) else {
                throw problem("book \"\(text(.book))\"")
            }
            self.book = book
            randomCode = try RandomCode(parsing: text(.randomCode))
        } catch let error as InvoiceDeskError {
            throw error
        } catch let error as EInvoiceError {
            throw problem(error.description)
        } catch {
            throw problem("\(error)")
        }
        guard book.contains(number) else { throw problem("number outside its book \(book)") }
        holder = text(.holder)
        orderRef = text(.orderRef)
        pickupNumber = fields[EInvoiceField.pickupNumber]?.intValue ?? 0
        guard let day = try? BusinessDay(text(.orderDay)) else { throw problem("business day \"\(text(.orderDay))\"") }
        businessDay = day
        guard let at = AirtableTimestamp.parse(text(.issuedAt)) else { throw problem("issuedAt \"\(text(.issuedAt))\"") }
        issuedAt = at
        guard let moment = Self.moment(text(.issuedMoment)) else { throw problem("issuedMoment \"\(text(.issuedMoment))\"") }
        issued = moment
        let kind = text(.recipientKind)
        if kind == "printed" || kind.isEmpty {
            details = nil
        } else {
            do { details = try InvoiceDetails(kindCode: kind, value: text(.recipientValue)) } catch {
                throw problem("recipient \(kind): \(error)")
            }
        }
        guard let parsed = try? JSONParser.parse(text(.lines)), let items = parsed.arrayValue else { throw problem("lines") }
        var lines: [SaleLine] = []
        for item in items {
            guard let object = item.objectValue, let description = object["description"]?.stringValue,
                  let quantity = object["quantity"]?.intValue, let amount = object["amount"]?.intValue else { throw problem("lines") }
            lines.append(SaleLine(description: description, quantity: quantity, amount: amount))
        }
        self.lines = lines
        // The amounts are worked out again from the items (the stored figures are for reading the table by hand).
        let total = fields[EInvoiceField.totalAmount]?.intValue ?? 0
        do {
            amounts = try InvoiceContent(lines: lines, paid: total, showsTax: details?.kindCode == "businessNumber").amounts
        } catch {
            throw problem("items and total $\(total): \(error)")
        }
        issuedBy = text(.issuedBy)
        guard let state = State(rawValue: text(.state)) else { throw problem("state \"\(text(.state))\"") }
        self.state = state
        id = record.id
        func optional(_ field: EInvoiceField) -> String? { let value = text(field); return value.isEmpty ? nil : value }
        issueFile = optional(.issueFile)
        voided = optional(.voidedMoment).flatMap(Self.moment)
        voidReason = optional(.voidReason)
        voidedBy = optional(.voidedBy)
        voidFile = optional(.voidFile)
        allowanceNumber = optional(.allowanceNumber)
        allowanceMoment = optional(.allowanceMoment).flatMap(Self.moment)
        allowanceFile = optional(.allowanceFile)
        proofPrints = max(0, fields[EInvoiceField.proofPrints]?.intValue ?? 0)
    }

    init(number: InvoiceNumber, book: InvoiceBook, holder: String, orderRef: String, pickupNumber: Int, businessDay: BusinessDay,
         issuedAt: Date, issued: InvoiceMoment, randomCode: RandomCode, details: InvoiceDetails?, content: InvoiceContent,
         lines: [SaleLine], issuedBy: String) {
        self.number = number
        self.book = book
        self.holder = holder
        self.orderRef = orderRef
        self.pickupNumber = pickupNumber
        self.businessDay = businessDay
        self.issuedAt = issuedAt
        self.issued = issued
        self.randomCode = randomCode
        self.details = details
        self.lines = lines
        self.amounts = content.amounts
        self.issuedBy = issuedBy
    }

    /// Reads `2026-12-06 14:30:05`.
    static func moment(_ text: String) -> InvoiceMoment? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == ":" }).compactMap { Int($0) }
        guard parts.count == 6 else { return nil }
        return InvoiceMoment(day: YearMonthDay(year: parts[0], month: parts[1], day: parts[2]), hour: parts[3], minute: parts[4],
                             second: parts[5])
    }
}
