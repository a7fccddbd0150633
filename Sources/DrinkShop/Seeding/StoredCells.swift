import Airtable

/// Compares the cells a seed wants with what a record holds, so seeding writes only real changes.
enum StoredCells {
    /// Whether `record` already holds exactly these cells (empty and missing alike; attachments as
    /// `AttachmentCells` compares them, since stores add ids and filenames and Airtable changes URLs).
    static func match(_ record: Record, _ fields: Fields) -> Bool {
        fields.allSatisfy { key, value in
            let stored = record.fields[key] ?? .null
            if value.isEmptyCell { return stored.isEmptyCell }
            if key == DrinkField.image.rawValue { return AttachmentCells.match(stored: stored, wanted: value) }
            return stored == value
        }
    }

    /// The cells to send to change `record`: attachments it already holds go as their ids, so the store
    /// keeps them instead of fetching them again.
    static func toSend(_ fields: Fields, over record: Record) -> Fields {
        guard let wanted = fields[DrinkField.image.rawValue] else { return fields }
        var sent = fields
        sent[DrinkField.image.rawValue] = AttachmentCells.toSend(stored: record.fields[DrinkField.image.rawValue], wanted: wanted)
        return sent
    }
}
