import Airtable
import DrinkShopCore
import Foundation

/// What a seed did, per table.
public struct SeedReport: Sendable, Equatable {
    public struct Counts: Sendable, Equatable {
        public var created = 0
        public var updated = 0
        public var unchanged = 0

        public init(created: Int = 0, updated: Int = 0, unchanged: Int = 0) {
            self.created = created
            self.updated = updated
            self.unchanged = unchanged
        }
    }

    public var drinks = Counts()
    public var promotions = Counts()
}

extension Shop {
    /// Reads, validates and applies a seed file. A file with any error is refused whole, before anything
    /// is written.
    public func seed(contentsOf path: String) async throws(ShopError) -> SeedReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw .seed(SeedError(path: path, location: "file", problem: reason))
        }
        // One read of the Drink table serves both the names promotions may refer to and the comparison.
        let drinks: [Record]
        do { drinks = try await store.allRecords(in: ShopSchema.drinkTable) } catch { throw .store(error) }
        let known = Set(drinks.compactMap { $0.fields["name"]?.stringValue })
        let file: SeedFile
        do { file = try SeedFile.parse(Array(data), path: path, knownDrinks: known) } catch { throw .seed(error) }
        return try await seed(file, storedDrinks: drinks)
    }

    /// Upserts the file's drinks by name and promotions by name. Running the same file twice changes
    /// nothing the second time.
    /// - Parameter storedDrinks: the Drink records if the caller has just read them (spares a listing).
    public func seed(_ file: SeedFile, storedDrinks: [Record]? = nil) async throws(ShopError) -> SeedReport {
        var report = SeedReport()
        report.drinks = try await upsertByName(table: ShopSchema.drinkTable, file.drinks.map(DrinkRecord.fields(of:)),
                                               stored: storedDrinks)
        report.promotions = try await upsertByName(table: ShopSchema.promotionTable,
                                                   file.promotions.map(PromotionRecord.fields(of:)), stored: nil)
        forgetCatalog()
        return report
    }

    /// Writes only the records that differ from what is stored, in one upsert on `name`.
    private func upsertByName(table: String, _ wanted: [Fields], stored: [Record]?) async throws(ShopError)
        -> SeedReport.Counts
    {
        guard !wanted.isEmpty else { return SeedReport.Counts() }
        var counts = SeedReport.Counts()
        do {
            var existing = stored ?? []
            if stored == nil { existing = try await store.allRecords(in: table) }
            var byName: [String: Record] = [:]
            for record in existing {
                if let name = record.fields["name"]?.stringValue { byName[name] = record }
            }
            var changes: [UpsertRecord] = []
            for fields in wanted {
                guard let name = fields["name"]?.stringValue else { continue }
                if let record = byName[name] {
                    if StoredCells.match(record, fields) {
                        counts.unchanged += 1
                    } else {
                        counts.updated += 1
                        changes.append(UpsertRecord(fields: fields))
                    }
                } else {
                    counts.created += 1
                    changes.append(UpsertRecord(fields: fields))
                }
            }
            if !changes.isEmpty {
                _ = try await store.upsertRecords(in: table, changes, mergeOn: ["name"], replace: false,
                                                  options: WriteOptions(typecast: true))
            }
        } catch {
            throw .store(error)
        }
        return counts
    }
}
