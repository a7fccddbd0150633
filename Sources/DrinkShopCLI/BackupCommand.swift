import Airtable
import DrinkShop
import DrinkShopCore
import Foundation
import Glibc
import LocalBase

/// `drinkshop backup`, `drinkshop backups` and `drinkshop restore`: the shell's commands on the shop's backups
/// (`Backups`). An embedded store only: a real Airtable base keeps its own history.
enum BackupCommand: String {
    case backup, backups, restore

    struct Options {
        var folder: String?
        var copyTo: String?
        var keep: BackupRotation?
        var skip = 100
        var target: String?
    }

    func run(path: String, words: [String], environment: [String: String]) async -> Int32 {
        do {
            let options = try parse(words)
            let timeZone = environment["DRINKSHOP_TIME_ZONE"].flatMap(TimeZone.init(identifier:)) ?? .current
            let rotation = try options.keep ?? environment["DRINKSHOP_BACKUP_KEEP"].map { text throws in
                try BackupRotation(parsing: text)
            } ?? .standard
            let backups = Backups(folder: Backups.folder(option: options.folder, storePath: path, environment: environment),
                                  rotation: rotation, timeZone: timeZone)
            switch self {
            case .backup:
                let copyTo = options.copyTo ?? environment["DRINKSHOP_BACKUP_COPY"]
                return await Self.takeAndReport(backups, copyTo: copyTo, storePath: path, environment: environment,
                                                say: { Console.say($0) }, complain: { Console.complain($0) })
            case .backups:
                return list(backups)
            case .restore:
                guard let target = options.target else {
                    throw UsageError("restore needs the backup to restore: drinkshop restore BACKUP [--db NEW.sqlite]")
                }
                return try await restore(target, from: backups, into: path, skip: options.skip, environment: environment)
            }
        } catch {
            Console.complain("drinkshop: \(error)")
            return error is UsageError || error is BackupRotationProblem ? 2 : 1
        }
    }

    private func parse(_ words: [String]) throws -> Options {
        var options = Options()
        var index = 0
        func value(_ name: String) throws -> String {
            guard index + 1 < words.count else { throw UsageError("\(name) needs a value: \(usage)") }
            index += 1
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            switch word {
            case "--to": options.folder = try value(word)
            case "--copy-to" where self == .backup: options.copyTo = try value(word)
            case "--keep" where self == .backup: options.keep = try BackupRotation(parsing: try value(word))
            case "--skip" where self == .restore:
                guard let count = Int(try value(word)), count >= 0, count <= 10_000 else {
                    throw UsageError("--skip takes how many pickup numbers to skip (0 to 10000): \(usage)")
                }
                options.skip = count
            default:
                guard self == .restore, !word.hasPrefix("-"), options.target == nil else {
                    throw UsageError("\(rawValue) does not take \"\(word.prefix(40))\": \(usage)")
                }
                options.target = word
            }
            index += 1
        }
        return options
    }

    private var usage: String {
        switch self {
        case .backup: "drinkshop backup [--db PATH] [--to DIR] [--copy-to DIR] [--keep hourly=24,daily=31,monthly=12]"
        case .backups: "drinkshop backups [--db PATH] [--to DIR]"
        case .restore: "drinkshop restore BACKUP [--db NEW.sqlite] [--to DIR] [--skip 100]"
        }
    }

    /// Takes a backup, copies it to the second place when one is named, and says what it holds. Used by the
    /// command, after a close at a counter and by `serve`'s schedule. Returns the exit status.
    static func takeAndReport(_ backups: Backups, copyTo: String?, storePath: String, environment: [String: String],
                              say: (String) -> Void, complain: (String) -> Void) async -> Int32 {
        let archive = ArchiveLocation.forEmbedded(storePath: storePath, environment: environment)
        let made: Backups.Made
        do {
            made = try await backups.take(storePath: storePath, archivePath: archive, now: Date(), environment: environment)
        } catch {
            complain("drinkshop: backup failed: \(error)")
            return 1
        }
        say("Backed up \(storePath) to \(made.entry.path) (\(describe(made.entry)))"
            + (made.removed.isEmpty ? "." : "; \(made.removed.count) older backup(s) removed by the rotation \(backups.rotation)."))
        guard let copyTo, !copyTo.isEmpty else { return 0 }
        // The second place: the same backup, taken from the first copy (never the live store again).
        let second = Backups(folder: copyTo, rotation: backups.rotation, timeZone: backups.timeZone)
        do {
            let copy = try await second.take(storePath: (made.entry.path as NSString).appendingPathComponent("store.sqlite"),
                                             archivePath: (made.entry.path as NSString).appendingPathComponent("archive.sqlite"),
                                             now: made.entry.takenAt, environment: environment)
            say("Copied it to \(copy.entry.path).")
            return 0
        } catch {
            complain("drinkshop: the backup is in \(made.entry.path), but copying it to \(copyTo) failed: \(error)")
            return 1
        }
    }

