/// A store that can keep records copied from another base exactly as they were there: the same ids,
/// creation times and cells (an archive of records moved out of a remote base). Storing a record again
/// under its id replaces the copy, so copying twice leaves one.
public protocol RecordKeeping: SchemaEditing {
    /// Stores `records` in `table` under their own ids and creation times, wholly or not at all.
    /// Returns how many were new.
    @discardableResult
    func keepRecords(in table: String, _ records: [Record]) async throws(AirtableError) -> Int
}
