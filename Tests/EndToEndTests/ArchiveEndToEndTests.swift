import Foundation
import Testing

/// Archiving a closed day with the real binary (an embedded store; the clock moved with `faketime`).
@Suite(.clearOfShopMidnight) struct ArchiveEndToEndTests {
    static func at(_ moment: String, _ folder: CounterFolder, _ words: [String], input: String? = nil) async -> Drinkshop.Result {
        await BusinessDayEndToEndTests.at(moment, folder, words, input: input)
    }

    @Test func closeArchivesYesterdayAndItsReportsReadTheArchive() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: BusinessDayEndToEndTests.faketime),
                     "faketime is needed (apt-get install faketime)")
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let day = await Self.at("2026-11-30 12:00:00", folder, ["--create"], input: """
            shift open 1000
            order 熟成紅茶 M 無糖 少冰 for Amy
            order 白玉歐蕾 L 半糖 少冰 x2 for Ben
            order 熟成紅茶 M 無糖 少冰 for Cat
            pay #1 cash 100
            advance #1
            advance #1
            advance #1
            cancel #2 changed mind
            close 1035

            """)
        #expect(day.status == 0, "\(day.stderr)")
        let archive = folder.directory + "/shop.archive.sqlite"
        let reportBefore = await Self.at("2026-12-01 09:00:00", folder, ["report", "2026-11-30"])
        let ordersBefore = await Self.at("2026-12-01 09:00:00", folder, ["orders", "all", "--date", "2026-11-30"])
        #expect(ordersBefore.stdout.contains("Amy") && reportBefore.stdout.contains("exact"), "\(ordersBefore.stdout)")

        // The embedded store keeps everything unless asked: a plain close makes no archive.
        let plain = await Self.at("2026-12-01 21:00:00", folder, [], input: "shift open 500\nclose 500\n")
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: archive))

        let closing = await Self.at("2026-12-01 22:00:00", folder, [], input: "shift open 500\nclose 500 --archive\norders\n")
        #expect(closing.status == 0, "\(closing.stderr)")
        #expect(closing.stdout.contains("2026-11-30: "), "\(closing.stdout)")
        #expect(closing.stdout.contains("1 left in the base"), "order #3 is still open: \(closing.stdout)")
        #expect(closing.stdout.contains("3@2026-11-30"), "the open order stays on the list: \(closing.stdout)")
        #expect(FileManager.default.fileExists(atPath: archive))

        // The day's reports read the archive; they say what they said (the later shifts were on the 1st).
        let reportAfter = await Self.at("2026-12-01 22:05:00", folder, ["report", "2026-11-30"])
        let ordersAfter = await Self.at("2026-12-01 22:05:00", folder, ["orders", "all", "--date", "2026-11-30"])
        #expect(reportAfter.stdout == reportBefore.stdout)
        #expect(ordersAfter.stdout == ordersBefore.stdout)
        let status = await Self.at("2026-12-01 22:05:00", folder, ["archive"])
        #expect(status.stdout.contains("1 day (2026-11-30"), "\(status.stdout)")
        // Today's numbers go on from the day's own tickets; the archived day's are gone from the store.
        let next = await Self.at("2026-12-01 22:10:00", folder, ["order", "熟成紅茶", "M", "無糖", "少冰"])
        #expect(next.stdout.contains("取餐號 #1"), "\(next.stdout)\(next.stderr)")
    }
}
