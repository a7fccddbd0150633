import Airtable
import AirtableHTTP
import Foundation

/// What a request to a held table is (`AirtableGateway+HeldWrites`): a plain update the gateway may hold, the
/// records a forwarded write may touch, what only the base can answer; and the copy's answers as the base's.
extension AirtableGateway {

    /// The records with held writes that a write forwarded to the base may touch, which must reach it first;
    /// nil for all of them. A create touches none; a delete or an update by id, its ids; an upsert, its ids
    /// and every held record whose merge fields hold the same values in the copy (compared loosely, as text
    /// ignoring case: sending more first is always safe).
    func recordsTouched(route: Route, method: String, body: [UInt8], table: String) async -> Set<String>? {
        guard let held else { return nil }
        if case .record(_, _, let id) = route { return [id] }
        if method == "DELETE" {
            // `records[]=rec…` in the query: the gateway cannot see them here, so everything goes first.
            return nil
        }
        guard let json = try? JSONParser.parse(body), let list = json["records"]?.arrayValue else {
            return method == "POST" ? [] : nil
        }
        if method == "POST" { return [] }
        var touched = Set(list.compactMap { $0["id"]?.stringValue })
        guard let upsert = json["performUpsert"], !upsert.isNull else { return touched }
        guard let names = upsert["fieldsToMergeOn"]?.arrayValue?.compactMap(\.stringValue), !names.isEmpty else { return nil }
        let wanted = Set(list.filter { $0["id"] == nil }.map { item in
            names.map { Self.looseText(item["fields"]?[$0]) }
        })
        guard !wanted.isEmpty else { return touched }
        let pending = held.state.withLock { $0.pending[table].map { Array($0.keys) } ?? [] }
        for id in pending {
            guard let record = try? await held.mirror.getRecord(in: table, id: id, options: ReadOptions()) else { return nil }
            if wanted.contains(names.map { Self.looseText(record.fields[$0]) }) { touched.insert(id) }
        }
        return touched
    }

    static func looseText(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: ""
        case .string(let text)?: text.lowercased()
        case .number(let number)?: number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case let other?: String(decoding: JSONWriter.bytes(other), as: UTF8.self).lowercased()
        }
    }

    /// The same request for the copy, under the copy's own token.
    func mirrorRequest(_ request: APIRequest, held: HeldWrites) -> APIRequest {
        var copy = request
        copy.headers = request.headers.filter { $0.name.lowercased() != "authorization" }
            + [(name: "Authorization", value: "Bearer " + held.mirrorToken)]
        return copy
    }

    /// An answer of the copy, with the headers the base's last answer gave (what an upstream `drinkshop
    /// serve` keeps unique and guards), as a forwarded answer would have.
    func relayed(_ answer: APIResponse) -> APIResponse {
        var headers = answer.headers.filter { $0.name.lowercased() == "content-type" || $0.name.lowercased() == "retry-after" }
        headers += lastRelayedHeaders.withLock { $0 }
        return APIResponse(status: answer.status, headers: headers, body: answer.body)
    }

    /// The records of a PATCH that is a plain update by id (what is held), and its typecast; nil otherwise.
    static func holdableWrites(route: Route, body: [UInt8]) -> (records: [RecordUpdate], typecast: Bool)? {
        guard let json = try? JSONParser.parse(body), let object = json.objectValue else { return nil }
        let allowed: Set<String> = ["records", "fields", "typecast", "returnFieldsByFieldId"]
        guard Set(object.keys).isSubset(of: allowed), json["returnFieldsByFieldId"]?.boolValue != true else { return nil }
        let typecast = json["typecast"]?.boolValue ?? false
        var records: [RecordUpdate] = []
        switch route {
        case .record(_, _, let id):
            guard object["records"] == nil, let fields = json["fields"]?.objectValue else { return nil }
            records = [RecordUpdate(id: id, fields: fields)]
        case .table:
            guard object["fields"] == nil, let list = json["records"]?.arrayValue, (1...10).contains(list.count) else { return nil }
            for item in list {
                guard let object = item.objectValue, Set(object.keys).isSubset(of: ["id", "fields"]),
                      let id = item["id"]?.stringValue, let fields = item["fields"]?.objectValue else { return nil }
                records.append(RecordUpdate(id: id, fields: fields))
            }
        default:
            return nil
        }
        // Fields named by id are the base's ids, which the copy does not have.
        for record in records where record.fields.keys.contains(where: { AirtableID.isValid($0, prefix: "fld") }) {
            return nil
        }
        return (records, typecast)
    }

    /// Whether a read or write asks for fields by id (`returnFieldsByFieldId`, `fields[]=fld…`).
    static func asksForFieldIDs(query: String, body: [UInt8]) -> Bool {
        if query.contains("returnFieldsByFieldId=true") || query.contains("returnFieldsByFieldId=1") { return true }
        let decoded = query.removingPercentEncoding ?? query
        if decoded.contains("=fld") { return true }
        guard !body.isEmpty, let json = try? JSONParser.parse(body) else { return false }
        if json["returnFieldsByFieldId"]?.boolValue == true { return true }
        return (json["fields"]?.arrayValue ?? []).contains { $0.stringValue.map { AirtableID.isValid($0, prefix: "fld") } ?? false }
    }

    /// Whether a read names a view (`view=`), whose filters and order only the base knows.
    static func namesAView(query: String, body: [UInt8]) -> Bool {
        if query.split(separator: "&").contains(where: { $0.hasPrefix("view=") }) { return true }
        guard !body.isEmpty, let json = try? JSONParser.parse(body), let view = json["view"] else { return false }
        return !view.isNull
    }

    /// A field of the base as the copy creates it.
    static func spec(_ field: FieldSchema) -> FieldSpec {
        FieldSpec(name: field.name, type: field.type, description: field.description, options: field.options)
    }
}

extension Route {
    /// The table of a record route (listing, list by POST, one record).
    var recordTable: String? {
        switch self {
        case .table(_, let table), .listRecords(_, let table), .record(_, let table, _): table
        default: nil
        }
    }

    /// The table of a metadata route that changes a table's fields.
    var metaTableName: String? {
        switch self {
        case .fields(_, let table), .metaTable(_, let table), .metaField(_, let table, _): table
        default: nil
        }
    }
}
