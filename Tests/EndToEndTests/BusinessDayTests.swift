import Foundation
import Glibc
import Testing

/// A second business day through the real binary, its clock moved with `faketime` (installed by .ci/run).
@Suite struct BusinessDayEndToEndTests {
    static let faketime = "/usr/bin/faketime"

    /// Runs drinkshop as if it were `moment` (local time in Asia/Taipei, the test environment's TZ).
    static func at(_ moment: String, _ folder: CounterFolder, _ words: [String], input: String? = nil,
                   extra: [String: String] = [:]) async -> Drinkshop.Result {
        _ = staleFaketimeFilesRemoved
        return await runDrinkshop([moment, Drinkshop.binary, "--db", folder.database] + words, input: input.map { Data($0.utf8) },
                                  environment: folder.environment(extra), executable: faketime)
    }

    /// The `faketime` wrapper makes a semaphore and a shared-memory file named by its process id
    /// (`/dev/shm/sem.faketime_sem_<pid>`, `faketime_shm_<pid>`); a wrapper killed with -9 leaves them behind, and
    /// with process ids reused (pid_max 32768) a later wrapper given that id fails at start ("sem_open: File
    /// exists"), which failed these suites in two CI runs on a machine with 41 such files. Removed once per test
    /// process, for ids no process has now.
    static let staleFaketimeFilesRemoved: Int = {
        let folder = "/dev/shm"
        var removed = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let id = ["sem.faketime_sem_", "faketime_shm_"].lazy.compactMap({ name.hasPrefix($0) ? Int32(name.dropFirst($0.count)) : nil }).first,
                  kill(id, 0) != 0, errno == ESRCH
            else { continue }
            if (try? FileManager.default.removeItem(atPath: folder + "/" + name)) != nil { removed += 1 }
        }
        return removed
    }()

    @Test func yesterdaysOpenOrdersStayVisibleAndFinishableAndNumbersRestartAtTheDaysStart() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.faketime), "faketime is needed (apt-get install faketime)")
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let evening = await Self.at("2026-11-30 23:30:00", folder, ["--create"], input: """
            order 熟成紅茶 M 無糖 少冰 for Amy
            order 熟成紅茶 M 無糖 少冰 for Ben
            order 熟成紅茶 M 無糖 少冰 for Cat
            advance #2
            advance #3
            advance #3
            advance #3 --unpaid

            """, extra: ["DRINKSHOP_DAY_STARTS": "05:00"])
        #expect(evening.status == 0, "\(evening.stderr)")
        #expect(evening.stdout.contains("取餐號 #3"))

        // 02:00: still the 30th's business day (the store says the day starts at 05:00), so #4.
        let night = await Self.at("2026-12-01 02:00:00", folder, ["order", "熟成紅茶", "M", "無糖", "少冰", "for", "Dan"])
        #expect(night.stdout.contains("取餐號 #4"), "\(night.stderr)")

        let morning = await Self.at("2026-12-01 09:00:00", folder, [], input: """
            order 熟成紅茶 M 無糖 少冰 for Eve
            orders
            advance #2
            void #3 dropped the cup
            delete #3@2026-11-30 --yes
            void #3@2026-11-30 dropped the cup
            cancel #1@2026-11-30 never came
            log
            report --date 2026-11-30

            """)
        #expect(morning.status == 1, "the refused commands fail the piped session")
        let out = morning.stdout
        #expect(out.contains("取餐號 #1"), "numbers restart with the business day")
        // The open orders of the 30th are listed with their day.
        #expect(out.contains("2@2026-11-30") && out.contains("1@2026-11-30") && out.contains("4@2026-11-30"))
        #expect(!out.contains("3@2026-11-30  已取餐"), "a picked-up order of an earlier day is not open")
        #expect(out.contains("order #2 for Ben is ready"))
        #expect(morning.stderr.contains("there is no order #3 today, nor an open one from an earlier day"))
        #expect(morning.stderr.contains("only placed orders can be deleted") && morning.stderr.contains("void #3@2026-11-30"))
        #expect(out.contains("#3@2026-11-30 voided by Ken ($35, not revenue): dropped the cup"))
        #expect(out.contains("#1@2026-11-30 cancelled: never came"))
        #expect(out.contains("Ken") && out.contains("void") && out.contains("#3@2026-11-30"))
        // The 30th's report: Ben and Dan sold; Amy cancelled; Cat voided, with who and why.
        #expect(out.contains("Daily report 2026-11-30"))
        #expect(out.contains("Orders 2 · cups 2 · sales $70 · discounts -$0 · revenue $70"))
        #expect(out.contains("Cancelled 1 order ($35) · voided 1 ($35); neither is revenue"))
        #expect(out.contains("dropped the cup") && out.contains("never came"))

        let listed = await Self.at("2026-12-01 09:05:00", folder, ["orders", "all", "--date", "2026-11-30"])
        #expect(listed.stdout.contains("2 orders, 2 cups, $70; cancelled or voided (not revenue): 2 orders, 2 cups, $70"),
                "\(listed.stdout)")
        let repeated = await Self.at("2026-12-01 09:05:00", folder, ["orders", "--date", "2026-11-30", "--date", "2026-11-29"])
        #expect(repeated.status == 1 && repeated.stderr.contains("--date is given twice"))
    }

    @Test func aCounterOnAnotherTimeZoneCountsTheStoresDay() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.faketime), "faketime is needed (apt-get install faketime)")
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        // The first counter (Taipei) fixes the shop's zone; a counter set to UTC then agrees on the day.
        let first = await Self.at("2026-12-01 07:00:00", folder, ["--create", "order", "熟成紅茶", "M", "無糖", "少冰"])
        #expect(first.stdout.contains("取餐號 #1"), "\(first.stderr)")
        // 2026-11-30 23:30 UTC is 07:30 on the 1st in Taipei: the same business day, so #2.
        _ = Self.staleFaketimeFilesRemoved
        let utc = await runDrinkshop(["2026-11-30 23:30:00", Drinkshop.binary, "--db", folder.database,
                                      "order", "熟成紅茶", "M", "無糖", "少冰"],
                                     environment: folder.environment(["TZ": "UTC"]), executable: Self.faketime)
        #expect(utc.stdout.contains("取餐號 #2"), "\(utc.stdout)\(utc.stderr)")
    }
}
