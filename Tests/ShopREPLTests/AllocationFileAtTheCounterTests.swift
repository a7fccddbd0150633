@testable import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
@testable import ShopREPL
import Testing

/// `einvoice track FILE.xml`: the platform's E0501 配號 file imported at the counter, all its ranges or none, only the
/// shop's own, and a second import of the same file changing nothing.
@Suite(.timeLimit(.minutes(3))) struct AllocationFileAtTheCounterTests {
    static func file(_ ranges: [(ban: String, track: String, begin: String, end: String, books: Int)]) throws -> String {
        let items = ranges.map { range in
            """
                <InvoiceAssignNo xmlns="urn:GEINV:E0501:3.1">
                  <Ban>\(range.ban)</Ban><InvoiceType>07</InvoiceType><YearMonth>11512</YearMonth>
                  <InvoiceTrack>\(range.track)</InvoiceTrack><InvoiceBeginNo>\(range.begin)</InvoiceBeginNo>
                  <InvoiceEndNo>\(range.end)</InvoiceEndNo><InvoiceBooklet>\(range.books)</InvoiceBooklet>
                </InvoiceAssignNo>
            """
        }
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<InvoiceEnvelope xmlns=\"urn:GEINV:InvoiceEnvelope:3.1\">\n"
            + "  <InvoicePack count=\"\(ranges.count)\" messageType=\"E0501\" version=\"3.1\">\n" + items.joined(separator: "\n")
            + "\n  </InvoicePack>\n</InvoiceEnvelope>\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("E0501-\(UUID().uuidString).xml").path
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func seller(_ counter: Counter) async throws {
        #expect(await counter.run("einvoice seller 12345675 可不可熟成紅茶台北店 --address 台北市信義區松仁路1號 "
            + "--qr-key 0123456789ABCDEF0123456789ABCDEF") == [.succeeded], "\(counter.output.errors)")
    }

    private func ranges(_ counter: Counter) async throws -> [String] {
        try await counter.interpreter.shop.counter.invoiceTracks(by: Acting("Mia", role: .manager)).ranges.map(\.range.description)
    }

    @Test func theShopsOwnFileIsImportedOnceAndItsNumbersIssue() async throws {
        let counter = try await Counter()
        try await seller(counter)
        let path = try Self.file([("12345675", "AB", "12345000", "12345099", 2), ("12345675", "AC", "00000050", "00000099", 1)])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(await counter.run("einvoice track \(path)") == [.succeeded], "\(counter.output.errors)")
        #expect(counter.output.text.contains("Imported 11512 AB 12345000-12345099: 2 books of 50, 100 numbers"))
        #expect(counter.output.text.contains("2 ranges imported, 0 already in"))
        #expect(try await ranges(counter) == ["11512 AB 12345000-12345099", "11512 AC 00000050-00000099"])
        // The same file again changes nothing, and says so.
        #expect(await counter.run("einvoice track \(path)") == [.succeeded])
        #expect(counter.output.text.contains("0 ranges imported, 2 already in"))
        #expect(try await ranges(counter).count == 2)
        // Audited, with the file's name.
        let log = try await counter.interpreter.shop.audit.entries(fromDay: "2026-11-29", throughDay: "2026-11-29")
        let imports = log.filter { $0.detail.contains("from E0501 file") }
        #expect(imports.count == 2)
        #expect(imports.allSatisfy { $0.detail.hasSuffix((path as NSString).lastPathComponent) })
        // And the numbers issue.
        #expect(await counter.run("order 熟成紅茶 M 無糖 去冰", "pay #1 card") == [.succeeded, .succeeded])
        #expect(counter.output.text.contains("AB-12345000"), "\(counter.output.text.suffix(600))")
    }

    @Test func anotherShopsFileOrAnOverlapImportsNothing() async throws {
        let counter = try await Counter()
        // No seller yet: the file cannot be checked against the shop.
        let own = try Self.file([("12345675", "AB", "12345000", "12345049", 1), ("12345675", "AC", "00000000", "00000049", 1)])
        defer { try? FileManager.default.removeItem(atPath: own) }
        #expect(await counter.run("einvoice track \(own)") == [.failed])
        #expect(try await ranges(counter).isEmpty)
        try await seller(counter)
        // One range of the file given to another 統一編號: nothing of the file is imported.
        let mixed = try Self.file([("12345675", "AB", "12345000", "12345049", 1), ("04595257", "AC", "00000000", "00000049", 1)])
        defer { try? FileManager.default.removeItem(atPath: mixed) }
        #expect(await counter.run("einvoice track \(mixed)") == [.failed])
        #expect(counter.output.errors.contains("gives 11512 AC 00000000-00000049 to 統一編號 04595257, not to this shop's 12345675"))
        #expect(try await ranges(counter).isEmpty)
        // A range typed before that one of the file's overlaps: nothing of the file is imported.
        #expect(await counter.run("einvoice track 11512 AC 00000000-00000099") == [.succeeded])
        #expect(await counter.run("einvoice track \(own)") == [.failed])
        #expect(counter.output.errors.contains("overlaps 11512 AC 00000000-00000099"))
        #expect(try await ranges(counter) == ["11512 AC 00000000-00000099"])
        // A file that is not there, and one that is not an E0501 file, are named.
        #expect(await counter.run("einvoice track /nonexistent/E0501.xml") == [.failed])
        #expect(counter.output.errors.contains("the E0501 file, /nonexistent/E0501.xml: there is no such file"))
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("E0501-\(UUID().uuidString).xml").path
        try "<InvoiceEnvelope>\n<InvoicePack>\n".write(toFile: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: broken) }
        #expect(await counter.run("einvoice track \(broken)") == [.failed])
        #expect(counter.output.errors.contains("is never closed"))
        // A file far past an E0501 file's size is not read.
        let huge = FileManager.default.temporaryDirectory.appendingPathComponent("E0501-\(UUID().uuidString).xml").path
        try Data(count: 2 << 20).write(to: URL(fileURLWithPath: huge))
        defer { try? FileManager.default.removeItem(atPath: huge) }
        #expect(await counter.run("einvoice track \(huge)") == [.failed])
        #expect(counter.output.errors.contains("it is 2048 KB; an E0501 file is a few KB"))
        #expect(try await ranges(counter) == ["11512 AC 00000000-00000099"])
    }
}
