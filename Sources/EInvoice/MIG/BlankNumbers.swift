/// A period's unused numbers on one track (E0402 `BranchTrackBlank`), reported within 10 days of the next
/// period's start (``InvoicePeriod/blankNumbersDue``). A track with no blank number needs no report.
public struct BlankNumbers: Sendable, Hashable {
    public let sellerBusinessNumber: String
    public let period: InvoicePeriod
    public let track: InvoiceTrack
    /// Runs of unused serials, in order, each inside one book (a run never crosses a book's end, so each
    /// reported range is a part of a book the shop was given).
    public let runs: [ClosedRange<Int>]

    /// One report per track with blank numbers, from every book the shop took for `period` and every number it
    /// issued (voided numbers count as issued: their F0401 stands and F0501 voids it).
    public static func reports(seller: InvoiceSeller, period: InvoicePeriod, books: [InvoiceBook],
                               issued: Set<InvoiceNumber>) -> [BlankNumbers] {
        let periodBooks = books.filter { $0.period == period }.sorted()
        let tracks = Array(Set(periodBooks.map(\.track))).sorted()
        return tracks.compactMap { track in
            let runs = periodBooks.filter { $0.track == track }.flatMap { $0.blankRuns(used: issued) }
            guard !runs.isEmpty else { return nil }
            return BlankNumbers(sellerBusinessNumber: seller.businessNumber, period: period, track: track, runs: runs)
        }
    }

    /// The E0402 document: the seller is head office and branch at once; `YearMonth` is the period's code
    /// (even month, as the Ministry's own example tool writes it).
    public var e0402: MIGDocument {
        let message = MIGMessage.e0402
        var xml = MIGWriter(root: message.root, message: message)
        xml.open("Main")
        xml.element("HeadBan", sellerBusinessNumber)
        xml.element("BranchBan", sellerBusinessNumber)
        xml.element("InvoiceType", "07")
        xml.element("YearMonth", period.code)
        xml.element("InvoiceTrack", track.letters)
        xml.close("Main")
        xml.open("Details")
        for run in runs {
            xml.open("BranchTrackBlankItem")
            xml.element("InvoiceBeginNo", String(run.lowerBound, digits: 8))
            xml.element("InvoiceEndNo", String(run.upperBound, digits: 8))
            xml.close("BranchTrackBlankItem")
        }
        xml.close("Details")
        return MIGDocument(message: message, fileName: "E0402_\(period.code)_\(track.letters).xml",
                           xml: xml.finish(root: message.root))
    }
}
