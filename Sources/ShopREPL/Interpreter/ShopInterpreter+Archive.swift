import DrinkShop
import DrinkShopCore
import Foundation

/// Archiving closed days at the counter: `archive [status | now | on | off]` and `close COUNTED --archive`.
extension ShopInterpreter {
    func runArchive(_ request: ArchiveRequest) async throws {
        switch request {
        case .status:
            let archiver = try requireArchiver()
            let days = try await archiver.archive.days()
            let automatic = (try? await shop.settings.archivesClosedDays()) ?? false
            var text = "Archive: \(archiver.archive.location)"
            if let first = days.first, let last = days.last {
                let records = days.reduce(0) { $0 + $1.records }
                let span = first.day == last.day ? first.day.description : "\(first.day) to \(last.day)"
                text += " — \(days.count) day\(days.count == 1 ? "" : "s") (\(span), \(records) records)"
            } else {
                text += " — no day archived yet"
            }
            text += "\nclose " + (automatic ? "archives the closed days (archive off to stop)" : "keeps every day in the base (archive on, or close COUNTED --archive)")
            say(text + "\n")
        case .now:
            try await archiveClosedDays(by: try await acting())
        case .on, .off:
            try await shop.counter.setArchiving(request == .on, by: try await acting())
            say(request == .on ? "Every close now archives the closed days, on every counter.\n"
                : "close keeps every day in the base now (archive now still archives).\n")
        }
    }

    /// After a drawer count: archives when asked (`--archive`) or when the store's setting says so. The
    /// count is recorded whatever happens here.
    func archiveAfterClose(asked: Bool, by acting: Acting) async throws {
        var wanted = asked
        if !wanted, shop.archiver != nil {
            do { wanted = try await shop.settings.archivesClosedDays() } catch {
                warn("whether to archive could not be read (\(error)); run archive now to archive")
            }
        }
        guard wanted else {
            await dropClosedDaysTickets(by: acting)
            return
        }
        do {
            try await archiveClosedDays(by: acting)
        } catch TillError.archiveStopped(let error, _) {
            throw TillError.archiveStopped(error, afterClose: true)
        } catch TillError.shop(let error) {
            throw TillError.archiveStopped(error, afterClose: true)
        } catch let error as ShopError {
            throw TillError.archiveStopped(error, afterClose: true)
        }
    }

    /// Without archiving, a counter on a remote base still removes the pickup tickets of closed days there
    /// (bookkeeping of which counter got which number, 300 records a busy day); the embedded store keeps
    /// everything. A failure is said, never fatal: the drawer count is recorded.
    private func dropClosedDaysTickets(by acting: Acting) async {
        do {
            let removed = try await shop.counter.dropClosedDaysTickets(by: acting)
            if removed > 0 { say("Removed \(removed) pickup tickets of closed days from the base.\n") }
        } catch {
            warn("the pickup tickets of closed days could not be removed (\(error)); the next close tries again")
        }
    }

    private func archiveClosedDays(by acting: Acting) async throws {
        let archiver = try requireArchiver()  // who may was checked by the command table (`archive now`, `close`)
        say("Archiving the days before \(shop.clock.today) into \(archiver.archive.location)…\n")
        let reports = try await shop.counter.archiveClosedDays(by: acting)
        // A period's invoices follow once its blank numbers are reported (E0402), so no number is reported again.
        let invoices = try await shop.counter.archiveReportedInvoices(by: acting)
        for report in invoices {
            let claims = report.proofPrints == 1 ? "1 proof's print" : "\(report.proofPrints) proofs' prints"
            var line = "Invoices of period \(report.period): \(report.invoices) moved to the archive with \(claims)"
            if report.kept > 0 { line += "; \(report.kept) left in the base with \(report.kept == 1 ? "its order" : "their orders") (still open)" }
            say(line + "\n")
        }
        guard !reports.isEmpty else {
            if invoices.isEmpty {
                say("Nothing to archive: the base holds no day before today. Today (\(shop.clock.today)) stays until it is over; "
                    + "the first close --archive (or archive now) after that moves it.\n")
            }
            return
        }
        for report in reports {
            let tables = report.moved.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            var line = "\(report.day): \(report.movedCount) records moved to the archive"
            if !tables.isEmpty { line += " (\(tables))" }
            if report.kept > 0 { line += "; \(report.kept) left in the base (orders still open, or a shift not closed)" }
            say(line + "\n")
        }
        say("Reports, orders --date and export still show these days (read from the archive on this machine).\n")
    }

    private func requireArchiver() throws -> DayArchiver {
        guard let archiver = shop.archiver else { throw ShopError.archive(.noArchive) }
        return archiver
    }
}
