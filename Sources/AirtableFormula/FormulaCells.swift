import Airtable
import Foundation

/// What a formula sees of a cell, by the field's type (reference §10.4).
///
/// | field type | formula value |
/// |---|---|
/// | text types, single select | text |
/// | number, currency, percent, rating, duration, autoNumber | number (numeric text is read as a number) |
/// | checkbox | true or false; a missing cell is false |
/// | multiple selects | a list of texts |
/// | attachments | a list of file names (the URL where there is no name) |
/// | date, dateTime, createdTime, lastModifiedTime | a date; a date-only cell is midnight in the record's zone |
/// | missing cell | blank; for createdTime, the record's own creation time |
///
/// A computed cell written as `{"error": …}` is an error; `{"specialValue": "NaN"}` (or `Infinity`) a
/// number. A value of the wrong JSON kind is read as best it can be (a number in a text field is text).
enum FormulaCells {
    static func value(of field: FieldSchema, in record: FormulaRecord) -> FormulaValue {
        if let computed = record.values[field.id] { return computed }
        guard let cell = record.cells[field.id], !cell.isNull else {
            switch field.type {
            case .checkbox: return .bool(false)
            case .createdTime: return .date(record.createdTime)
            default: return .blank
            }
        }
        if case .object(let members) = cell {
            if let error = members["error"] { return .error(error.stringValue ?? "#ERROR!") }
            if let special = members["specialValue"]?.stringValue {
                switch special {
                case "NaN": return .number(.nan)
                case "Infinity": return .number(.infinity)
                case "-Infinity": return .number(-.infinity)
                default: return .text(special)
                }
            }
        }
        switch field.type {
        case .singleLineText, .multilineText, .richText, .email, .url, .phoneNumber, .singleSelect:
            return plain(cell)
        case .number, .currency, .percent, .duration, .rating, .autoNumber:
            if case .string(let text) = cell, let number = FormulaNumberText.parse(text) { return .number(number) }
            return plain(cell)
        case .checkbox:
            switch cell {
            case .bool(let checked): return .bool(checked)
            case .number(let n): return .bool(n != 0)
            case .string(let s): return .bool(s == "true" || s == "1" || s == "checked")
            default: return .bool(false)
            }
        case .multipleSelects, .multipleRecordLinks:
            // A link's cell reaches a formula as the linked records' primary values when the store
            // filled them in (LocalBase does), else as the record ids.
            return list(cell)
        case .singleCollaborator, .createdBy, .lastModifiedBy:
            return .text(cell["name"]?.stringValue ?? cell["email"]?.stringValue ?? "")
        case .multipleCollaborators:
            guard case .array(let users) = cell else { return plain(cell) }
            return .array(users.map { .text($0["name"]?.stringValue ?? $0["email"]?.stringValue ?? "") })
        case .button:
            return cell["label"]?.stringValue.map { .text($0) } ?? .blank
        case .count:
            return plain(cell)
        case .formula, .rollup, .multipleLookupValues:
            // Read back from JSON (a store that computes them passes `values` instead): a result typed
            // as a date is a date, anything else is taken at face value.
            let resultType = field.options?["result"]?["type"]?.stringValue
            if resultType == "date" || resultType == "dateTime", case .string(let text) = cell,
               let date = FormulaDateParsing.parse(text, in: record.timeZone)
            {
                return .date(date)
            }
            return plain(cell)
        case .barcode:
            return cell["text"]?.stringValue.map { .text($0) } ?? .blank
        case .multipleAttachments:
            guard case .array(let attachments) = cell else { return plain(cell) }
            return .array(attachments.map { attachment in
                if let name = attachment["filename"]?.stringValue { return .text(name) }
                if let url = attachment["url"]?.stringValue { return .text(url) }
                return plain(attachment)
            })
        case .date, .dateTime, .createdTime, .lastModifiedTime:
            if case .string(let text) = cell, let date = FormulaDateParsing.parse(text, in: record.timeZone) {
                return .date(date)
            }
            return plain(cell)
        }
    }

    /// A JSON value taken at face value.
    static func plain(_ cell: JSONValue) -> FormulaValue {
        switch cell {
        case .null: return .blank
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return s.isEmpty ? .blank : .text(s)
        case .array: return list(cell)
        case .object: return .text(cell.description)
        }
    }

    private static func list(_ cell: JSONValue) -> FormulaValue {
        guard case .array(let elements) = cell else { return plain(cell) }
        return .array(elements.map(plain))
    }
}
