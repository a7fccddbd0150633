import Foundation
import Testing
import TestSupport

/// Backups through the real binary: a close at the counter backs the store up, `backups` lists what each
/// holds, `restore` writes only a new store, and the restored shop never gives a pickup number twice.
@Suite(.clearOfShopMidnight) struct BackupEndToEndTests {
    @Test func aCloseBacksUpAndARestoreGoesOnWithoutRepeatingANumber() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let environment = folder.environment()
        let day = await runDrinkshop(["--db", folder.database, "--create"], input: Data("""
            shift open 1000
            order 熟成紅茶 M 無糖 少冰 for Amy
            pay #1 cash
            close 1035

            """.utf8), environment: environment)
        #expect(day.status == 0, "\(day.stderr)")
        #expect(day.stdout.contains("Backed up"), "\(day.stdout)")
        let listed = await runDrinkshop(["--db", folder.database, "backups"], environment: environment)
        #expect(listed.stdout.contains("1 backup(s)") && listed.stdout.contains("last order #1")
                && listed.stdout.contains("counted 1035") && listed.stdout.contains("books balance"), "\(listed.stdout)")
        let name = try #require(listed.stdout.split(separator: " ").first { $0.hasPrefix("drinkshop-") }.map(String.init))

        // Two more orders after the backup: lost with the machine.
        for _ in 0..<2 {
            _ = await runDrinkshop(["--db", folder.database, "order", "熟成紅茶", "M", "無糖", "少冰"], environment: environment)
        }
        let over = await runDrinkshop(["--db", folder.database, "restore", name], environment: environment)
        #expect(over.status == 1 && over.stderr.contains("already holds a store"), "\(over.stderr)")

        let restored = folder.directory + "/restored.sqlite"
        let restore = await runDrinkshop(["--db", restored, "restore", name, "--skip", "20"], environment: environment)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.contains("#2-#21 skipped"), "\(restore.stdout)")
        let next = await runDrinkshop(["--db", restored, "order", "熟成紅茶", "M", "無糖", "少冰"], environment: environment)
        #expect(next.stdout.contains("取餐號 #22"), "\(next.stdout)")
        let log = await runDrinkshop(["--db", restored, "log"], environment: environment.merging(["COLUMNS": "200"]) { $1 })
        #expect(log.stdout.contains("restored from the backup"), "\(log.stdout)")
        let books = await runDrinkshop(["--db", restored, "check", "--books"], environment: environment)
        #expect(books.status == 0, "\(books.stdout) \(books.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: restored)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func aBackupFolderThatIsAFileOrFullIsRefusedAndNothingIsListedHalf() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let environment = folder.environment()
        _ = await runDrinkshop(["--db", folder.database, "--create", "order", "熟成紅茶", "M", "無糖", "少冰"], environment: environment)
        let file = folder.directory + "/not-a-folder"
        FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        let refused = await runDrinkshop(["--db", folder.database, "backup", "--to", file], environment: environment)
        #expect(refused.status == 1 && refused.stderr.contains("is a file, not a folder"), "\(refused.stderr)")
        // A partial folder a killed backup left is never listed, and the next backup clears it.
        let backups = folder.directory + "/b"
        try FileManager.default.createDirectory(atPath: backups + "/.partial-drinkshop-20261206-000000-1",
                                                withIntermediateDirectories: true)
        let empty = await runDrinkshop(["--db", folder.database, "backups", "--to", backups], environment: environment)
        #expect(empty.stdout.contains("No backups"), "\(empty.stdout)")
        let taken = await runDrinkshop(["--db", folder.database, "backup", "--to", backups], environment: environment)
        #expect(taken.status == 0, "\(taken.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: backups)
        #expect(names.count == 1 && names[0].hasPrefix("drinkshop-"), "\(names)")
    }
}
