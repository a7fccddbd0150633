import Airtable
import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Glibc

/// The shop's backups: consistent copies of a live store (and its archive of closed days), each a folder named
/// by the time it was taken (`drinkshop-20261206-140000`), holding `store.sqlite`, `archive.sqlite` when the
/// shop has one, and `backup.json` (when, from where, what it holds, what its checks found).
///
/// A backup is made in a hidden folder beside them (`.partial-…`), checked (SQLite's integrity check on each
/// copy, then the shop opened on the copy: its last order, last close and the books of its last day), flushed
/// to the disk, and only then renamed into place and the folder flushed: a kill at any step leaves either no
/// backup or a whole one, never a half one in the list, and the next backup clears what a killed one left.
struct Backups {
    /// Where the backups are kept.
    let folder: String
    let rotation: BackupRotation
    let timeZone: TimeZone

    static let manifestName = "backup.json"
    static let partialPrefix = ".partial-"
    static let namePrefix = "drinkshop-"

    /// One backup as listed.
    struct Entry: Sendable {
        var name: String
        var path: String
        var takenAt: Date
        var manifest: JSONValue
        var storeBytes: Int
    }

    /// What a backup just made holds, for the line the command prints.
    struct Made: Sendable {
        var entry: Entry
        var removed: [String]
    }

    /// The folder backups go to: `--to`, else `DRINKSHOP_BACKUP_DIR`, else `backups` beside the store.
    static func folder(option: String?, storePath: String, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let chosen = environment["DRINKSHOP_BACKUP_DIR"], !chosen.isEmpty { return chosen }
        return ((storePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("backups")
    }

    /// The backups in the folder, newest first (hidden partial folders and anything without a manifest are
    /// not backups).
    func list() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var entries: [Entry] = []
        for name in names where name.hasPrefix(Self.namePrefix) {
            let path = (folder as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: (path as NSString).appendingPathComponent(Self.manifestName)),
                  let manifest = try? JSONParser.parse(Array(data)),
                  let taken = manifest["takenAt"]?.stringValue.flatMap(AirtableTimestamp.parse)
            else { continue }
            let size = (try? FileManager.default.attributesOfItem(atPath: (path as NSString).appendingPathComponent("store.sqlite"))[.size]
                as? Int) ?? 0
            entries.append(Entry(name: name, path: path, takenAt: taken, manifest: manifest, storeBytes: size))
        }
        return entries.sorted { $0.takenAt > $1.takenAt }
    }

    /// Takes a backup of the store at `storePath` (and its archive at `archivePath`, if the shop has one).
    /// Blocking parts run off the cooperative pool. Throws when no whole, checked backup could be made; the
    /// store and the earlier backups are untouched then.
    func take(storePath: String, archivePath: String?, now: Date, environment: [String: String]) async throws -> Made {
        let manager = FileManager.default
        try makeFolder(folder)
        clearPartials()
        let storeBytes = Self.bytes(of: storePath) + Self.bytes(of: storePath + "-wal")
        let archiveBytes = archivePath.map { Self.bytes(of: $0) + Self.bytes(of: $0 + "-wal") } ?? 0
        if let free = Self.freeBytes(in: folder), free < storeBytes + archiveBytes + 1_048_576 {
            throw BackupProblem.noRoom(folder: folder, free: free, needed: storeBytes + archiveBytes)
        }
        let name = Self.name(for: now, timeZone: timeZone, taken: Set(list().map(\.name)))
        let partial = (folder as NSString).appendingPathComponent("\(Self.partialPrefix)\(name)-\(getpid())")
        do {
            try makeFolder(partial)
            let storeCopy = (partial as NSString).appendingPathComponent("store.sqlite")
            try await offThePool { try LocalBase.snapshot(ofFileAt: storePath, into: storeCopy) }
            var hasArchive = false
            if let archivePath, Self.bytes(of: archivePath) > 0 {
                try await offThePool {
                    try LocalBase.snapshot(ofFileAt: archivePath, into: (partial as NSString).appendingPathComponent("archive.sqlite"))
                }
                hasArchive = true
            }
            for file in ["store.sqlite"] + (hasArchive ? ["archive.sqlite"] : []) {
                let path = (partial as NSString).appendingPathComponent(file)
                let problems = try await offThePool { try LocalBase.integrityProblems(ofFileAt: path, thorough: true) }
                guard problems.isEmpty else { throw BackupProblem.damagedCopy(file: file, problems: problems) }
                chmod(path, 0o600)
            }
            let checked = try await Self.facts(ofCopy: storeCopy, environment: environment)
            // Opening the copy left its start-check stamp (and a WAL that closing emptied): a backup holds its files only.
            var manifest: [String: JSONValue] = [
                "takenAt": .string(AirtableTimestamp.format(now)), "source": .string(storePath),
                "version": .string(DrinkShopCLI.version), "integrity": "ok",
                "files": .array((["store.sqlite"] + (hasArchive ? ["archive.sqlite"] : [])).map(JSONValue.string)),
                "books": .string(checked.books),
            ]
            if let order = checked.facts.lastOrder {
                manifest["lastOrder"] = ["number": .int(order.number), "day": .string(order.day),
                                         "at": .string(AirtableTimestamp.format(order.at))]
            }
            if let close = checked.facts.lastClose {
                manifest["lastClose"] = ["day": .string(close.day), "at": .string(close.at), "by": .string(close.by),
                                         "counted": close.counted.map(JSONValue.int) ?? .null]
            }
            let backups = self
            return try await offThePool { [manifest] in try backups.seal(partial, as: name, manifest: .object(manifest)) }
        } catch {
            try? manager.removeItem(atPath: partial)
            throw error
        }
    }

    /// The checked copy in `partial` made a backup: what opening it left removed, its manifest written, every file and
    /// the folder flushed, renamed to `name`, the folder flushed, the rotation applied. Blocking (file system calls
    /// and fsync): call it off the cooperative pool.
    private func seal(_ partial: String, as name: String, manifest: JSONValue) throws -> Made {
        let manager = FileManager.default
        // Opening the copy left its start-check stamp (and a WAL that closing emptied): a backup holds its files only.
        for leftover in ["store.sqlite.checked", "store.sqlite-wal", "store.sqlite-shm"] {
            try? manager.removeItem(atPath: (partial as NSString).appendingPathComponent(leftover))
        }
        try LocalBase.flushToDisk((partial as NSString).appendingPathComponent("store.sqlite"))
        let manifestPath = (partial as NSString).appendingPathComponent(Self.manifestName)
        guard manager.createFile(atPath: manifestPath, contents: Data(JSONWriter.bytes(manifest)),
                                 attributes: [.posixPermissions: 0o600]) else {
            throw BackupProblem.cannotWrite(path: manifestPath)
        }
        try LocalBase.flushToDisk(manifestPath)
        try LocalBase.flushToDisk(partial)
        let final = (folder as NSString).appendingPathComponent(name)
        guard rename(partial, final) == 0 else {
            throw BackupProblem.cannotWrite(path: final + " (\(String(cString: strerror(errno))))")
        }
        try LocalBase.flushToDisk(folder)
        let removed = rotate()
        guard let entry = list().first(where: { $0.name == name }) else { throw BackupProblem.cannotWrite(path: final) }
        return Made(entry: entry, removed: removed)
    }

    /// Deletes the backups the rotation does not keep; returns their names.
    @discardableResult
    func rotate() -> [String] {
        let entries = list()
        let kept = rotation.kept(entries.map { (id: $0.name, time: $0.takenAt) }, timeZone: timeZone)
        var removed: [String] = []
        for entry in entries where !kept.contains(entry.name) {
            if (try? FileManager.default.removeItem(atPath: entry.path)) != nil { removed.append(entry.name) }
        }
        return removed
    }

    /// Removes what killed backups left (their hidden partial folders).
    private func clearPartials() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(Self.partialPrefix) {
            try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
        }
    }

