import Airtable

/// The parsed body of a create, update or upsert request, with Airtable's errors for bad shapes.
struct WriteBody {
    /// Records as sent: an optional id and the cells.
    var records: [(id: String?, fields: Fields)]
    /// Whether the body used the single-record form `{"fields": …}` (answered with a bare record).
    var isSingle: Bool
    var options: WriteOptions
    /// `performUpsert.fieldsToMergeOn`, when the request is an upsert.
    var mergeOn: [String]?

    /// Reads a JSON body; `allowsUpsert` for PATCH/PUT to the table, `requiresID` for batch updates, `limit` the
    /// records it may hold (Airtable's ten unless the request asked for more where the server takes them).
    init(json body: JSONValue, allowsUpsert: Bool, requiresID: Bool, allowsSingle: Bool,
         limit: WriteBatchLimit = .airtable) throws(APIError) {
        guard case .object(let object) = body else { throw .invalidRequest("the request body must be a JSON object") }
        var allowed: Set<String> = ["records", "typecast", "returnFieldsByFieldId"]
        if allowsSingle { allowed.insert("fields") }
        if allowsUpsert { allowed.insert("performUpsert") }
        for key in object.keys.sorted() where !allowed.contains(key) {
            throw .invalidRequest("unknown key \"\(key)\" in the request body")
        }
        options = WriteOptions(typecast: try WriteBody.flag(object["typecast"], "typecast"),
                               returnFieldsByFieldId: try WriteBody.flag(object["returnFieldsByFieldId"],
                                                                         "returnFieldsByFieldId"))
        mergeOn = nil
        if let upsert = object["performUpsert"], !upsert.isNull {
            guard let names = upsert["fieldsToMergeOn"]?.arrayValue, (1...3).contains(names.count),
                  names.allSatisfy({ $0.stringValue != nil })
            else {
                throw .invalidRequest("performUpsert.fieldsToMergeOn must be an array of 1 to 3 field names or ids")
            }
            mergeOn = names.compactMap(\.stringValue)
        }
        if object["fields"] != nil && object["records"] != nil {
            throw .invalidRequest("the request body has both \"fields\" (one record) and \"records\" (a batch); send one")
        }
        if allowsSingle, let fields = object["fields"] {
            guard case .object(let cells) = fields else { throw .invalidRequest("\"fields\" must be an object") }
            records = [(nil, cells)]
            isSingle = true
            return
        }
        guard let list = object["records"] else { throw .missingFields }
        guard case .array(let items) = list, !items.isEmpty, items.count <= limit.records else {
            throw .invalidRecords
        }
        isSingle = false
        records = []
        for item in items {
            guard case .object(let record) = item, case .object(let cells)? = record["fields"] else {
                throw .invalidRecords
            }
            for key in record.keys where key != "id" && key != "fields" {
                throw .invalidRequest("unknown key \"\(key)\" in a record of the request body")
            }
            let id: String?
            switch record["id"] {
            case nil, .null?: id = nil
            case .string(let text)?: id = text
            default: throw .invalidRecords
            }
            if requiresID, mergeOn == nil, id == nil { throw .invalidRecords }
            records.append((id, cells))
        }
    }

    /// The single-record update body `{"fields": …}` of PATCH/PUT `/{table}/{recordId}`.
    static func singleUpdate(_ body: JSONValue) throws(APIError) -> (fields: Fields, options: WriteOptions) {
        guard case .object(let object) = body else { throw .invalidRequest("the request body must be a JSON object") }
        for key in object.keys.sorted() where !["fields", "typecast", "returnFieldsByFieldId"].contains(key) {
            throw .invalidRequest("unknown key \"\(key)\" in the request body")
        }
        guard let fields = object["fields"] else { throw .missingFields }
        guard case .object(let cells) = fields else { throw .invalidRequest("\"fields\" must be an object") }
        let options = WriteOptions(typecast: try flag(object["typecast"], "typecast"),
                                   returnFieldsByFieldId: try flag(object["returnFieldsByFieldId"], "returnFieldsByFieldId"))
        return (cells, options)
    }

    /// `true`/`false`; `null` or absent is false (pyairtable always sends both flags).
    private static func flag(_ value: JSONValue?, _ name: String) throws(APIError) -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let flag)?: return flag
        default: throw .invalidRequest("\(name) must be a boolean")
        }
    }
}
