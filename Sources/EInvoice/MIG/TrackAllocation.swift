/// The platform's E0501 配號 file (營業人電子發票配號檔): the ranges of numbers the Ministry handed a seller for a
/// period, as Turnkey downloads them. Two shapes are known [2 sources]: an `InvoiceEnvelope` whose `InvoicePack` holds
/// one `InvoiceAssignNo` per range (namespace `urn:GEINV:E0501:3.1`), and a single document holding one range's
/// elements directly under its root (namespace `urn:GEINV:E0501:4.0`). Each range names `Ban` (the seller's 統一編號),
/// `InvoiceType` (07, 一般稅額), `YearMonth`, `InvoiceTrack`, `InvoiceBeginNo`, `InvoiceEndNo` and `InvoiceBooklet`
/// (books of 50). Elements are matched by local name, so either namespace (or none) reads.
public struct TrackAllocation: Sendable, Hashable {
    /// The seller the numbers were given to.
    public let businessNumber: String
    public let range: TrackRange

    /// The invoice type a tea shop issues (一般稅額).
    public static let invoiceType = "07"

    /// The ranges of an E0501 file, in the file's order. Every problem is named with the range it is in (its place
    /// in the file and the line it starts on) and the element that is wrong; a file with any problem gives nothing.
    public static func read(e0501 text: String) throws(EInvoiceError) -> [TrackAllocation] {
        let root: MIGReader.Element
        do { root = try MIGReader.read(text) } catch { throw .allocationFile(place: "line \(error.line)", problem: error.what) }
        // A range is any element holding the range's own elements: the root itself, or each `InvoiceAssignNo`.
        let items = root.all.filter { element in element.children.contains { $0.name == "InvoiceBeginNo" } }
        guard !items.isEmpty else {
            throw .allocationFile(place: "<\(root.name)>", problem: "no range in it (no InvoiceBeginNo); an E0501 配號 file "
                + "holds InvoiceTrack, InvoiceBeginNo and InvoiceEndNo for each range")
        }
        var ranges: [TrackAllocation] = []
        for (index, item) in items.enumerated() {
            let place = items.count == 1 ? "the range (line \(item.line))" : "range \(index + 1) of \(items.count) (line \(item.line))"
            ranges.append(try allocation(item, place: place))
        }
        for (index, allocation) in ranges.enumerated() {
            for other in ranges[..<index] where other.range.period == allocation.range.period && other.range.track == allocation.range.track
                && other.range.firstSerial <= allocation.range.lastSerial && allocation.range.firstSerial <= other.range.lastSerial {
                throw .allocationFile(place: "range \(index + 1) of \(ranges.count)",
                                      problem: "\(allocation.range) overlaps \(other.range) earlier in the same file")
            }
        }
        return ranges
    }

    private static func allocation(_ item: MIGReader.Element, place: String) throws(EInvoiceError) -> TrackAllocation {
        func value(_ name: String) throws(EInvoiceError) -> String {
            guard let text = item.child(name), !text.isEmpty else { throw .allocationFile(place: place, problem: "\(name) is missing or empty") }
            return text
        }
        func digits(_ text: String, _ count: Int) -> Bool { text.utf8.count == count && text.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        let ban = try value("Ban")
        guard digits(ban, 8) else { throw .allocationFile(place: place, problem: "Ban \"\(ban)\" is not a 統一編號 of 8 digits") }
        let type = try value("InvoiceType")
        guard type == invoiceType else {
            throw .allocationFile(place: place, problem: "InvoiceType is \(type); the till issues type 07 (一般稅額) invoices, so "
                + "these numbers are not for it")
        }
        // YearMonth: the ROC year and a month of the period (the even month, as the period's code, or the odd one).
        let yearMonth = try value("YearMonth")
        guard digits(yearMonth, 5), let number = Int(yearMonth), (1...12).contains(number % 100) else {
            throw .allocationFile(place: place, problem: "YearMonth \"\(yearMonth)\" is not the ROC year and a month, like 11512")
        }
        let month = number % 100
        let period: InvoicePeriod
        do { period = try InvoicePeriod(rocYear: number / 100, evenMonth: month + month % 2) } catch {
            throw .allocationFile(place: place, problem: "YearMonth \"\(yearMonth)\": \(error)")
        }
        let trackText = try value("InvoiceTrack")
        let track: InvoiceTrack
        do { track = try InvoiceTrack(trackText) } catch { throw .allocationFile(place: place, problem: "InvoiceTrack: \(error)") }
        let begin = try value("InvoiceBeginNo"), end = try value("InvoiceEndNo")
        for (name, text) in [("InvoiceBeginNo", begin), ("InvoiceEndNo", end)] where !digits(text, 8) {
            throw .allocationFile(place: place, problem: "\(name) \"\(text)\" is not 8 digits")
        }
        let range: TrackRange
        do { range = try TrackRange(period: period, track: track, firstSerial: Int(begin) ?? -1, lastSerial: Int(end) ?? -1) } catch {
            throw .allocationFile(place: place, problem: error.description)
        }
        if let booklets = item.child("InvoiceBooklet"), !booklets.isEmpty {
            guard let count = Int(booklets), count == range.books.count else {
                throw .allocationFile(place: place, problem: "InvoiceBooklet says \(booklets) books, but \(begin)-\(end) holds "
                    + "\(range.books.count) books of \(InvoiceBook.size)")
            }
        }
        return TrackAllocation(businessNumber: ban, range: range)
    }
}
