import Airtable
import DrinkShop
import Foundation
import LocalBase
import Synchronization

/// The embedded store: a LocalBase file, created with the shop's tables and seeded (from
/// `DRINKSHOP_SEEDS`, else the menu compiled into the executable) the first time it is opened.
///
/// A store is created only at the default location or when asked (`drinkshop init`, `--create`), so a
/// mistyped `--db` never shows an empty shop. A file SQLite finds damaged is refused before anything is
/// written; a file this process may not write is opened for reading.
struct EmbeddedStore {
    let base: LocalBase
    let path: String
    /// When SQLite last checked every page of the file (this start, or a note from an earlier one that
    /// still matches the file: `IntegrityStamp`); nil for a file opened read-only.
    var checkedAt: Date? = nil

    /// At the end of the process: the file's state noted as checked, so the next start need not read
    /// every page again (nothing is noted for a read-only file).
    func finish() async {
        guard let checkedAt, FileManager.default.isWritableFile(atPath: path) else { return }
        guard (try? await base.checkpoint()) != nil else { return }
        IntegrityStamp.record(path, checkedAt: checkedAt)
    }

    /// `finish()`, unless the store is still busy after `limit` (a request under way when `serve` was told
    /// to stop holds its thread): then the note is skipped, and the next start checks the file again.
    /// Returns within `limit` either way, so a signal stops the process promptly.
    func finish(within limit: Duration) async {
        let waiter = FirstOfTwo()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waiter.keep(continuation)
            Task {
                await finish()
                waiter.resume()
            }
            Task {
                try? await Task.sleep(for: limit)
                waiter.resume()
            }
        }
    }

    /// A continuation resumed by whichever comes first.
    private final class FirstOfTwo: Sendable {
        private let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
        func keep(_ waiting: CheckedContinuation<Void, Never>) { continuation.withLock { $0 = waiting } }
        func resume() { continuation.withLock { $0.take() }?.resume() }
    }

    /// One line when other users of this machine may read or write the store (an earlier version made it 0644):
    /// its PIN hashes can then be searched offline. Said, never changed here: a shop may share the file with
    /// a group on purpose (new stores are made 0600, `SQLiteConnection`).
    static func looseModeWarning(_ path: String) -> String? {
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int,
              mode & 0o077 != 0 else { return nil }
        return "Warning: the store \(path) can be read by other users of this machine (mode \(String(mode & 0o777, radix: 8))), "
            + "PIN hashes and all (其他使用者可讀取); make it private: chmod 600 \(path)"
    }

    /// Opens the store at `path`.
    /// - Parameters:
    ///   - mayCreate: whether a missing (or 0-byte) file may become a new store here.
    ///   - notes: where notes about first-run set-up and read-only files go.
    ///
    /// Several counters may start on one new store at the same moment: the set-up (tables, then seeding)
    /// runs under the store's setup lock, so one process does it and the others wait, then find the
    /// tables made and the menu seeded. Whether to seed is decided under that lock (the base has no tables
    /// yet), not by whether the file existed, which another process may have just created. A store that
    /// needs no set-up takes no lock (so a read-only folder still opens).
    static func open(path: String, mayCreate: Bool, environment: [String: String], notes: (String) -> Void)
        async throws -> EmbeddedStore
    {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        let exists = manager.fileExists(atPath: path, isDirectory: &isFolder)
        if exists && isFolder.boolValue { throw StoreFileError.isAFolder(path) }
        let size = exists ? ((try? manager.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) : 0
        let isNew = !exists || size == 0
        if isNew && !mayCreate {
            let folder = (path as NSString).deletingLastPathComponent
            throw exists ? StoreFileError.emptyFile(path)
                : StoreFileError.noStore(path, folderMissing: !folder.isEmpty && !manager.fileExists(atPath: folder))
        }
        // Before a new file is made, so a wrong DRINKSHOP_SEEDS leaves nothing behind.
        if isNew { _ = try SeedSource.chosen(environment: environment) }
        if !exists { try StoreLocation.prepareParent(of: path) }
        let base = try await LocalBase.open(path: path, owner: ShopIdentity.baseOwner)
        var checkedAt = Date()
        if !isNew {
            // Unless this very state of the file passed the check less than a day ago, the start check runs:
            // every page of a small file, the header, schema and all but the few biggest tables of a big
            // one (`LocalBase.startProblems`), so a start costs the same on day 365 as on day 1.
            if let noted = IntegrityStamp.lastCheck(of: path) {
                checkedAt = noted
            } else {
                let problems = try await base.startProblems()
                if !problems.isEmpty {
                    IntegrityStamp.forget(path)
                    throw StoreFileError.damaged(path, problems: problems)
                }
            }
            if !manager.isWritableFile(atPath: path) {
                notes("Note: the store \(path) is read-only here: the menu and orders can be shown, changes are refused")
            }
            if let warning = looseModeWarning(path) { notes(warning) }
        }
        // The indexes the order lookups use are made at opening (when missing and the file may be written),
        // so a command that is then refused leaves the file as it was.
        // Tables alone are not a finished set-up: the first counter makes them, then seeds the menu under
        // the lock, and a counter looking in between would see an empty menu. So a store with no drink
        // waits for the lock too (unless it cannot be written, when there is nothing to wait for).
        let hasMenu = { () async throws -> Bool in
            !(try await base.listRecords(in: ShopSchema.drinkTable, query: ListQuery(pageSize: 1, maxRecords: 1)).records.isEmpty)
        }
        // A store that records this schema version has every table and field (`ShopSchemaVersion`); one made
        // before (or by an older drinkshop) is looked at, upgraded in place and then recorded.
        let versionCurrent = try await ShopSchemaVersion.isCurrent(in: base)
        let schemaMissing = try await versionCurrent ? false : !Shop(store: base).missingSchema().isEmpty
        let versionMissing = !versionCurrent && manager.isWritableFile(atPath: path)
        let menuMissing = try await schemaMissing ? true : !hasMenu()
        guard schemaMissing || versionMissing || (menuMissing && manager.isWritableFile(atPath: path)) else {
            try? await Shop(store: base).prepareLookups()
            return EmbeddedStore(base: base, path: path, checkedAt: checkedAt)
        }
        let note = try await LocalBase.withSetupLock(path: path) { () async throws -> String? in
            let isEmpty = try await base.schema().tables.isEmpty
            let shop = Shop(store: base)
            let created = try await shop.createMissingSchema()
            // A set-up stopped after the tables and before the menu (no drink, and never an order) is
            // finished now; a menu the owner emptied in a store with orders is left as it is.
            let noMenu = try await isEmpty ? false : !hasMenu()
            let noOrder = try await noMenu
                ? base.listRecords(in: ShopSchema.orderTable, query: ListQuery(pageSize: 1, maxRecords: 1)).records.isEmpty : false
            let unfinished = noMenu && noOrder
            guard isEmpty || unfinished else {
                return created.isEmpty ? nil : "Added to the store: " + created.joined(separator: ", ")
            }
            let seeds = try SeedSource.chosen(environment: environment)
            let report = try await seeds.seed(shop)
            return "New store at \(path), seeded from \(seeds.description): \(report.drinks) drinks, \(report.promotions) promotions"
        }
        if let note { notes(note) }
        try? await Shop(store: base).prepareLookups()
        return EmbeddedStore(base: base, path: path, checkedAt: checkedAt)
    }
}

