import Airtable
import Foundation

/// The shapes of link, collaborator and barcode cells. A link cell is checked here for its form only
/// (record ids); whether the records exist is `LinkKeeper`'s job, which can read the linked table.
enum CellLinks {
    /// A link cell: an array of record ids, repeats dropped. With typecast a comma-separated string is
    /// read too, and names that are not ids are kept for `LinkKeeper` to look up by primary field.
    static func links(_ value: JSONValue, typecast: Bool, _ reject: (String) -> APIError) throws -> JSONValue {
        var items: [String]
        switch value {
        case .array(let list):
            items = try list.map { item in
                guard let text = item.stringValue else {
                    throw reject("a link is an array of record ids, and \(describe(item)) is not one")
                }
                return text
            }
        case .string(let text) where typecast:
            items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        default:
            throw reject("a link is an array of record ids, not \(describe(value))")
        }
        var seen = Set<String>()
        var ids: [JSONValue] = []
        for item in items where seen.insert(item).inserted {
            if !typecast && !AirtableID.isValid(item, prefix: "rec") {
                throw APIError(status: 422, type: "INVALID_RECORD_ID", message: "Value \"\(item)\" is not a valid record ID.")
            }
            ids.append(.string(item))
        }
        return .array(ids)
    }

    /// One collaborator, named by `id` or `email` (with typecast also by e-mail or name as text), who
    /// must be one of the base's users; stored as `{id, email, name}`.
    static func collaborator(_ value: JSONValue, users: [Collaborator], typecast: Bool,
                             _ reject: (String) -> APIError) throws -> JSONValue {
        let found: Collaborator?
        switch value {
        case .object(let object):
            if let id = object["id"]?.stringValue {
                found = users.first { $0.id == id }
            } else if let email = object["email"]?.stringValue {
                found = users.first { $0.email.lowercased() == email.lowercased() }
            } else {
                throw reject("a collaborator is an object with \"id\" or \"email\", not \(describe(value))")
            }
        case .string(let text) where typecast:
            found = users.first { $0.id == text || $0.email.lowercased() == text.lowercased() || $0.name == text }
        default:
            throw reject("a collaborator is an object with \"id\" or \"email\", not \(describe(value))")
        }
        guard let found else { throw reject("\(describe(value)) is not a collaborator of this base") }
        return found.json
    }

    static func collaborators(_ value: JSONValue, users: [Collaborator], typecast: Bool,
                              _ reject: (String) -> APIError) throws -> JSONValue {
        let items: [JSONValue]
        switch value {
        case .array(let list): items = list
        case .string(let text) where typecast:
            items = text.split(separator: ",").map { .string($0.trimmingCharacters(in: .whitespaces)) }
        default: throw reject("an array of collaborators is needed, not \(describe(value))")
        }
        var seen = Set<String>()
        var result: [JSONValue] = []
        for item in items {
            let user = try collaborator(item, users: users, typecast: typecast, reject)
            if let id = user["id"]?.stringValue, seen.insert(id).inserted { result.append(user) }
        }
        return .array(result)
    }

    /// A barcode: `{text, type?}`; with typecast plain text is its `text`.
    static func barcode(_ value: JSONValue, typecast: Bool, _ reject: (String) -> APIError) throws -> JSONValue {
        switch value {
        case .object(let object):
            guard let text = object["text"]?.stringValue else {
                throw reject("a barcode is an object with \"text\", not \(describe(value))")
            }
            if let key = object.keys.sorted().first(where: { $0 != "text" && $0 != "type" }) {
                throw reject("a barcode has only \"text\" and \"type\", not \"\(key)\"")
            }
            var stored: [String: JSONValue] = ["text": .string(text)]
            if let type = object["type"], !type.isNull {
                guard let name = type.stringValue else { throw reject("a barcode's \"type\" must be text") }
                stored["type"] = .string(name)
            }
            return text.isEmpty ? .null : .object(stored)
        case .string(let text) where typecast:
            return text.isEmpty ? .null : ["text": .string(text)]
        default:
            throw reject("a barcode is an object with \"text\", not \(describe(value))")
        }
    }
}
