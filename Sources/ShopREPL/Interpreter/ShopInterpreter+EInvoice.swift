import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import LineEditor

/// `einvoice`: the 統一發票's setup, numbers and files.
extension ShopInterpreter {
    func runEInvoice(_ request: EInvoiceRequest) async throws {
        let acting = try await acting()
        switch request {
        case .tracks(let text):
            var period: InvoicePeriod?
            if let text {
                do throws(EInvoiceError) { period = try InvoicePeriod(parsing: text) } catch { throw TillError.einvoice(.einvoice(error)) }
            }
            let (shown, ranges, issuedToday) = try await shop.counter.invoiceTracks(period: period, by: acting)
            say(Self.tracksView(period: shown, ranges: ranges, issuedToday: issuedToday, style: style))
        case .seller(let number, let name, let address, let typedKey, let turnkey):
            var keyText = typedKey ?? credentials.qrKey
            if keyText == nil, let read = prompter.readSecret {
                keyText = await read("The QR key (QRcode 密碼種子, 32 hex characters; not shown): ")
            }
            guard let keyText, !keyText.isEmpty else {
                throw TillError.einvoice(.einvoice(.qrKeyFormat))
            }
            let setup: InvoiceSetup
            do {
                let key = try QRKey(hex: keyText)
                setup = InvoiceSetup(seller: try InvoiceSeller(businessNumber: number, name: name, address: address, qrKey: key),
                                     turnkey: turnkey.map { TurnkeyFolder(root: Self.absolute($0)) })
            } catch {
                throw TillError.einvoice(.einvoice(error))
            }
            try await shop.counter.setInvoiceSeller(setup, by: acting)
            say("E-invoice seller set for every counter (電子發票設定): \(setup.seller.businessNumber) \(setup.seller.name), "
                + "\(setup.seller.address); QR key set (hidden); "
                + (setup.turnkey.map { "Turnkey folder \($0.root)" } ?? "no Turnkey folder yet (files are written once one is set)") + "\n")
        case .trackFile(let file):
            let path = (file as NSString).expandingTildeInPath
            let (imported, alreadyIn) = try await shop.counter.importInvoiceAllocationFile(at: path, by: acting)
            for range in imported {
                say("Imported \(range): \(range.books.count) books of \(InvoiceBook.size), \(range.count) numbers (字軌已匯入).\n")
            }
            for range in alreadyIn { say("\(range) was imported before; left as it is (字軌已匯入).\n") }
            say("E0501 file \((path as NSString).lastPathComponent): \(imported.count) range\(imported.count == 1 ? "" : "s") imported, "
                + "\(alreadyIn.count) already in.\n")
        case .track(let text):
            let range: TrackRange
            do { range = try TrackRange(parsing: text) } catch { throw TillError.einvoice(.einvoice(error)) }
            try await shop.counter.importInvoiceRange(range, by: acting)
            say("Imported \(range): \(range.books.count) books of \(InvoiceBook.size), \(range.count) numbers (字軌已匯入).\n")
        case .status:
            let status = try await shop.counter.invoiceFiles(by: acting)
            say(Self.filesView(status, style: style, now: shop.clock.now()))
        case .blanks(let text):
            let period: InvoicePeriod
            do { period = try InvoicePeriod(parsing: text) } catch { throw TillError.einvoice(.einvoice(error)) }
            let reports = try await shop.counter.reportBlankNumbers(period: period, by: acting)
            if reports.isEmpty {
                say("Period \(period.code): no blank numbers; nothing to report (無空白字軌).\n")
            }
            for report in reports {
                let count = report.runs.reduce(0) { $0 + $1.count }
                say("Period \(period.code) track \(report.track.letters): \(count) blank numbers reported (E0402, 空白字軌) in "
                    + "\(report.runs.count) runs.\n")
            }
        case .issue(let number):
            let invoice = try await shop.counter.issueInvoice(number, by: acting)
            say("Order \(number): invoice \(invoice.number.printed) issued, $\(invoice.amounts.totalAmount) (補開發票).\n")
        }
    }

    /// A path as given, made absolute against the working directory (the setting is read by other processes).
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    static func tracksView(period: InvoicePeriod, ranges: [InvoiceDesk.TrackView], issuedToday: Int, style: ColorPolicy) -> String {
        guard !ranges.isEmpty else {
            return "No invoice numbers imported for \(period.printed) (\(period.code)) (尚未匯入字軌): "
                + "einvoice track \(period.code) AB 12345000-12345249\n"
        }
        var table = TextTable(columns: [.init("Book"), .init("Holder"), .init("Issued", alignment: .right), .init("Left", alignment: .right)])
        for range in ranges {
            for book in range.books {
                let serials = String(format: "%08d-%08d", book.book.firstSerial, book.book.lastSerial)
                let holder = book.holder.map { $0.isEmpty ? "nobody (reported blank)" : $0 } ?? "free"
                table.append(["\(range.range.track.letters) \(serials)", holder, "\(book.issued)", "\(InvoiceBook.size - book.issued)"])
            }
        }
        var out = "Invoice numbers for \(period.printed) (\(period.code)):\n" + table.render(style: style)
        let left = InvoiceDesk.NumbersLeft(period: period, left: ranges.reduce(0) { $0 + $1.left }, issuedToday: issuedToday)
        out += "\(left.left) numbers left; \(issuedToday) issued today.\n"
        if left.isLow { out += lowNumbersWarning(left, style: style) }
        return out
    }

