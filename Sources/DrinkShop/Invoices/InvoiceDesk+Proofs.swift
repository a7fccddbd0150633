import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The original print of an invoice's proof, claimed once (`ProofPrint`): a second counter printing the same proof at
/// the same instant prints 補印, whichever store the counters share.
extension InvoiceDesk {
    /// On the embedded store: the print counted and, at the first, the original claimed, in one commit. A claim
    /// already there (a counter over `serve` printed first) makes this print a 補印 even while the count says none.
    func countProofPrintInOneCommit(_ invoice: IssuedInvoice, in atomic: any AtomicRecordStore) async throws(TillError) -> Int {
        let claim = Self.proofClaim(invoice, holder: InvoiceNumbering.sharedHolder, at: clock.now())
        do {
            return try await atomic.atomically { (transaction) throws(AirtableError) -> Int in
                let record = try transaction.getRecord(in: ShopSchema.einvoiceTable, id: invoice.id, options: ReadOptions())
                var before = max(0, record.fields[EInvoiceField.proofPrints]?.intValue ?? 0)
                if before == 0 {
                    if try transaction.containsRecord(in: ShopSchema.proofPrintTable, field: ProofPrintField.key.rawValue,
                                                      text: invoice.number.text) {
                        before = 1
                    } else {
                        _ = try transaction.createRecords(in: ShopSchema.proofPrintTable, [claim], options: WriteOptions(typecast: true))
                    }
                }
                _ = try transaction.updateRecords(in: ShopSchema.einvoiceTable,
                                                  [RecordUpdate(id: invoice.id, fields: Fields([EInvoiceField.proofPrints: .int(before + 1)]))],
                                                  replace: false, options: WriteOptions(typecast: true))
                return before
            }
        } catch {
            throw .shop(.store(error))
        }
    }

    /// Over the API: the count read; at what it says is the first print, the original claimed (`claimFirstPrint`);
    /// then the count written. The count is a read then a write, so two prints at one instant may count once; which
    /// of them is the original is the claim's to say, never the count's.
    func countProofPrintOverTheAPI(_ invoice: IssuedInvoice) async throws(TillError) -> Int {
        let table = ShopSchema.einvoiceTable
        let record: Record
        do { record = try await store.getRecord(in: table, id: invoice.id, options: ReadOptions()) } catch { throw .shop(.store(error)) }
        var before = max(0, record.fields[EInvoiceField.proofPrints]?.intValue ?? 0)
        if before == 0, !(try await claimFirstPrint(invoice)) { before = 1 }
        do {
            _ = try await store.updateRecords(in: table, [RecordUpdate(id: invoice.id, fields: Fields([EInvoiceField.proofPrints: .int(before + 1)]))],
                                              replace: false, options: WriteOptions(typecast: true))
        } catch {
            throw .shop(.store(error))
        }
        return before
    }

    /// Claims the original print of `invoice`'s proof over the API: a create of its `ProofPrint`, then (where the
    /// server does not keep the key unique) a read of every claim of that number; the claim holds when it is the
    /// strictly earliest-created, as pickup numbers and invoice books are claimed. A server that keeps the key unique
    /// refuses a second claim: that print is a 補印. Claims of the same instant are withdrawn and tried again after a
    /// random pause (the one whose withdrawal lands first leaves the other alone); a claim that ties every time gives
    /// way, so a print is a 補印 rather than a second original. A base without the table (made before it, and not set
    /// up since) has no claims: the count alone says which print is the first, as it did before.
    func claimFirstPrint(_ invoice: IssuedInvoice) async throws(TillError) -> Bool {
        let holder = await holderName()
        for attempt in 0..<Self.proofClaimAttempts {
            let outcome: KeyedClaim
            do {
                outcome = try await claim(Self.proofClaim(invoice, holder: holder, at: clock.now()), of: invoice.number.text,
                                          field: ProofPrintField.key.rawValue, in: ShopSchema.proofPrintTable)
            } catch {
                if case .shop(.store(let cause)) = error, cause.isNotFound { return true }
                throw error
            }
            switch outcome {
            case .held: return true
            case .taken: return false
            case .tied: try? await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * min(attempt + 1, 10)))))
            }
        }
        return false
    }

    static let proofClaimAttempts = 12

    static func proofClaim(_ invoice: IssuedInvoice, holder: String, at date: Date) -> Fields {
        Fields([ProofPrintField.key: .string(invoice.number.text), .holder: .string(holder),
                .printedAt: .string(AirtableTimestamp.format(date))])
    }
}
