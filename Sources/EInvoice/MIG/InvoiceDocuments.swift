import DrinkShopCore

extension EInvoice {
    /// The F0401 document of this invoice (MIG 4.1), elements in the MIG table's order.
    ///
    /// Choices where the sources are unsure: `RandomNumber` is always sent; a citizen certificate's
    /// `CarrierId1` and `CarrierId2` are both its number, as a mobile barcode's are; a printed invoice carries
    /// no carrier; a consumer's `Buyer/Name` is `顧客`.
    public var f0401: MIGDocument {
        let message = MIGMessage.f0401
        var xml = MIGWriter(root: message.root, message: message)
        xml.open("Main")
        xml.element("InvoiceNumber", number.text)
        xml.element("InvoiceDate", issued.migDate)
        xml.element("InvoiceTime", issued.clock)
        xml.open("Seller")
        xml.element("Identifier", seller.businessNumber)
        xml.element("Name", seller.name)
        xml.element("Address", seller.address)
        xml.close("Seller")
        xml.open("Buyer")
        xml.element("Identifier", recipient.buyerIdentifier)
        xml.element("Name", recipient.buyerName)
        xml.close("Buyer")
        xml.element("InvoiceType", "07")
        switch recipient {
        case .printed, .business:
            xml.element("DonateMark", "0")
            xml.element("PrintMark", "Y")
        case .carrier(let carrier):
            xml.element("DonateMark", "0")
            xml.element("CarrierType", carrier.isMobileBarcode ? "3J0002" : "CQ0001")
            xml.element("CarrierId1", carrier.value)
            xml.element("CarrierId2", carrier.value)
            xml.element("PrintMark", "N")
        case .donation(let code):
            xml.element("DonateMark", "1")
            xml.element("PrintMark", "N")
            xml.element("NPOBAN", code)
        }
        xml.element("RandomNumber", randomCode.description)
        xml.close("Main")
        xml.open("Details")
        for item in items {
            xml.open("ProductItem")
            xml.element("Description", item.description)
            xml.element("Quantity", item.quantity)
            xml.element("UnitPrice", item.unitPrice)
            xml.element("TaxType", "1")
            xml.element("Amount", item.amount)
            xml.element("SequenceNumber", item.sequence)
            xml.close("ProductItem")
        }
        xml.close("Details")
        xml.open("Amount")
        xml.element("SalesAmount", amounts.salesAmount)
        xml.element("FreeTaxSalesAmount", 0)
        xml.element("ZeroTaxSalesAmount", 0)
        xml.element("TaxType", "1")
        xml.element("TaxRate", "0.05")
        xml.element("TaxAmount", amounts.taxAmount)
        xml.element("TotalAmount", amounts.totalAmount)
        xml.close("Amount")
        return MIGDocument(message: message, fileName: "F0401_\(number.text).xml", xml: xml.finish(root: message.root))
    }

    /// The F0501 document voiding this invoice, at `moment`, for `reason` (1 to 20 characters, e.g. 顧客退貨).
    /// A void belongs to the invoice's own period (see ``InvoicePeriod/lastVoidDay``); the caller decides.
    public func f0501(at moment: InvoiceMoment, reason: String) throws(EInvoiceError) -> MIGDocument {
        let reason = InvoiceItem.cleaned(reason)
        guard (1...20).contains(reason.count) else { throw .reasonLength(reason) }
        let message = MIGMessage.f0501
        var xml = MIGWriter(root: message.root, message: message)
        xml.element("CancelInvoiceNumber", number.text)
        xml.element("InvoiceDate", issued.migDate)
        xml.element("BuyerId", recipient.buyerIdentifier)
        xml.element("SellerId", seller.businessNumber)
        xml.element("CancelDate", moment.migDate)
        xml.element("CancelTime", moment.clock)
        xml.element("CancelReason", reason)
        return MIGDocument(message: message, fileName: "F0501_\(number.text).xml", xml: xml.finish(root: message.root))
    }
}

extension InvoiceDetails {
    var isMobileBarcode: Bool {
        if case .mobileBarcode = self { return true }
        return false
    }
}
