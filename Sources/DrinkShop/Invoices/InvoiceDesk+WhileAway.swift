import Airtable
import DrinkShopCore
import EInvoice
import Foundation

/// Invoices of kept orders paid while the store could not be reached: numbered at once from this counter's own book
/// (its outbox's notes hold the book and its last number, so no request is needed), kept with the payment in the
/// outbox, and recorded in `EInvoice` (then their files written) when the order is sent.
extension InvoiceDesk {
    /// The invoice of `stored` (kept, not sent), paid in full by `charges.total`, as `details` say (nil: printed B2C;
    /// a carrier, a donation, or a company's 統一編號 with the tax shown): its number taken from this counter's book
    /// and kept in its notes before it is returned. Nil when the total is NT$0.
    /// - Throws: `.einvoice(.noNumbersWhileAway)` when the book is used up (a new one is claimed from the store).
    func issueWhileAway(for stored: StoredOrder, charges: OrderCharges, details: InvoiceDetails?,
                        by staff: String) async throws(TillError) -> IssuedInvoice? {
        guard charges.total > 0 else { return nil }
        let lines = Self.saleLines(of: stored.order, charges: charges)
        let content: InvoiceContent
        do {
            let recipient = try InvoiceRecipient(details: details)
            content = try InvoiceContent(lines: lines, paid: charges.total, showsTax: recipient.isBusiness)
        } catch {
            throw .einvoice(.einvoice(error))
        }
        let now = clock.now()
        let moment = moment(of: now)
        let period: InvoicePeriod
        do { period = try InvoicePeriod(containing: moment.day) } catch { throw .einvoice(.einvoice(error)) }
        var random = SystemRandomNumberGenerator()
        let draft = InvoiceDraft(stored: stored, period: period, issuedAt: now, moment: moment, randomCode: RandomCode(using: &random),
                                 details: details, content: content, lines: lines, issuedBy: staff)
        let holder = await holderName()
        let taken: (InvoiceNumber, InvoiceBook)
        do {
            taken = try await takeOwnNumber(period: period, holder: holder)
        } catch .shop {
            // The book is used up and the next one is claimed from the store, which is away.
            throw .einvoice(.noNumbersWhileAway(period: period.code))
        }
        return draft.invoice(number: taken.0, book: taken.1, holder: holder)
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
