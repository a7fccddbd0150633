import DrinkShopCore
import Foundation

/// Archiving at the counter: the setting, moving closed days and reported periods' invoices (each move audited),
/// and orders moved there, which are read but never changed.
extension Counter {
    /// Whether every drawer close archives the closed days, for every counter.
    public func setArchiving(_ on: Bool, by acting: Acting) async throws(TillError) {
        let who = try await authorize(.changeSetting, acting)
        guard archiver != nil else { throw .shop(.archive(.noArchive)) }
        do { try await settings.setArchivesClosedDays(on, by: who) } catch { throw .shop(error) }
    }

    /// Moves the closed days to the archive, each day's move in the audit trail. Whatever was moved stays
    /// moved when it stops (`TillError.archiveStopped`); running it again finishes. A day's entry is written
    /// after its move, not with it: the move spans two stores (copied into the archive's file, verified, then
    /// removed from the base in batches) with no commit holding both, and putting a day back would copy it
    /// all again. The archive keeps its own note of each day moved (`DayArchive.noteArchived`).
    public func archiveClosedDays(by acting: Acting) async throws(TillError) -> [DayArchiver.DayReport] {
        try await archiving(by: acting, { (archiver) throws(ShopError) in try await archiver.archiveClosedDays() }) { report, location in
            ("archive \(report.day)", "\(report.movedCount) records moved to \(location), \(report.kept) kept")
        }
    }

    /// Moves the invoices of every period whose blank numbers are reported to the archive
    /// (`DayArchiver.archiveReportedInvoices`), each period's move in the audit trail; part of every archiving run.
    public func archiveReportedInvoices(by acting: Acting) async throws(TillError) -> [DayArchiver.InvoiceReport] {
        try await archiving(by: acting, { (archiver) throws(ShopError) in try await archiver.archiveReportedInvoices() }) { report, location in
            ("archive invoices \(report.period)",
             "\(report.invoices) invoices and \(report.proofPrints) proof prints moved to \(location), \(report.kept) kept")
        }
    }

    /// One archiving run by `acting` (a close of the day's right): `run`'s moves, each then audited with the subject
    /// and detail `entry` says of it (given the archive's location).
    private func archiving<Report: Sendable>(by acting: Acting, _ run: (DayArchiver) async throws(ShopError) -> [Report],
                                            entry: (Report, String) -> (subject: String, detail: String))
        async throws(TillError) -> [Report]
    {
        let who = try await authorize(.closeDay, acting)
        guard let archiver else { throw .shop(.archive(.noArchive)) }
        let reports: [Report]
        do { reports = try await run(archiver) } catch { throw .archiveStopped(error, afterClose: false) }
        for report in reports {
            let (subject, detail) = entry(report, archiver.archive.location)
            try await record(.closeDay, by: who, subject: subject, detail: detail)
        }
        return reports
    }

    /// `find`, for a change that writes to the order's own records: an order of an earlier day whose records were
    /// moved to the archive with their day is refused in words before anything is written (one read of the base,
    /// only for an earlier day's order on a store with an archive).
    func findToChange(_ number: OrderNumber) async throws(TillError) -> StoredOrder {
        let stored = try await find(number)
        guard let archiver, !stored.isUnsent, stored.businessDay < clock.today, let line = stored.recordIDs.first else { return stored }
        do {
            if try await archiver.baseHoldsOrderLine(line) { return stored }
        } catch {
            throw .shop(error)
        }
        throw .shop(.archivedOrder(stored.numberWithDay ?? number, archive: archiver.archive.location))
    }
}
