import CivilDate

/// A 折讓證明單 issued by the seller (G0401, AllowanceType 2): money given back on an invoice of a period whose
/// voids have closed (a return in the invoice's own period is a void, F0501, instead).
///
/// Each returned line is given with the tax-included NT$ given back; the allowance shows it tax-excluded with its
/// tax apart, whether the invoice was B2C or B2B: the sales tax already filed on that money comes back out of the
/// period it is in. Tax-excluded amounts follow the invoices' one rule (`round(total / 1.05)` half up, the items
/// by largest remainder), each item's tax is its share of the rest, so `TotalAmount + TaxAmount` is exactly the
/// money given back.
public struct InvoiceAllowance: Sendable, Hashable {
    /// One item of the allowance.
    public struct Item: Sendable, Hashable {
        public let description: String
        public let quantity: Int
        public let unitPrice: Int
        public let amount: Int
        public let tax: Int
        public let sequence: Int
    }

    public let number: String
    public let issued: InvoiceMoment
    public let invoice: EInvoice
    public let items: [Item]
    /// `TaxAmount`: the tax given back.
    public let taxAmount: Int
    /// `TotalAmount`: the tax-excluded money given back.
    public let totalAmount: Int

    /// - Parameters:
    ///   - number: the shop's allowance number, 1 to 16 letters and digits, unique (e.g. `AL` + period + a count).
    ///   - lines: what is given back, tax-included, positive.
    /// - Throws: `EInvoiceError` for a bad number, a line without a name or with a quantity below 1, or more money
    ///   than the invoice's total.
    public init(number: String, issued: InvoiceMoment, invoice: EInvoice, lines: [SaleLine]) throws(EInvoiceError) {
        let number = number.trimmingSpaces
        guard (1...16).contains(number.utf8.count),
              number.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || ("A"..."Z").contains($0) || ("a"..."z").contains($0) })
        else { throw .allowanceNumberFormat(number) }
        guard !lines.isEmpty else { throw .noItems }
        for (index, line) in lines.enumerated() {
            guard !InvoiceItem.cleaned(line.description).isEmpty else { throw .itemDescription(line: index + 1) }
            guard line.quantity >= 1 else { throw .itemQuantity(line: index + 1, quantity: line.quantity) }
        }
        let given = lines.reduce(0) { $0 + $1.amount }
        guard given > 0 else { throw .nothingToInvoice(total: given) }
        guard given <= invoice.amounts.totalAmount else {
            throw .allowanceTooLarge(invoice: invoice.number.printed, allowance: given, invoiced: invoice.amounts.totalAmount)
        }
        let split = InvoiceAmounts.split(taxIncluded: given)
        let untaxed = InvoiceContent.untaxed(lines.map(\.amount), summingTo: split.sales)
        var items: [Item] = []
        for (line, lineUntaxed) in zip(lines, untaxed) {
            let parts = InvoiceItem.whole(description: InvoiceItem.cleaned(line.description), quantity: line.quantity,
                                          amount: lineUntaxed, firstSequence: items.count + 1)
            var taxLeft = line.amount - lineUntaxed
            for (index, part) in parts.enumerated() {
                let tax = index == parts.count - 1 ? taxLeft : roundedHalfUp(part.amount * 5, 100)
                taxLeft -= tax
                items.append(Item(description: part.description, quantity: part.quantity, unitPrice: part.unitPrice,
                                  amount: part.amount, tax: tax, sequence: part.sequence))
            }
        }
        self.number = number
        self.issued = issued
        self.invoice = invoice
        self.items = items
        self.taxAmount = split.tax
        self.totalAmount = split.sales
    }

    /// The G0401 document (MIG 4.1), elements in the order of the MIG table the sources agree on.
    public var g0401: MIGDocument {
        let message = MIGMessage.g0401
        var xml = MIGWriter(root: message.root, message: message)
        xml.open("Main")
        xml.element("AllowanceNumber", number)
        xml.element("AllowanceDate", issued.migDate)
        xml.open("Seller")
        xml.element("Identifier", invoice.seller.businessNumber)
        xml.element("Name", invoice.seller.name)
        xml.close("Seller")
        xml.open("Buyer")
        xml.element("Identifier", invoice.recipient.buyerIdentifier)
        xml.element("Name", invoice.recipient.buyerName)
        xml.close("Buyer")
        xml.element("AllowanceType", "2")
        xml.close("Main")
        xml.open("Details")
        for item in items {
            xml.open("ProductItem")
            xml.element("OriginalInvoiceDate", invoice.issued.migDate)
            xml.element("OriginalInvoiceNumber", invoice.number.text)
            xml.element("OriginalDescription", item.description)
            xml.element("Quantity", item.quantity)
            xml.element("UnitPrice", item.unitPrice)
            xml.element("Amount", item.amount)
            xml.element("Tax", item.tax)
            xml.element("AllowanceSequenceNumber", item.sequence)
            xml.element("TaxType", "1")
            xml.close("ProductItem")
        }
        xml.close("Details")
        xml.open("Amount")
        xml.element("TaxAmount", taxAmount)
        xml.element("TotalAmount", totalAmount)
        xml.close("Amount")
        return MIGDocument(message: message, fileName: "G0401_\(number).xml", xml: xml.finish(root: message.root))
    }
}

extension InvoicePeriod {
    /// How money given back on `day` for an invoice of this period is settled: a void (F0501) up to
    /// ``lastVoidDay``, an allowance (G0401) after it.
    public func settlesReturn(on day: YearMonthDay) -> ReturnSettlement {
        day <= lastVoidDay ? .void : .allowance
    }
}

/// A void (作廢, F0501, then a new invoice if paid again) or an allowance (折讓, G0401).
public enum ReturnSettlement: Sendable, Hashable {
    case void
    case allowance
}
