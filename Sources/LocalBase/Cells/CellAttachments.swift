import Airtable
import Foundation

/// Attachment cells: an array of `{url, filename?}`. Each stored attachment gets an `att…` id (kept
/// when the client sends one back) and a filename (from the URL when none is given).
enum CellAttachments {
    static func normalize(_ value: JSONValue, typecast: Bool, _ reject: (String) -> APIError) throws -> JSONValue {
        let items: [JSONValue]
        switch value {
        case .array(let list): items = list
        case .string where typecast, .object where typecast: items = [value]
        default: throw reject("an array of attachments ({\"url\": ...}) is needed, not \(describe(value))")
        }
        var stored: [JSONValue] = []
        for (index, item) in items.enumerated() {
            let object: [String: JSONValue]
            switch item {
            case .object(let members): object = members
            case .string(let url) where typecast: object = ["url": .string(url)]
            default: throw reject("attachment \(index + 1) must be an object with a \"url\", not \(describe(item))")
            }
            guard let url = object["url"]?.stringValue, isWebURL(url) else {
                throw reject("attachment \(index + 1) needs a \"url\" that is an http or https address")
            }
            var entry: [String: JSONValue] = ["url": .string(url)]
            if let id = object["id"]?.stringValue, AirtableID.isValid(id, prefix: "att") {
                entry["id"] = .string(id)
            } else {
                entry["id"] = .string(AirtableID.make("att"))
            }
            switch object["filename"] {
            case .string(let name)? where !name.isEmpty: entry["filename"] = .string(name)
            case nil, .null?, .string?: entry["filename"] = .string(filename(from: url))
            case let other?: throw reject("the filename of attachment \(index + 1) must be text, not \(describe(other))")
            }
            if let size = object["size"], case .number = size { entry["size"] = size }
            if let type = object["type"], case .string = type { entry["type"] = type }
            stored.append(.object(entry))
        }
        return .array(stored)
    }

    private static func isWebURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host else { return false }
        return (scheme == "http" || scheme == "https") && !host.isEmpty
    }

    /// The last path segment of the URL, percent-decoded; "attachment" if it has none.
    static func filename(from url: String) -> String {
        let path = URL(string: url)?.path ?? ""
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        let decoded = last.removingPercentEncoding ?? last
        return decoded.isEmpty ? "attachment" : decoded
    }
}
