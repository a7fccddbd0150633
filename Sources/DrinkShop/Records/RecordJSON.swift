import Airtable

/// Records as the `--json` outputs print them: `[{"id":…,"fields":{…}}]`.
enum RecordJSON {
    static func text(_ records: [Record]) -> String {
        JSONWriter.string(.array(records.map { ["id": .string($0.id), "fields": .object($0.fields)] }))
    }
}
