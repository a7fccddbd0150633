import Airtable
import AirtableFormula
import Foundation

/// Checks and completes the options of computed fields when they are made: formula, rollup, lookup
/// (`multipleLookupValues`), count, button, createdBy and lastModifiedBy.
///
/// Airtable's own API refuses to create these (its UI makes them); a local base lets its owner make
/// them through the same create-field route, with the options Airtable reports (`formula`,
/// `recordLinkFieldId`, `fieldIdInLinkedTable`) plus two it keeps to itself (see
/// `FieldSchema.storedOnlyOptionKeys`): a rollup's aggregation `formula` over `values`, and a button's
/// `label` and `url` formula. The options are stored as Airtable reports them: formulas with field ids
/// (`{fldX} * 2`, so renaming a field never breaks one), `isValid`, `referencedFieldIds` and `result`.
///
/// A computed field may only use fields that do not depend on it: stored fields, and computed fields
/// made before it. So the fields' dependencies never form a cycle.
enum ComputedFieldRules {
    /// The rollup aggregation used when none is given.
    static let defaultAggregation = "ARRAYJOIN(values)"

    /// Completes `table.fields[index]` (made by `SchemaRules.makeField`) when it is computed from other
    /// fields. `base` holds the other tables (a link to `table` itself reads `table`).
    static func resolve(_ index: Int, of table: inout TableSchema, in base: BaseSchema) throws {
        var field = table.fields[index]
        guard field.type.isDerived else { return }
        let usable = table.fields.enumerated().filter { !$0.element.type.isDerived || $0.offset < index }.map(\.element)
        let given = field.options?.objectValue ?? [:]
        var options: [String: JSONValue] = ["isValid": true]
        switch field.type {
        case .formula:
            guard let text = given["formula"]?.stringValue, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            else { throw APIError.invalidRequest("formula field \"\(field.name)\" needs options.formula, the formula text") }
            let (stored, compiled) = try compile(text, fields: usable, what: "the formula of field \"\(field.name)\"")
            options["formula"] = .string(stored)
            options["referencedFieldIds"] = .array(order(compiled.referencedFieldIDs, in: usable).map(JSONValue.string))
            options["result"] = FormulaResultType.infer(compiled.expression, fields: usable)
        case .rollup, .multipleLookupValues:
            let (link, target) = try linkedField(given, field: field, usable: usable, table: table, base: base)
            options["recordLinkFieldId"] = .string(link.id)
            options["fieldIdInLinkedTable"] = .string(target.id)
            if field.type == .rollup {
                let aggregation = given["formula"]?.stringValue ?? defaultAggregation
                let values = valuesField(of: target)
                let (_, compiled) = try compile(aggregation, fields: [values],
                                                what: "the rollup formula of field \"\(field.name)\" (over values)")
                options["formula"] = .string(aggregation)
                options["referencedFieldIds"] = []
                options["result"] = FormulaResultType.infer(compiled.expression, fields: [values])
            } else {
                options["result"] = FormulaResultType.result(of: target)
            }
        case .count:
            let link = try linkField(given, field: field, usable: usable)
            options["recordLinkFieldId"] = .string(link.id)
        case .button:
            var kept: [String: JSONValue] = [:]
            if let label = given["label"], label.stringValue == nil {
                throw APIError.invalidRequest("the label of button field \"\(field.name)\" must be a string")
            }
            kept["label"] = .string(given["label"]?.stringValue ?? field.name)
            if let url = given["url"], !url.isNull {
                guard let text = url.stringValue else {
                    throw APIError.invalidRequest("the url of button field \"\(field.name)\" must be a formula (a string)")
                }
                kept["url"] = .string(try compile(text, fields: usable, what: "the url formula of field \"\(field.name)\"").0)
            }
            field.options = .object(kept)
            table.fields[index] = field
            return
        default:
            return
        }
        field.options = .object(options)
        table.fields[index] = field
    }

