import Airtable
import Foundation

/// What evaluating a formula sees of one record.
public struct FormulaRecord: Sendable {
    /// The record id, for `RECORD_ID()`.
    public var id: String
    /// When the record was created, for `CREATED_TIME()` and createdTime fields with no stored cell.
    public var createdTime: Date
    /// When any cell of the record last changed, for `LAST_MODIFIED_TIME()`; nil reads as `createdTime`.
    public var lastModifiedTime: Date?
    /// The cells, keyed by **field id**; a missing key is an empty cell.
    public var cells: [String: JSONValue]
    /// The moment `NOW()` and `TODAY()` read: injected, so evaluation never reads a clock.
    public var now: Date
    /// The zone in which calendar dates are read and written: `TODAY()`'s midnight, date-only cells
    /// and times without a zone, `DATETIME_FORMAT`, `YEAR`…`WEEKDAY`, `IS_SAME` by day, and a date's
    /// text. Airtable computes formulas in UTC (GMT), which is the default.
    public var timeZone: TimeZone
    /// Values already computed for fields, keyed by field id, read before `cells` (a store passes the
    /// values of formula, rollup and lookup fields here, so a formula over them sees their own kind).
    public var values: [String: FormulaValue] = [:]

    public init(id: String, createdTime: Date, cells: [String: JSONValue], now: Date,
                timeZone: TimeZone = FormulaRecord.utc, lastModifiedTime: Date? = nil) {
        self.id = id
        self.createdTime = createdTime
        self.lastModifiedTime = lastModifiedTime
        self.cells = cells
        self.now = now
        self.timeZone = timeZone
    }

    /// What a formula sees of `field` in this record.
    public func value(of field: FieldSchema) -> FormulaValue {
        FormulaCells.value(of: field, in: self)
    }

    /// UTC, the zone Airtable's formulas work in.
    public static let utc: TimeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
}

extension FormulaRecord {
    /// The record as a formula sees it, with its cells re-keyed from field names (or ids, either is
    /// accepted) to field ids. Cells naming no field of `fields` are left out.
    public init(_ record: Record, fields: [FieldSchema], now: Date, timeZone: TimeZone = FormulaRecord.utc) {
        var idsByKey: [String: String] = [:]
        for field in fields {
            idsByKey[field.id] = field.id
            if idsByKey[field.name] == nil { idsByKey[field.name] = field.id }
        }
        var cells: [String: JSONValue] = [:]
        for (key, value) in record.fields {
            if let id = idsByKey[key] { cells[id] = value }
        }
        self.init(id: record.id, createdTime: record.createdTime, cells: cells, now: now, timeZone: timeZone)
    }
}
