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
                text += " — \(days.count) day\(days.count == 1 ? "" : "s") (\(first.day == last.day ? first.day : "\(first.day) to \(last.day)"), "
                    + "\(records) records)"
            } else {
                text += " — no day archived yet"
            }
            text += "\nclose " + (automatic ? "archives the closed days (archive off to stop)" : "keeps every day in the base (archive on, or close COUNTED --archive)")
            say(text + "\n")
        case .now:
            let who = try await authorize(.closeDay)
            try await archiveClosedDays(by: who)
        case .on, .off:
            let who = try await authorize(.changeSetting)
            _ = try requireArchiver()
            try await shop.settings.setArchivesClosedDays(request == .on, by: who)
            say(request == .on ? "Every close now archives the closed days, on every counter.\n"
                : "close keeps every day in the base now (archive now still archives).\n")
        }
    }

    /// After a drawer count: archives when asked (`--archive`) or when the store's setting says so. The
    /// count is recorded whatever happens here.
    func archiveAfterClose(asked: Bool, by who: String) async throws {
        var wanted = asked
        if !wanted, shop.archiver != nil {
            do { wanted = try await shop.settings.archivesClosedDays() } catch {
                warn("whether to archive could not be read (\(error)); run archive now to archive")
            }
        }
        guard wanted else {
            await dropClosedDaysTickets()
            return
        }
        do {
            try await archiveClosedDays(by: who)
        } catch {
            throw TillError.refused("the drawer count is recorded, but archiving stopped: \(error)")
        }
    }

    /// Without archiving, a counter on a remote base still removes the pickup tickets of closed days there
    /// (bookkeeping of which counter got which number, 300 records a busy day); the embedded store keeps
    /// everything. A failure is said, never fatal: the drawer count is recorded.
    private func dropClosedDaysTickets() async {
        guard shop.outbox != nil, let archiver = shop.archiver else { return }
        do {
            let removed = try await archiver.dropClosedDaysTickets()
            if removed > 0 { say("Removed \(removed) pickup tickets of closed days from the base.\n") }
        } catch {
            warn("the pickup tickets of closed days could not be removed (\(error)); the next close tries again")
        }
    }

    private func archiveClosedDays(by who: String) async throws {
        let archiver = try requireArchiver()
        say("Archiving the days before \(shop.clock.today) into \(archiver.archive.location)…\n")
        let reports: [DayArchiver.DayReport]
        do { reports = try await archiver.archiveClosedDays() } catch {
            throw TillError.refused("\(error); what was archived stays archived, run archive now again to finish")
        }
        guard !reports.isEmpty else {
            say("Nothing to archive: the base holds no day before today. Today (\(shop.clock.today)) stays until it is over; "
                + "the first close --archive (or archive now) after that moves it.\n")
            return
        }
        for report in reports {
            let tables = report.moved.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            var line = "\(report.day): \(report.movedCount) records moved to the archive"
            if !tables.isEmpty { line += " (\(tables))" }
            if report.kept > 0 { line += "; \(report.kept) left in the base (orders still open, or a shift not closed)" }
            say(line + "\n")
            await audit(.closeDay, by: who, subject: "archive \(report.day)",
                        detail: "\(report.movedCount) records moved to \(archiver.archive.location), \(report.kept) kept")
        }
        say("Reports, orders --date and export still show these days (read from the archive on this machine).\n")
    }

    private func requireArchiver() throws -> DayArchiver {
        guard let archiver = shop.archiver else { throw ShopError.archive(.noArchive) }
        return archiver
    }
}