    private func makeFolder(_ path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw BackupProblem.notAFolder(path) }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw BackupProblem.cannotWrite(path: path + " (\(error.localizedDescription))")
        }
    }

    /// The shop opened on a copy: its last order and close, and the books of its last business day.
    private static func facts(ofCopy path: String, environment: [String: String]) async throws
        -> (facts: StoreFacts, books: String)
    {
        var quiet = environment
        for key in ["DRINKSHOP_TIME_ZONE", "DRINKSHOP_DAY_STARTS"] { quiet.removeValue(forKey: key) }
        let store = try await EmbeddedStore.open(path: path, mayCreate: false, environment: quiet, notes: { _ in })
        let shop = Shop(store: store.base)
        let facts: StoreFacts
        do { facts = try await shop.storeFacts() } catch {
            await store.finish()
            throw error
        }
        var books = "no orders"
        if let day = facts.lastOrder?.day {
            do {
                let check = try await shop.books.check(try shop.till.period(from: day, to: day))
                books = check.differences.isEmpty ? "balance on \(day)" : "\(check.differences.count) difference(s) on \(day)"
            } catch {
                books = "not checked: \(error)"
            }
        }
        await store.finish()
        return (facts, books)
    }

    /// `drinkshop-YYYYMMDD-HHMMSS` in the shop's time zone (a suffix when that second is taken).
    static func name(for date: Date, timeZone: TimeZone, taken: Set<String>) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let base = "\(namePrefix)\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))"
        var name = base
        var suffix = 2
        while taken.contains(name) {
            name = "\(base)-\(suffix)"
            suffix += 1
        }
        return name
    }

    static func bytes(of path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    static func freeBytes(in folder: String) -> Int? {
        var stats = statvfs()
        guard statvfs(folder, &stats) == 0 else { return nil }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
    }

    /// The newest modification of the store file or its WAL (what a scheduled backup compares with).
    static func lastWritten(_ storePath: String) -> Date? {
        [storePath, storePath + "-wal"].compactMap {
            (try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate]) as? Date
        }.max()
    }
}

/// Why a backup or a restore could not be made, in the owner's words; each says what is untouched.
enum BackupProblem: Error, CustomStringConvertible {
    case noRoom(folder: String, free: Int, needed: Int)
    case damagedCopy(file: String, problems: [String])
    case cannotWrite(path: String)
    case notAFolder(String)
    case noSuchBackup(String)
    case storeExists(String)

    var description: String {
        switch self {
        case .noRoom(let folder, let free, let needed):
            return "the backup folder \(folder) has \(Self.megabytes(free)) free and a backup needs about "
                + "\(Self.megabytes(needed)) (備份空間不足); nothing was written, the store and the earlier backups are "
                + "untouched: free some space there or choose another folder (--to DIR)"
        case .damagedCopy(let file, let problems):
            return "the copy of \(file) failed SQLite's integrity check (\(problems.first ?? "")) and was not kept "
                + "(備份檢查失敗); the store is untouched: run drinkshop check on it"
        case .cannotWrite(let path):
            return "cannot write \(path) (無法寫入); the store and the earlier backups are untouched"
        case .notAFolder(let path):
            return "\(path) is a file, not a folder (不是資料夾); name a folder for the backups"
        case .noSuchBackup(let name):
            return "there is no backup \(name) (找不到備份); drinkshop backups lists them"
        case .storeExists(let path):
            return "\(path) already holds a store (已有資料); a restore writes only into a new file: "
                + "drinkshop restore BACKUP --db NEW.sqlite, then move it into place while no counter runs"
        }
    }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
}
