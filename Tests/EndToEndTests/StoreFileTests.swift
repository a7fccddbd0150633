import Foundation
import Glibc
import Testing
@testable import DrinkShopCLI

/// The store file through the real binary: made only where asked, damaged files never written,
/// check and recover, read-only files still readable, seeds compiled in.
@Suite(.clearOfShopMidnight) struct StoreFileTests {
    private func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func aMistypedFolderIsNotCreatedAndAnEmptyFileDoesNotBecomeAStore() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let typo = folder.directory + "/shpo/shop.sqlite"
        let missing = await runDrinkshop(["--db", typo, "orders"], environment: folder.environment())
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("there is no store at \(typo)") && missing.stderr.contains("drinkshop init --db"))
        #expect(!FileManager.default.fileExists(atPath: folder.directory + "/shpo"))

        let empty = folder.directory + "/empty.sqlite"
        try #require(FileManager.default.createFile(atPath: empty, contents: Data()))
        let refused = await runDrinkshop(["--db", empty, "order", "熟成紅茶", "M", "無糖", "少冰"], environment: folder.environment())
        #expect(refused.status == 1 && refused.stderr.contains("is an empty file, not a store"))
        #expect(contents(empty) == Data())

        let made = await runDrinkshop(["init", "--db", empty], environment: folder.environment())
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("New store at \(empty)"))
        let placed = await runDrinkshop(["--db", empty, "order", "熟成紅茶", "M", "無糖", "少冰"], environment: folder.environment())
        #expect(placed.stdout.contains("取餐號 #1"))
    }

    @Test func aDamagedStoreIsNeverWrittenAndRecoversIntoANewFile() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let environment = folder.environment()
        let orders = (0..<300).map { "order 熟成紅茶 M 無糖 少冰 for Guest\($0) note \"a note long enough to fill pages \($0)\"" }
        let placed = await runDrinkshop(["--db", folder.database, "--create"], input: Data((orders.joined(separator: "\n") + "\n").utf8),
                                        environment: environment)
        #expect(placed.status == 0)
        // The run noted the state it left the file in as checked, so the next start need not read every
        // page; a change from outside (below) is a new state, checked again.
        #expect(FileManager.default.fileExists(atPath: folder.database + ".checked"))
        // A command that changes nothing leaves the note as it is (not written again, with its fsync).
        let note = { () throws -> Int? in
            try FileManager.default.attributesOfItem(atPath: folder.database + ".checked")[.systemFileNumber] as? Int
        }
        let noted = try #require(try note())
        let shown = await runDrinkshop(["--db", folder.database, "orders"], environment: environment)
        #expect(shown.status == 0)
        #expect(try note() == noted)
        // Damage one page three quarters into the file, where the 300 orders' pages are (the process has
        // ended, so the WAL is checkpointed).
        let handle = try #require(FileHandle(forUpdatingAtPath: folder.database))
        let size = try handle.seekToEnd()
        try #require(size > 60 * 4096)
        try handle.seek(toOffset: size / 4096 * 3 / 4 * 4096 + 100)
        try handle.write(contentsOf: Data(repeating: 0xDE, count: 2000))
        try handle.close()
        let damaged = try #require(contents(folder.database))

        let order = await runDrinkshop(["--db", folder.database, "order", "熟成紅茶", "M", "無糖", "少冰"], environment: environment)
        #expect(order.status == 1)
        #expect(order.stderr.contains("is damaged") && order.stderr.contains("drinkshop recover"))
        #expect(!order.stdout.contains("取餐號"))
        #expect(!order.stderr.contains("SELECT") && !order.stderr.contains("INSERT"))
        #expect(contents(folder.database) == damaged)

        let check = await runDrinkshop(["--db", folder.database, "check"], environment: environment)
        #expect(check.status == 1 && check.stdout.contains("is damaged"), "\(check.stdout) // \(check.stderr)")

        let copy = folder.directory + "/recovered.sqlite"
        let recover = await runDrinkshop(["--db", folder.database, "recover", "--into", copy], environment: environment)
        #expect(recover.status == 0, "\(recover.stderr)")
        #expect(contents(folder.database) == damaged)
        let checkCopy = await runDrinkshop(["--db", copy, "check"], environment: environment)
        #expect(checkCopy.status == 0 && checkCopy.stdout.contains("is sound"))
        let listed = await runDrinkshop(["--db", copy, "orders", "--json"], environment: environment)
        let count = listed.stdout.components(separatedBy: "\"orderName\"").count - 1
        // A page holds a handful of orders: nearly all of them survive, and the report says how many did not.
        #expect(count > 250 && count <= 300)
        #expect(count == 300 || recover.stdout.contains("could not be read"))
    }

    /// One order's cell damaged on disk (its page still sound): recover copies every record, that order
    /// with the damaged cell left empty, and names the cell (table, record, field) instead of failing.
    @Test func recoverKeepsEveryRecordOfAStoreWithADamagedCell() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let environment = folder.environment()
        let orders = ["Amy", "ZZDAMAGEDZZ", "Bo"].map { "order 熟成紅茶 M 無糖 少冰 for \($0)" }
        let placed = await runDrinkshop(["--db", folder.database, "--create"], input: Data((orders.joined(separator: "\n") + "\n").utf8),
                                        environment: environment)
        #expect(placed.status == 0)
        var bytes = try #require(contents(folder.database))
        let found = try #require(bytes.range(of: Data("ZZDAMAGEDZZ\"".utf8)))
        #expect(bytes[found.upperBound...].range(of: Data("ZZDAMAGEDZZ".utf8)) == nil, "one cell holds the name")
        bytes[found.upperBound - 1] = 0x01  // the text no longer ends: the cell is not JSON any more
        try bytes.write(to: URL(fileURLWithPath: folder.database))

        let copy = folder.directory + "/recovered.sqlite"
        let recover = await runDrinkshop(["--db", folder.database, "recover", "--into", copy], environment: environment)
        #expect(recover.status == 0, "\(recover.stdout) // \(recover.stderr)")
        #expect(recover.stdout.contains("1 cell(s) were damaged"), "\(recover.stdout)")
        let named = recover.stdout.split(separator: "\n").first { $0.contains("OrderDrink") }
        #expect(named.map { $0.contains("  rec") && $0.hasSuffix("  orderName") } == true, "\(recover.stdout)")
        #expect(contents(folder.database) == bytes)
        let checkCopy = await runDrinkshop(["--db", copy, "check"], environment: environment)
        #expect(checkCopy.status == 0 && checkCopy.stdout.contains("is sound"))
        let listed = await runDrinkshop(["--db", copy, "orders", "--json"], environment: environment)
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("\"Amy\"") && listed.stdout.contains("\"Bo\""))
        #expect(listed.stdout.components(separatedBy: "\"pickupNumber\"").count - 1 == 3, "\(listed.stdout)")
    }

    @Test func aReadOnlyStoreShowsTheMenuAndOrdersAndRefusesChangesClearly() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let placed = await runDrinkshop(["--db", folder.database, "--create", "order", "熟成紅茶", "M", "無糖", "少冰", "for", "Amy"],
                                        environment: folder.environment())
        #expect(placed.status == 0)
        // Only the file's owner's permissions are lifted; root ignores them, so the binary runs as nobody.
        let asRoot = getuid() == 0
        let attributes: [FileAttributeKey: Any] = [.posixPermissions: 0o755]
        try FileManager.default.setAttributes(attributes, ofItemAtPath: folder.directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder.database)
        if !asRoot { try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.directory) }
        defer { try? FileManager.default.setAttributes(attributes, ofItemAtPath: folder.directory) }
        func run(_ words: [String]) async -> Drinkshop.Result {
            let arguments = ["--db", folder.database] + words
            guard asRoot else { return await runDrinkshop(arguments, environment: folder.environment()) }
            return await runDrinkshop(["--reuid=65534", "--regid=65534", "--clear-groups", Drinkshop.binary] + arguments,
                                      environment: folder.environment(["HOME": "/tmp", "XDG_STATE_HOME": "/tmp/none"]),
                                      executable: "/usr/bin/setpriv")
        }
        let menu = await run(["menu"])
        #expect(menu.status == 0, "\(menu.stderr)")
        #expect(menu.stdout.contains("熟成紅茶"))
        let orders = await run(["orders"])
        #expect(orders.stdout.contains("Amy"))
        let order = await run(["order", "熟成紅茶", "M", "無糖", "少冰"])
        #expect(order.status == 1)
        #expect(order.stderr.contains("read-only") && !order.stderr.contains("PRAGMA"))
    }

    @Test func theBuiltInMenuSeedsAStoreWhereverTheBinaryIs() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let elsewhere = folder.directory + "/bin/drinkshop"
        try FileManager.default.createDirectory(atPath: folder.directory + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Drinkshop.binary, toPath: elsewhere)
        var environment = folder.environment()
        environment["DRINKSHOP_SEEDS"] = nil
        // A copy just written may not be started while another thread of this test process forks (the child
        // inherits the copy's open write handle for a moment: "Text file busy"); that is the test's race,
        // not the shop's, so the start is tried again.
        var menu = await runDrinkshop(["menu"], environment: environment, executable: elsewhere)
        for _ in 0..<40 where menu.status == -1 && menu.stderr.contains("Text file busy") {
            try await Task.sleep(for: .milliseconds(50))
            menu = await runDrinkshop(["menu"], environment: environment, executable: elsewhere)
        }
        #expect(menu.status == 0, "\(menu.stderr)")
        #expect(menu.stderr.contains("seeded from the menu built into drinkshop: 28 drinks, 4 promotions"))
        #expect(menu.stdout.contains("白玉歐蕾"))

        var wrong = folder.environment()
        wrong["DRINKSHOP_SEEDS"] = folder.directory + "/nothing-here"
        let refused = await runDrinkshop(["--db", folder.directory + "/other.sqlite", "--create", "menu"], environment: wrong)
        #expect(refused.status == 1 && refused.stderr.contains("has no menu.json"))
        #expect(!FileManager.default.fileExists(atPath: folder.directory + "/other.sqlite"))
    }

    @Test func helpSaysWhereSeedsComeFromAndHowToMakeCheckAndRecoverAStore() async {
        let help = await runDrinkshop(["--help"], environment: CounterFolder().environment())
        #expect(help.status == 0)
        for words in ["DRINKSHOP_SEEDS", "built into drinkshop", "drinkshop init --db PATH", "drinkshop check",
                      "recover", "--create"] {
            #expect(help.stdout.contains(words), "\(words)")
        }
    }

    @Test func theCompiledInSeedsAreTheSeedFilesByteForByte() throws {
        let menu = try #require(FileManager.default.contents(atPath: Drinkshop.seeds + "/menu.json"))
        let promotions = try #require(FileManager.default.contents(atPath: Drinkshop.seeds + "/promotions.json"))
        #expect(Data(BundledSeeds.menu.utf8) == menu, "run scripts/generate-bundled-seeds after editing Seeds/menu.json")
        #expect(Data(BundledSeeds.promotions.utf8) == promotions,
                "run scripts/generate-bundled-seeds after editing Seeds/promotions.json")
    }
}
