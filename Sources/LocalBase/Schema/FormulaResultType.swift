import Airtable
import AirtableFormula
import Foundation

/// The `result` a computed field reports in the schema (`{type, options}`), inferred from its formula
/// as Airtable infers it: arithmetic gives a number (with the precision of its operands), `&` and the
/// text functions text, the date functions a date and time, comparisons and logic 1 or 0.
///
/// Only types every client can read back are reported (number, singleLineText, date, dateTime); a
/// list is reported as text, which is how it shows.
enum FormulaResultType {
    private enum Kind {
        case number(precision: Int)
        case text
        case date
        case dateTime
    }

    static func infer(_ expression: FormulaExpression, fields: [FieldSchema]) -> JSONValue {
        json(kind(expression, fields: fields) ?? .text)
    }

    /// What a lookup of `field` reports as its result: the field's own type and options (a computed
    /// field's own result).
    static func result(of field: FieldSchema) -> JSONValue {
        switch field.type {
        case .formula, .rollup, .multipleLookupValues:
            return field.options?["result"] ?? json(.text)
        case .count, .autoNumber:
            return json(.number(precision: 0))
        case .createdBy, .lastModifiedBy:
            return ["type": "singleCollaborator"]
        case .button:
            return json(.text)
        default:
            var object: [String: JSONValue] = ["type": .string(field.type.rawValue)]
            if let options = field.options { object["options"] = options }
            return .object(object)
        }
    }

    private static func json(_ kind: Kind) -> JSONValue {
        switch kind {
        case .number(let precision): return ["type": "number", "options": ["precision": .number(Double(precision))]]
        case .text: return ["type": "singleLineText"]
        case .date: return dated(.date)
        case .dateTime: return dated(.dateTime)
        }
    }

    private static func dated(_ type: FieldType) -> JSONValue {
        var object: [String: JSONValue] = ["type": .string(type.rawValue)]
        if let options = try? FieldOptionDefaults.complete(nil, type: type, field: "result") {
            object["options"] = options
        }
        return .object(object)
    }

    private static func kind(of field: FieldSchema) -> Kind? {
        switch field.type {
        case .number, .currency, .percent, .duration, .rating:
            return .number(precision: field.options?["precision"]?.intValue ?? 0)
        case .autoNumber, .count, .checkbox: return .number(precision: 0)
        case .date: return .date
        case .dateTime, .createdTime, .lastModifiedTime: return .dateTime
        case .formula, .rollup, .multipleLookupValues:
            guard let result = field.options?["result"], let name = result["type"]?.stringValue,
                  let type = FieldType(rawValue: name), !type.isDerived
            else { return nil }
            return kind(of: FieldSchema(id: field.id, name: field.name, type: type, options: result["options"]))
        default: return .text
        }
    }

    private static func kind(_ expression: FormulaExpression, fields: [FieldSchema]) -> Kind? {
        switch expression {
        case .number(let value): return .number(precision: decimals(value))
        case .text: return .text
        case .field(let name):
            guard let field = fields.first(where: { $0.id == name }) ?? fields.first(where: { $0.name == name }) else {
                return nil
            }
            return kind(of: field)
        case .unary: return .number(precision: precision(of: [expression], fields: fields))
        case .binary(let op, let left, let right):
            switch op {
            case .concatenate: return .text
            case .equal, .notEqual, .less, .greater, .lessOrEqual, .greaterOrEqual: return .number(precision: 0)
            case .add, .subtract, .multiply:
                // A date plus or minus a number is still a number in Airtable's formulas (use DATEADD).
                return .number(precision: precision(of: [left, right], fields: fields))
            case .divide:
                return .number(precision: max(2, precision(of: [left, right], fields: fields)))
            }
        case .call(let name, let arguments):
            return call(name.uppercased(), arguments, fields: fields)
        }
    }

    private static func call(_ name: String, _ arguments: [FormulaExpression], fields: [FieldSchema]) -> Kind? {
        switch name {
        case "IF":
            return arguments.dropFirst().lazy.compactMap { kind($0, fields: fields) }.first
        case "SWITCH":
            let results = arguments.dropFirst().enumerated().filter { $0.offset % 2 == 1 || $0.offset == arguments.count - 2 }
            return results.lazy.compactMap { kind($0.element, fields: fields) }.first
        case "BLANK", "ERROR": return nil
        case "NOW", "CREATED_TIME", "LAST_MODIFIED_TIME", "DATEADD", "DATETIME_PARSE": return .dateTime
        case "TODAY": return .date
        case "ROUND", "ROUNDUP", "ROUNDDOWN":
            if arguments.count == 2, case .number(let digits) = arguments[1] { return .number(precision: max(0, Int(digits))) }
            return .number(precision: 0)
        case "INT", "EVEN", "ODD", "LEN", "FIND", "SEARCH", "COUNT", "COUNTA", "COUNTALL", "YEAR", "MONTH", "DAY",
            "HOUR", "MINUTE", "SECOND", "WEEKDAY", "WEEKNUM", "AND", "OR", "NOT", "XOR", "TRUE", "FALSE", "ISERROR",
            "IS_BEFORE", "IS_AFTER", "IS_SAME", "REGEX_MATCH":
            return .number(precision: 0)
        case "ABS", "CEILING", "FLOOR", "MOD", "MIN", "MAX", "SUM":
            return .number(precision: precision(of: arguments, fields: fields))
        case "AVERAGE", "POWER", "SQRT", "EXP", "LOG", "VALUE", "DATETIME_DIFF":
            return .number(precision: max(2, precision(of: arguments, fields: fields)))
        default:
            return .text
        }
    }

    /// The most decimals among the number operands (0 when none is a number).
    private static func precision(of expressions: [FormulaExpression], fields: [FieldSchema]) -> Int {
        var most = 0
        for expression in expressions {
            let operand: FormulaExpression
            if case .unary(_, let inner) = expression { operand = inner } else { operand = expression }
            if case .number(let p)? = kind(operand, fields: fields) { most = max(most, p) }
        }
        return most
    }

    private static func decimals(_ value: Double) -> Int {
        guard value.isFinite, value != value.rounded() else { return 0 }
        var scaled = value
        for digits in 1...8 {
            scaled *= 10
            if abs(scaled - scaled.rounded()) < 1e-9 { return digits }
        }
        return 8
    }
}