/// Where a new store's menu and promotions come from: the folder `DRINKSHOP_SEEDS` names, else the
/// copy compiled into the executable.
enum SeedSource: CustomStringConvertible {
    case folder(String)
    case bundled

    static func chosen(environment: [String: String]) throws -> SeedSource {
        guard let folder = StoreLocation.seedsDirectory(environment: environment) else { return .bundled }
        guard FileManager.default.fileExists(atPath: folder + "/menu.json") else {
            throw StoreFileError.noSeeds(folder)
        }
        return .folder(folder)
    }

    var description: String {
        switch self {
        case .folder(let folder): return folder
        case .bundled: return "the menu built into drinkshop"
        }
    }

    /// Seeds the menu, then the promotions (which may name the menu's drinks).
    func seed(_ shop: Shop) async throws -> (drinks: Int, promotions: Int) {
        // A new store: nobody has a PIN yet, so whoever set it up may seed it.
        let setUp = Acting("set-up", role: nil)
        switch self {
        case .folder(let folder):
            var drinks = 0
            var promotions = 0
            for file in ["menu.json", "promotions.json"] where FileManager.default.fileExists(atPath: "\(folder)/\(file)") {
                let report = try await shop.counter.seed(contentsOf: "\(folder)/\(file)", by: setUp)
                drinks += report.drinks.created
                promotions += report.promotions.created
            }
            return (drinks, promotions)
        case .bundled:
            let menu = try SeedFile.parse(Array(BundledSeeds.menu.utf8), path: "built-in menu.json")
            let drinks = try await shop.counter.seed(menu, by: setUp).drinks.created
            let offers = try SeedFile.parse(Array(BundledSeeds.promotions.utf8), path: "built-in promotions.json",
                                            knownDrinks: Set(menu.drinks.map(\.name)))
            return (drinks, try await shop.counter.seed(offers, by: setUp).promotions.created)
        }
    }
}

/// A store file that cannot be used as asked, in words for the person at the counter.
enum StoreFileError: Error, CustomStringConvertible {
    case noStore(String, folderMissing: Bool)
    case emptyFile(String)
    case isAFolder(String)
    case damaged(String, problems: [String])
    case noSeeds(String)

    var description: String {
        switch self {
        case .noStore(let path, let folderMissing):
            let folder = folderMissing ? " (and its folder does not exist)" : ""
            return "there is no store at \(path)\(folder); nothing was created. Check the path for a typo; "
                + "to start a new shop there, run: drinkshop init --db \(path)"
        case .emptyFile(let path):
            return "\(path) is an empty file, not a store; nothing was changed. "
                + "To make it a new store, run: drinkshop init --db \(path)"
        case .isAFolder(let path):
            return "\(path) is a folder; --db takes the store's file, e.g. \(path)/drinkshop.sqlite"
        case .damaged(let path, _):
            return "the store \(path) is damaged (SQLite's check of its pages failed) and nothing was written to it. Run `drinkshop check --db \(path)` for details, then "
                + "`drinkshop recover --db \(path) --into NEW.sqlite` to copy every readable order into a new store"
        case .noSeeds(let folder):
            return "DRINKSHOP_SEEDS names \(folder), which has no menu.json; nothing was created"
        }
    }
}
