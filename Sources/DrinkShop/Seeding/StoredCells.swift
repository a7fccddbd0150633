import Airtable

/// Compares the cells a seed wants with what a record holds, so seeding writes only real changes.
enum StoredCells {
    /// Whether `record` already holds exactly these cells (empty and missing alike; attachments by URL,
    /// since the store adds ids and filenames to them).
    static func match(_ record: Record, _ fields: Fields) -> Bool {
        fields.allSatisfy { key, value in
            let stored = record.fields[key] ?? .null
            if value.isEmptyCell { return stored.isEmptyCell }
            if key == "image" {
                let urls = stored.arrayValue?.compactMap { $0["url"]?.stringValue }
                return urls == value.arrayValue?.compactMap { $0["url"]?.stringValue }
            }
            return stored == value
        }
    }
}