    /// The field a rollup's or lookup's `values` stands for: the linked field's values, as a lookup.
    static func valuesField(of target: FieldSchema) -> FieldSchema {
        FieldSchema(id: "values", name: "values", type: .multipleLookupValues,
                    options: ["result": FormulaResultType.result(of: target)])
    }

    /// `text` compiled against `fields`, and stored with its field references written as ids.
    static func compile(_ text: String, fields: [FieldSchema], what: String) throws -> (String, CompiledFormula) {
        let compiled: CompiledFormula
        do {
            compiled = try CompiledFormula(text, fields: fields)
        } catch {
            throw APIError.invalidRequest("\(what) is invalid: \(error.message)")
        }
        return (byFieldID(compiled.expression, fields: fields).description, compiled)
    }

    /// The expression with every field reference written as the field's id.
    private static func byFieldID(_ expression: FormulaExpression, fields: [FieldSchema]) -> FormulaExpression {
        switch expression {
        case .number, .text: return expression
        case .field(let name):
            let field = fields.first { $0.id == name } ?? fields.first { $0.name == name }
            return .field(field?.id ?? name)
        case .unary(let op, let operand): return .unary(op, byFieldID(operand, fields: fields))
        case .binary(let op, let left, let right):
            return .binary(op, byFieldID(left, fields: fields), byFieldID(right, fields: fields))
        case .call(let name, let arguments): return .call(name, arguments.map { byFieldID($0, fields: fields) })
        }
    }

    private static func order(_ ids: Set<String>, in fields: [FieldSchema]) -> [String] {
        fields.map(\.id).filter(ids.contains)
    }

    /// `recordLinkFieldId`: a link field of this table (by id or name).
    private static func linkField(_ given: [String: JSONValue], field: FieldSchema, usable: [FieldSchema]) throws
        -> FieldSchema
    {
        guard let wanted = given["recordLinkFieldId"]?.stringValue else {
            throw APIError.invalidRequest(
                "\(field.type.rawValue) field \"\(field.name)\" needs options.recordLinkFieldId, the link field it follows")
        }
        guard let link = usable.first(where: { $0.id == wanted }) ?? usable.first(where: { $0.name == wanted }) else {
            throw APIError.invalidRequest("field \"\(field.name)\" follows the link field \"\(wanted)\", which is not in this table")
        }
        guard link.type == .multipleRecordLinks else {
            throw APIError.invalidRequest(
                "field \"\(field.name)\" must follow a link field (multipleRecordLinks), but \"\(link.name)\" is \(link.type.rawValue)")
        }
        return link
    }

    /// The link field and `fieldIdInLinkedTable`, a field of the table the link points to.
    private static func linkedField(_ given: [String: JSONValue], field: FieldSchema, usable: [FieldSchema],
                                    table: TableSchema, base: BaseSchema) throws -> (FieldSchema, FieldSchema)
    {
        let link = try linkField(given, field: field, usable: usable)
        guard let linkedID = link.link?.table else {
            throw APIError.invalidRequest("the link field \"\(link.name)\" names no linked table")
        }
        let linkedFields: [FieldSchema]
        if linkedID == table.id {
            linkedFields = usable
        } else if let linked = base.table(linkedID) {
            linkedFields = linked.fields
        } else {
            throw APIError.invalidRequest("the link field \"\(link.name)\" links to a table that is not in this base")
        }
        guard let wanted = given["fieldIdInLinkedTable"]?.stringValue else {
            throw APIError.invalidRequest(
                "\(field.type.rawValue) field \"\(field.name)\" needs options.fieldIdInLinkedTable, the field it reads in the linked table")
        }
        guard let target = linkedFields.first(where: { $0.id == wanted }) ?? linkedFields.first(where: { $0.name == wanted })
        else {
            throw APIError.invalidRequest(
                "field \"\(field.name)\" reads the field \"\(wanted)\", which is not in the linked table (or depends on this field)")
        }
        return (link, target)
    }
}
