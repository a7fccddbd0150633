import Airtable
import AirtableFormula
import Foundation

/// A view the base's owner defines. Airtable's API cannot create views, so this is DrinkShop's own way
/// (not Airtable's): a JSON file given to `drinkshop serve --views FILE`, applied when the server starts.
///
/// ```json
/// {"views": [{"table": "Drink", "name": "Hot drinks", "filterByFormula": "{hotAvailable}",
///             "sort": [{"field": "name", "direction": "asc"}], "hiddenFields": ["image"]}]}
/// ```
public struct ViewDefinition: Sendable, Hashable {
    public var table: String
    public var name: String
    public var filterByFormula: String?
    public var sort: [SortKey]
    public var hiddenFields: [String]

    public init(table: String, name: String, filterByFormula: String? = nil, sort: [SortKey] = [],
                hiddenFields: [String] = []) {
        self.table = table
        self.name = name
        self.filterByFormula = filterByFormula
        self.sort = sort
        self.hiddenFields = hiddenFields
    }

    /// The definitions in a views file; `place` names the file in errors.
    public static func parse(_ bytes: [UInt8], place: String) throws(ViewFileError) -> [ViewDefinition] {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw ViewFileError(place: place, detail: "it is not JSON: \(error.description)")
        }
        guard let list = json["views"]?.arrayValue else {
            throw ViewFileError(place: place, detail: "it needs a \"views\" array")
        }
        var definitions: [ViewDefinition] = []
        for (index, view) in list.enumerated() {
            let at = "view \(index + 1)"
            guard let table = view["table"]?.stringValue, let name = view["name"]?.stringValue,
                  !name.trimmingCharacters(in: .whitespaces).isEmpty
            else { throw ViewFileError(place: place, detail: "\(at) needs a \"table\" and a \"name\"") }
            if let key = view.objectValue?.keys.sorted().first(where: {
                !["table", "name", "filterByFormula", "sort", "hiddenFields"].contains($0)
            }) {
                throw ViewFileError(place: place, detail: "\(at) (\(name)) has an unknown key \"\(key)\"")
            }
            var sort: [SortKey] = []
            for key in view["sort"]?.arrayValue ?? [] {
                guard let field = key["field"]?.stringValue else {
                    throw ViewFileError(place: place, detail: "\(at) (\(name)): each sort key needs a \"field\"")
                }
                let direction = key["direction"]?.stringValue ?? "asc"
                guard let parsed = SortKey.Direction(rawValue: direction) else {
                    throw ViewFileError(place: place, detail: "\(at) (\(name)): direction must be asc or desc, not \(direction)")
                }
                sort.append(SortKey(field: field, direction: parsed))
            }
            definitions.append(ViewDefinition(
                table: table, name: name, filterByFormula: view["filterByFormula"]?.stringValue, sort: sort,
                hiddenFields: view["hiddenFields"]?.arrayValue?.compactMap(\.stringValue) ?? []))
        }
        return definitions
    }
}

/// A views file that cannot be used, and why.
public struct ViewFileError: Error, CustomStringConvertible, Sendable {
    public var place: String
    public var detail: String
    public var description: String { "views file \(place): \(detail)" }
}

extension BaseContext {
    /// Adds or replaces (by name, keeping the id) the defined views, all or none.
    func defineViews(_ definitions: [ViewDefinition]) throws -> [ViewSchema] {
        try file.connection.writeTransaction {
            var made: [ViewSchema] = []
            for definition in definitions {
                var table = try table(definition.table)
                func fieldID(_ name: String) throws -> String {
                    guard let field = table.field(name) else {
                        throw APIError.invalidRequest("view \"\(definition.name)\" names field \"\(name)\", "
                            + "which table \"\(table.name)\" does not have")
                    }
                    return field.id
                }
                if let formula = definition.filterByFormula {
                    _ = try FormulaFilter.make(formula, table: table, now: clock())
                }
                let id = table.views.first { $0.name == definition.name }?.id ?? AirtableID.make("viw")
                let view = ViewSchema(
                    id: id, name: definition.name, filterByFormula: definition.filterByFormula,
                    sort: try definition.sort.map { SortKey(field: try fieldID($0.field), direction: $0.direction) },
                    hiddenFieldIds: try definition.hiddenFields.map(fieldID))
                if let index = table.views.firstIndex(where: { $0.id == id }) {
                    table.views[index] = view
                } else {
                    table.views.append(view)
                }
                try save(table)
                made.append(view)
            }
            return made
        }
    }
}
