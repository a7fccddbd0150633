import Testing
@testable import EInvoice

/// The platform's E0501 配號 file, in both known shapes, and every way it can be refused: each error names the range
/// (its place and line) and the element, and a file with any problem gives no range.
@Suite struct TrackAllocationTests {
    static func assignNo(_ prefix: String = "", ban: String = "12345675", type: String = "07", yearMonth: String = "11512",
                         track: String = "AB", begin: String = "12345000", end: String = "12345249", booklets: String? = "5") -> String {
        let p = prefix.isEmpty ? "" : prefix + ":"
        return "<\(p)Ban>\(ban)</\(p)Ban><\(p)InvoiceType>\(type)</\(p)InvoiceType><\(p)YearMonth>\(yearMonth)</\(p)YearMonth>"
            + "<\(p)InvoiceTrack>\(track)</\(p)InvoiceTrack><\(p)InvoiceBeginNo>\(begin)</\(p)InvoiceBeginNo>"
            + "<\(p)InvoiceEndNo>\(end)</\(p)InvoiceEndNo>" + (booklets.map { "<\(p)InvoiceBooklet>\($0)</\(p)InvoiceBooklet>" } ?? "")
    }

    /// The envelope Turnkey downloads: one `InvoiceAssignNo` per range.
    static func envelope(_ ranges: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <InvoiceEnvelope xmlns="urn:GEINV:InvoiceEnvelope:3.1">
          <From><PartyId>FROM</PartyId></From><FromVAC><RoutingId>FROMVAC</RoutingId></FromVAC>
          <To><PartyId>12345675</PartyId></To><ToVAC><RoutingId>TOVAC</RoutingId></ToVAC>
          <InvoicePack count="\(ranges.count)" messageType="E0501" version="3.1">
        \(ranges.map { "    <InvoiceAssignNo xmlns=\"urn:GEINV:E0501:3.1\">\n      \($0)\n    </InvoiceAssignNo>" }.joined(separator: "\n"))
          </InvoicePack>
        </InvoiceEnvelope>
        """
    }

    @Test func anEnvelopeOfTwoRangesReadsInTheFilesOrder() throws {
        let file = Self.envelope([Self.assignNo(), Self.assignNo(track: "AC", begin: "00000050", end: "00000099", booklets: "1")])
        let ranges = try TrackAllocation.read(e0501: file)
        #expect(ranges.map(\.range.description) == [try TrackRange(parsing: "11512 AB 12345000-12345249").description,
                                                    try TrackRange(parsing: "11512 AC 00000050-00000099").description])
        #expect(ranges.allSatisfy { $0.businessNumber == "12345675" })
    }

    @Test func aSingleDocumentWithPrefixesABomAndAnOddMonthReads() throws {
        let file = "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- 配號 -->\n<e:InvoiceAssignNo xmlns:e=\"urn:GEINV:E0501:4.0\">\n"
            + Self.assignNo("e", yearMonth: "11511", booklets: nil) + "\n</e:InvoiceAssignNo>\n"
        let ranges = try TrackAllocation.read(e0501: file)
        #expect(ranges.count == 1)
        #expect(ranges.first?.range == (try TrackRange(parsing: "11512 AB 12345000-12345249")))
        // Text with character references and CDATA reads as its characters.
        let spelled = "<InvoiceAssignNo>" + Self.assignNo(track: "&#65;<![CDATA[B]]>") + "</InvoiceAssignNo>"
        #expect(try TrackAllocation.read(e0501: spelled).first?.range.track == (try InvoiceTrack("AB")))
    }

    @Test(arguments: [
        (assignNo(type: "08"), "range 2 of 2", "InvoiceType is 08"),
        (assignNo(booklets: "4"), "range 2 of 2", "InvoiceBooklet says 4 books, but 12345000-12345249 holds 5 books"),
        (assignNo(end: "12345248"), "range 2 of 2", "must be whole books of 50"),
        (assignNo(begin: "1234500"), "range 2 of 2", "InvoiceBeginNo \"1234500\" is not 8 digits"),
        (assignNo(track: "A1"), "range 2 of 2", "InvoiceTrack: track \"A1\" must be 2 capital letters"),
        (assignNo(yearMonth: "11513"), "range 2 of 2", "YearMonth \"11513\" is not the ROC year and a month"),
        (assignNo(ban: "1234567"), "range 2 of 2", "Ban \"1234567\" is not a 統一編號 of 8 digits"),
        (assignNo(track: "AC", begin: "00000000", end: "00000049", booklets: "1").replacingOccurrences(of: "<Ban>12345675</Ban>", with: ""),
         "range 2 of 2", "Ban is missing or empty"),
        (assignNo(begin: "12345200", end: "12345299", booklets: "2"), "range 2 of 2", "overlaps 11512 AB 12345000-12345249 earlier in the same file"),
    ])
    func aWrongRangeRefusesTheWholeFileAndSaysWhereAndWhat(second: String, place: String, problem: String) throws {
        let file = Self.envelope([Self.assignNo(), second])
        #expect {
            try TrackAllocation.read(e0501: file)
        } throws: { error in
            let text = "\(error)"
            return text.contains("the E0501 file, \(place)") && text.contains(problem) && text.contains("nothing was imported")
        }
    }

    @Test(arguments: [
        ("<!DOCTYPE x [<!ENTITY a \"AB\">]><InvoiceAssignNo/>", "line 1: a document type declaration"),
        ("<InvoiceAssignNo><Ban>12345675</Ban>\n<InvoiceType>07</InvoiceType>\n", "line 3: <InvoiceAssignNo> (line 1) is never closed"),
        ("<a><b></a></b>", "line 1: </a> closes <b>"),
        ("<a>&bogus;</a>", "unknown entity &bogus;"),
        ("<a></a><b></b>", "text after the root element's end"),
        ("", "no root element"),
        ("<Nothing><Here>1</Here></Nothing>", "<Nothing>: no range in it"),
        (String(repeating: "<a>", count: 100_000), "line 1: elements nested more than 32 deep"),
    ])
    func aFileThatIsNotWellFormedIsNamedByLine(file: String, expected: String) {
        #expect {
            try TrackAllocation.read(e0501: file)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }
}
