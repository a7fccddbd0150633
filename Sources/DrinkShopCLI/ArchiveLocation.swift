import Airtable
import DrinkShop
import Foundation
import LocalBase

/// Where a store's archive of closed days lives: `DRINKSHOP_ARCHIVE`, else `archive-<baseID>.sqlite` in the
/// data folder for a remote base, else `<store>.archive.sqlite` beside an embedded store. The file is made
/// only when a day is first archived (`close COUNTED --archive`, `archive now`).
enum ArchiveLocation {
    static func forRemote(baseID: String, environment: [String: String]) -> String {
        chosen(environment) ?? StoreLocation.dataDirectory(environment: environment) + "/archive-\(baseID).sqlite"
    }

    static func forEmbedded(storePath: String, environment: [String: String]) -> String {
        if let path = chosen(environment) { return path }
        let stem = storePath.hasSuffix(".sqlite") ? String(storePath.dropLast(".sqlite".count)) : storePath
        return stem + ".archive.sqlite"
    }

    /// The archive at `path`, opened on first use.
    static func archive(at path: String) -> DayArchive {
        DayArchive(location: path, exists: {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return size > 0
        }, open: { () async throws(AirtableError) -> any RecordKeeping in
            do { try StoreLocation.prepareParent(of: path) } catch {
                throw .localStore("the archive's folder for \(path) cannot be made: \(error.localizedDescription)")
            }
            // Two counters starting one archive together: one creates its tables, the other waits.
            do {
                return try await LocalBase.withSetupLock(path: path) { () async throws -> any RecordKeeping in
                    let base = try await LocalBase.open(path: path, owner: ShopIdentity.baseOwner)
                    try await DayArchive.prepare(base)
                    return base
                }
            } catch let error as AirtableError {
                throw error
            } catch {
                throw .localStore("the archive \(path) cannot be opened: \(error)")
            }
        })
    }

    private static func chosen(_ environment: [String: String]) -> String? {
        guard let path = environment["DRINKSHOP_ARCHIVE"]?.trimmingCharacters(in: .whitespaces), !path.isEmpty else { return nil }
        return path
    }
}
