import Airtable

/// Tables and fields that an application serving this base reads by name, so the API must not rename them
/// while it runs: a renamed `Drink` table makes the next counter create a new, empty `Drink` and the menu
/// splits in two. The server knows nothing of what they are for; whoever starts it (`drinkshop serve`)
/// names them. The API has no route that deletes a table or a field, so renaming is the one way to lose one.
public struct ProtectedTables: Sendable, Hashable {
    /// Field names kept, by table name (exact names, as the application writes them).
    public private(set) var fieldsByTable: [String: Set<String>]
    /// Who relies on them, for the error message ("DrinkShop's counters").
    public var owner: String

    /// Nothing protected.
    public init() {
        fieldsByTable = [:]
        owner = ""
    }

    /// - Parameters:
    ///   - tables: each protected table's name with the names of its protected fields.
    ///   - owner: who relies on them, as the refusal should name it.
    public init(_ tables: [(table: String, fields: [String])], owner: String) {
        fieldsByTable = Dictionary(tables.map { ($0.table, Set($0.fields)) }) { $0.union($1) }
        self.owner = owner
    }

    public var isEmpty: Bool { fieldsByTable.isEmpty }

    /// Refuses renaming `table` to `newName` when the table is protected (a rename to its own name is no change).
    func checkRename(of table: TableSchema, to newName: String?) throws(APIError) {
        guard let newName, newName != table.name, fieldsByTable[table.name] != nil else { return }
        throw .invalidPermissions("Table \"\(table.name)\" is used by \(owner) and cannot be renamed while it "
            + "runs; change its description, or add a new table beside it")
    }

    /// Refuses renaming `field` of `table` when that field is protected.
    func checkRename(of field: FieldSchema, in table: TableSchema, to newName: String?) throws(APIError) {
        guard let newName, newName != field.name, fieldsByTable[table.name]?.contains(field.name) == true else {
            return
        }
        throw .invalidPermissions("Field \"\(field.name)\" of table \"\(table.name)\" is used by \(owner) and "
            + "cannot be renamed while it runs; change its description, or add a new field beside it")
    }
}

extension APIError {
    /// Airtable's 403 for an operation the token may not perform, saying which and why.
    static func invalidPermissions(_ detail: String) -> APIError {
        APIError(status: 403, type: "INVALID_PERMISSIONS", message: "You are not permitted to perform this operation: \(detail)")
    }
}
