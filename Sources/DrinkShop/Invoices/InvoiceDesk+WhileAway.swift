import Airtable
import DrinkShopCore
import EInvoice
import Foundation

/// Invoices of kept orders paid while the store could not be reached: numbered at once from this counter's own book
/// (its outbox's notes hold the book and its last number, so no request is needed), kept with the payment in the
/// outbox, and recorded in `EInvoice` (then their files written) when the order is sent.
extension InvoiceDesk {
    /// How the invoice of `stored` (kept, not sent), paid in full by `charges.total`, is made from the number after
    /// `last` in this counter's book `book` (nil: the book has none left, or is not of the invoice's period), as
    /// `details` say (nil: printed B2C; a carrier, a donation, or a company's 統一編號 with the tax shown): for
    /// `Outbox.keepPayment`, which takes the number and keeps the payment in one commit. Nil when the total is NT$0.
    func issuingWhileAway(for stored: StoredOrder, charges: OrderCharges, details: InvoiceDetails?,
                          by staff: String) async throws(TillError) -> (@Sendable (_ book: String, _ last: String?) -> IssuedInvoice?)? {
        guard let draft = try draft(for: stored, charges: charges, details: details, by: staff) else { return nil }
        let period = draft.period
        let holder = await holderName()
        return { key, last in
            Self.number(after: last, inBook: key, of: period).map { draft.invoice(number: $0.number, book: $0.book, holder: holder) }
        }
    }

    /// Records `kept` (issued while its order was kept) now that the order is in the store as `sent`: under the
    /// order's pickup number and day, then its files; the prints made while it was kept are counted on it, so every
    /// later print is a 補印. Safe to repeat: the record is written once by its number (`record`), a file never twice.
    func recordKept(_ kept: IssuedInvoice, of sent: StoredOrder) async throws(TillError) -> IssuedInvoice {
        var invoice = kept
        invoice.pickupNumber = sent.order.pickupNumber
        invoice.businessDay = sent.businessDay
        invoice.proofPrints = 0
        invoice.id = try await record(invoice)
        if let setup = try await setup() { _ = try? await writeFiles(of: invoice, setup: setup) }
        if kept.proofPrints > 0, (try? await countProofPrintOverTheAPI(invoice)) != nil { invoice.proofPrints = 1 }
        return invoice
    }
}
