import Airtable

/// `InvoiceTrack`: one record per range of invoice numbers (字軌) a manager imported for a period, as the platform
/// hands them out (`11512 AB 12345000-12345249`); see `InvoiceBooks`.
public enum InvoiceTrackField: String, ShopField {
    case key, period, track, first, last, importedBy, importedAt
}

/// `InvoiceBook`: one record per book of 50 numbers claimed by a counter (its key the period, track and first
/// number, `11512AB12345000`), claimed by the rule pickup numbers use; after the period, the book's blank numbers
/// as reported (E0402).
public enum InvoiceBookField: String, ShopField {
    case key, period, track, first, holder, claimedAt, blanks, blankFile
}

/// `EInvoice`: one record per 統一發票 issued (its key the number, `AB12345678`): the order it is for, when and by
/// whom, the recipient, the items and amounts as issued, its state (issued, voided, allowance), the Turnkey
/// files written for it, and how many times its proof was printed.
public enum EInvoiceField: String, ShopField {
    case number, period, book, holder, orderRef, pickupNumber, orderDay, issuedAt, issuedMoment, randomCode
    case recipientKind, recipientValue, buyerName, lines, salesAmount, taxAmount, totalAmount, state, issuedBy
    case issueFile, voidedAt, voidedMoment, voidReason, voidedBy, voidFile
    case allowanceNumber, allowanceMoment, allowanceFile
    case proofPrints
}

/// `ProofPrint`: one record per invoice whose proof (電子發票證明聯) was printed, its key the invoice's number
/// (`AB12345678`): the claim of the original print, made by the counter that printed it, so that of counters printing
/// one proof at the same instant exactly one prints the original and the rest 補印 (`InvoiceDesk.claimFirstPrint`).
public enum ProofPrintField: String, ShopField {
    case key, holder, printedAt
}

extension ShopSchema {
    public static let invoiceTrackTable = "InvoiceTrack"
    public static let invoiceBookTable = "InvoiceBook"
    public static let einvoiceTable = "EInvoice"
    public static let proofPrintTable = "ProofPrint"

    public static let invoiceTrack = TableSpec(name: invoiceTrackTable, description: "Invoice number ranges (字軌) imported per period",
                                               fields: [
        FieldSpec(InvoiceTrackField.key, .singleLineText, description: "11512AB12345000-12345249"),
        FieldSpec(InvoiceTrackField.period, .singleLineText, description: "11512: ROC year and the period's even month"),
        FieldSpec(InvoiceTrackField.track, .singleLineText, description: "Two capital letters"),
        FieldSpec(InvoiceTrackField.first, .number, options: money),
        FieldSpec(InvoiceTrackField.last, .number, options: money),
        FieldSpec(InvoiceTrackField.importedBy, .singleLineText),
        FieldSpec(InvoiceTrackField.importedAt, .dateTime, options: dateTimeOptions),
    ])

    public static let invoiceBook = TableSpec(name: invoiceBookTable, description: "Books of 50 invoice numbers claimed by counters",
                                              fields: [
        FieldSpec(InvoiceBookField.key, .singleLineText, description: "11512AB12345000: period, track, first number"),
        FieldSpec(InvoiceBookField.period, .singleLineText),
        FieldSpec(InvoiceBookField.track, .singleLineText),
        FieldSpec(InvoiceBookField.first, .number, options: money),
        FieldSpec(InvoiceBookField.holder, .singleLineText, description: "The counter that took it"),
        FieldSpec(InvoiceBookField.claimedAt, .dateTime, options: dateTimeOptions),
        FieldSpec(InvoiceBookField.blanks, .singleLineText, description: "Blank numbers reported after the period"),
        FieldSpec(InvoiceBookField.blankFile, .singleLineText, description: "The E0402 file written for them"),
    ])

    public static let einvoice = TableSpec(name: einvoiceTable, description: "統一發票 issued by the till", fields: [
        FieldSpec(EInvoiceField.number, .singleLineText, description: "AB12345678"),
        FieldSpec(EInvoiceField.period, .singleLineText),
        FieldSpec(EInvoiceField.book, .singleLineText, description: "The book's key"),
        FieldSpec(EInvoiceField.holder, .singleLineText, description: "The counter that issued it"),
        FieldSpec(EInvoiceField.orderRef, .singleLineText),
        FieldSpec(EInvoiceField.pickupNumber, .number, options: money),
        FieldSpec(EInvoiceField.orderDay, .singleLineText, description: "The order's business day (an invoice is not a day's record: it is never archived)"),
        FieldSpec(EInvoiceField.issuedAt, .dateTime, options: dateTimeOptions),
        FieldSpec(EInvoiceField.issuedMoment, .singleLineText, description: "2026-12-06 14:30:05, Taiwan time"),
        FieldSpec(EInvoiceField.randomCode, .singleLineText),
        FieldSpec(EInvoiceField.recipientKind, .singleLineText, description: "printed, 3J0002, CQ0001, donation, business"),
        FieldSpec(EInvoiceField.recipientValue, .singleLineText),
        FieldSpec(EInvoiceField.buyerName, .singleLineText),
        FieldSpec(EInvoiceField.lines, .multilineText, description: "The items as issued (JSON)"),
        FieldSpec(EInvoiceField.salesAmount, .number, options: money),
        FieldSpec(EInvoiceField.taxAmount, .number, options: money),
        FieldSpec(EInvoiceField.totalAmount, .number, options: money),
        .singleSelect(EInvoiceField.state.rawValue, ["issued", "voided", "allowance"]),
        FieldSpec(EInvoiceField.issuedBy, .singleLineText),
        FieldSpec(EInvoiceField.issueFile, .singleLineText, description: "The F0401 file, once written"),
        FieldSpec(EInvoiceField.voidedAt, .dateTime, options: dateTimeOptions),
        FieldSpec(EInvoiceField.voidedMoment, .singleLineText),
        FieldSpec(EInvoiceField.voidReason, .singleLineText),
        FieldSpec(EInvoiceField.voidedBy, .singleLineText),
        FieldSpec(EInvoiceField.voidFile, .singleLineText, description: "The F0501 file, once written"),
        FieldSpec(EInvoiceField.allowanceNumber, .singleLineText),
        FieldSpec(EInvoiceField.allowanceMoment, .singleLineText),
        FieldSpec(EInvoiceField.allowanceFile, .singleLineText, description: "The G0401 file, once written"),
        FieldSpec(EInvoiceField.proofPrints, .number, description: "How many times its proof was printed (after the first: 補印)", options: money),
    ])

    public static let proofPrint = TableSpec(name: proofPrintTable, description: "The original print of each invoice's proof, claimed once",
                                             fields: [
        FieldSpec(ProofPrintField.key, .singleLineText, description: "The invoice's number, AB12345678"),
        FieldSpec(ProofPrintField.holder, .singleLineText, description: "The counter that printed the original"),
        FieldSpec(ProofPrintField.printedAt, .dateTime, options: dateTimeOptions),
    ])

    static let einvoiceTables: [TableSpec] = [invoiceTrack, invoiceBook, einvoice, proofPrint]
}