    /// The warning every counter shows when fewer numbers are left than a day's sales (two lines within 60 columns).
    static func lowNumbersWarning(_ left: InvoiceDesk.NumbersLeft, style: ColorPolicy) -> String {
        style.paint("Only \(left.left) invoice numbers left for \(left.period.code), fewer than", .yellow, .bold) + "\n"
            + style.paint("a day's sales (\(left.issuedToday)) (字軌即將用完). Import the next:", .yellow, .bold) + "\n"
            + "  einvoice track \(left.period.code) <track> <from>-<to>\n"
    }

    /// Says the low-numbers warning when the numbers this counter can issue have fallen below a day's sales: at the
    /// start of a session, and after a payment that issued an invoice when they have just crossed it (once, not after
    /// every sale). Nothing, and no request beyond the settings, for a shop without a seller; never fails a command.
    func warnIfInvoiceNumbersLow(atStart: Bool) async {
        guard let left = try? await shop.counter.invoiceNumbersLeft() else { return }
        invoiceNumbersLook = (left, shop.clock.now())
        invoiceNumbersLooks += 1
        defer { invoiceNumbersWereLow = left.isLow }
        guard left.isLow, atStart || !invoiceNumbersWereLow else { return }
        say(Self.lowNumbersWarning(left, style: style))
    }

    /// After a payment that issued `invoice`: the low-numbers look, made cheap. Between looks the last one is counted
    /// on (one number fewer, one more sold today, per invoice of this counter), and the store is asked again only
    /// when that count crosses the line, when this invoice opens a book (the moment the numbers a counter holds
    /// change), or when the last look is over `invoiceLookInterval` old (other counters' sales and a new day). So a
    /// 300-order day asks a handful of times, not 300 (each look is three listings over the API); another counter's
    /// sales can make the warning up to that long late.
    func warnIfInvoiceNumbersLow(after invoice: IssuedInvoice) async {
        if let look = invoiceNumbersLook, shop.clock.now().timeIntervalSince(look.at) < Self.invoiceLookInterval,
           invoice.number.serial % InvoiceBook.size != 0
        {
            let counted = InvoiceDesk.NumbersLeft(period: look.left.period, left: max(0, look.left.left - 1),
                                                  issuedToday: look.left.issuedToday + 1)
            invoiceNumbersLook = (counted, look.at)
            if !counted.isLow || invoiceNumbersWereLow { return }
        }
        await warnIfInvoiceNumbersLow(atStart: false)
    }

    /// How old the last low-numbers look may be before a payment looks again.
    static let invoiceLookInterval: TimeInterval = 30 * 60

    static func filesView(_ status: InvoiceDesk.FilesStatus, style: ColorPolicy, now: Date) -> String {
        var out = ""
        for kept in status.keptHere {
            let line = "Issued here while the store was away (離線開立), its order \(kept.order) still in this counter's outbox: "
                + "\(kept.number); recorded and its file written once the order is sent"
            out += kept.nearsLimit(now: now)
                ? style.paint(line + "; issued over a day ago (上傳期限 2 日): put the order right so it is sent", .yellow, .bold) + "\n"
                : line + "\n"
        }
        if status.storeAway {
            return out + style.paint("The store cannot be reached (無法連線): the files of the invoices it holds are checked once "
                + "it answers.", .yellow) + "\n"
        }
        for name in status.repaired { out += "Written now (補寫): \(name)\n" }
        for problem in status.unwritten { out += style.paint("Not written (未寫入): \(problem)", .red) + "\n" }
        guard status.hasFolder else { return out + "No Turnkey folder is set (未設定 Turnkey 目錄): einvoice seller … --turnkey DIR\n" }
        out += "\(status.waiting.count) file\(status.waiting.count == 1 ? "" : "s") waiting for Turnkey (待上傳)"
        out += status.waiting.isEmpty ? ".\n" : ":\n" + status.waiting.map { "  \($0.name)" }.joined(separator: "\n") + "\n"
        for name in status.refused { out += style.paint("Refused by Turnkey (ERR): \(name)", .red) + "\n" }
        for name in status.nearLimit {
            out += style.paint("Waiting over a day (上傳期限 2 日): \(name); is Turnkey running?", .yellow, .bold) + "\n"
        }
        return out
    }
}