    /// "last order #47 of 2026-12-06, last close 2026-12-05 21:04 by Amy (counted 3920), books balance on 2026-12-06".
    static func describe(_ entry: Backups.Entry) -> String {
        var parts: [String] = []
        if let order = entry.manifest["lastOrder"] {
            parts.append("last order #\(order["number"]?.intValue ?? 0) of \(order["day"]?.stringValue ?? "?")")
        } else {
            parts.append("no orders")
        }
        if let close = entry.manifest["lastClose"] {
            let counted = close["counted"]?.intValue.map { " (counted \($0))" } ?? ""
            parts.append("last close \(close["at"]?.stringValue ?? "?") by \(close["by"]?.stringValue ?? "?")\(counted)")
        }
        if let books = entry.manifest["books"]?.stringValue { parts.append("books \(books)") }
        return parts.joined(separator: ", ")
    }

    private func list(_ backups: Backups) -> Int32 {
        let entries = backups.list()
        guard !entries.isEmpty else {
            Console.say("No backups in \(backups.folder) yet (drinkshop backup takes one).")
            return 0
        }
        Console.say("\(entries.count) backup(s) in \(backups.folder), newest first:")
        for entry in entries {
            let taken = AirtableTimestamp.format(entry.takenAt)
            Console.say("  \(entry.name)  taken \(taken)  \(Backups.describe(bytes: entry.storeBytes))  \(Self.describe(entry))")
        }
        return 0
    }

    private func restore(_ wanted: String, from backups: Backups, into path: String, skip: Int,
                         environment: [String: String]) async throws -> Int32 {
        var isFolder: ObjCBool = false
        let source: String
        if FileManager.default.fileExists(atPath: wanted, isDirectory: &isFolder), isFolder.boolValue {
            source = wanted
        } else if let entry = backups.list().first(where: { $0.name == wanted }) {
            source = entry.path
        } else {
            throw BackupProblem.noSuchBackup(wanted)
        }
        guard let data = FileManager.default.contents(atPath: (source as NSString).appendingPathComponent(Backups.manifestName)),
              let manifest = try? JSONParser.parse(Array(data)),
              let takenAt = manifest["takenAt"]?.stringValue.flatMap(AirtableTimestamp.parse)
        else { throw BackupProblem.noSuchBackup(wanted + " (no backup.json there)") }
        let archiveTarget = ArchiveLocation.forEmbedded(storePath: path, environment: environment)
        for target in [path, archiveTarget] where Backups.bytes(of: target) > 0 { throw BackupProblem.storeExists(target) }
        let storeCopy = (source as NSString).appendingPathComponent("store.sqlite")
        let problems = try await offThePool { try LocalBase.integrityProblems(ofFileAt: storeCopy, thorough: true) }
        guard problems.isEmpty else { throw BackupProblem.damagedCopy(file: storeCopy, problems: problems) }
        try StoreLocation.prepareParent(of: path)
        // Written beside the target under a hidden name, flushed, then renamed: never a half store under its name.
        for (from, to) in [(storeCopy, path), ((source as NSString).appendingPathComponent("archive.sqlite"), archiveTarget)]
        where Backups.bytes(of: from) > 0 {
            let folder = (to as NSString).deletingLastPathComponent
            let temporary = (folder as NSString).appendingPathComponent(".restoring-\(getpid())-" + (to as NSString).lastPathComponent)
            try? FileManager.default.removeItem(atPath: temporary)
            try await offThePool {
                try LocalBase.snapshot(ofFileAt: from, into: temporary)
                chmod(temporary, 0o600)
                for leftover in [to + "-wal", to + "-shm"] { try? FileManager.default.removeItem(atPath: leftover) }
                guard rename(temporary, to) == 0 else { throw BackupProblem.cannotWrite(path: to) }
                try LocalBase.flushToDisk(folder.isEmpty ? "." : folder)
            }
        }
        let store = try await EmbeddedStore.open(path: path, mayCreate: false, environment: environment, notes: { _ in })
        let shop = Shop(store: store.base)
        let staff = environment["DRINKSHOP_STAFF"] ?? environment["USER"] ?? "staff"
        let skipped: ClosedRange<Int>
        do {
            skipped = try await shop.resumeAfterRestore(backupTakenAt: takenAt, skip: max(skip, 1), by: staff)
        } catch {
            await store.finish()
            throw error
        }
        await store.finish()
        Console.say("Restored \(path) from \((source as NSString).lastPathComponent) (taken \(AirtableTimestamp.format(takenAt)); "
            + "\(Self.describe(Backups.Entry(name: "", path: source, takenAt: takenAt, manifest: manifest, storeBytes: 0)))).")
        Console.say("Anything after \(AirtableTimestamp.format(takenAt)) is not in it: orders kept unsent at a counter are "
            + "sent when it next reaches the store; today's pickup numbers go on from #\(skipped.upperBound + 1) "
            + "(#\(skipped.lowerBound)-#\(skipped.upperBound) skipped, so no number is given twice). drinkshop log says so too.")
        return 0
    }
}

extension Backups {
    static func describe(bytes: Int) -> String { BackupProblem.megabytes(bytes) }
}
