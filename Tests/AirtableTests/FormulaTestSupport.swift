@testable import AirtableFormula
import Foundation
@testable import Airtable

/// A table with a field of every type the formulas read, and a way to evaluate a formula on cells.
enum FormulaFixture {
    static let fields: [FieldSchema] = [
        FieldSchema(id: "fldName00000000001", name: "Name", type: .singleLineText),
        FieldSchema(id: "fldNotes0000000001", name: "Notes", type: .multilineText),
        FieldSchema(id: "fldQty000000000001", name: "Qty", type: .number),
        FieldSchema(id: "fldPrice0000000001", name: "Price", type: .currency),
        FieldSchema(id: "fldPaid0000000001x", name: "Paid", type: .checkbox),
        FieldSchema(id: "fldSize0000000001x", name: "Size", type: .singleSelect),
        FieldSchema(id: "fldAddOns000000001", name: "Add Ons", type: .multipleSelects),
        FieldSchema(id: "fldImage0000000001", name: "Image", type: .multipleAttachments),
        FieldSchema(id: "fldDay00000000001x", name: "Day", type: .date),
        FieldSchema(id: "fldWhen0000000001x", name: "When", type: .dateTime),
        FieldSchema(id: "fldCreated00000001", name: "Created", type: .createdTime),
        FieldSchema(id: "fldNo0000000000001", name: "No", type: .autoNumber),
        FieldSchema(id: "fldRating000000001", name: "Stars", type: .rating),
        FieldSchema(id: "fldPct000000000001", name: "Discount", type: .percent),
        FieldSchema(id: "fldTaste0000000001", name: "甜度 (Sugar)", type: .singleSelect),
        FieldSchema(id: "fldOdd00000000001x", name: #"Odd {name} \ "quoted" 'x'"#, type: .singleLineText),
    ]

    static let created = Date(timeIntervalSince1970: 1_704_153_600)  // 2024-01-02T00:00:00Z
    static let now = Date(timeIntervalSince1970: 1_718_447_400)  // 2024-06-15T10:30:00Z

    /// Cells keyed by field name, turned into the id-keyed record evaluation sees.
    static func record(_ cells: [String: JSONValue] = [:], id: String = "recAAAAAAAAAAAAA1",
                       timeZone: TimeZone = FormulaRecord.utc, now: Date = now) -> FormulaRecord {
        var byID: [String: JSONValue] = [:]
        for (name, value) in cells {
            guard let field = fields.first(where: { $0.name == name }) else { continue }
            byID[field.id] = value
        }
        return FormulaRecord(id: id, createdTime: created, cells: byID, now: now, timeZone: timeZone)
    }

    static func evaluate(_ formula: String, _ cells: [String: JSONValue] = [:],
                         timeZone: TimeZone = FormulaRecord.utc) throws -> FormulaValue {
        try CompiledFormula(formula, fields: fields).evaluate(record(cells, timeZone: timeZone))
    }

    static func matches(_ formula: String, _ cells: [String: JSONValue] = [:]) throws -> Bool {
        try CompiledFormula(formula, fields: fields).matches(record(cells))
    }

    static func compileError(_ formula: String) -> FormulaError? {
        do {
            _ = try CompiledFormula(formula, fields: fields)
            return nil
        } catch {
            return error
        }
    }

    static let taipei = TimeZone(identifier: "Asia/Taipei") ?? FormulaRecord.utc
    static let newYork = TimeZone(identifier: "America/New_York") ?? FormulaRecord.utc
}
