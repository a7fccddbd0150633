import Airtable
import Foundation

/// Reads the API's answers loosely, as reference §9 and §15 advise: a missing `fields` is empty, a
/// missing list is empty, numbers may be whole or not, errors may come in any of three shapes.
enum ResponseDecoding {
    /// The JSON of a successful response; an empty body reads as `{}` (some endpoints send none).
    static func json(_ body: [UInt8], context: String) throws(AirtableError) -> JSONValue {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        do {
            return try JSONParser.parse(body)
        } catch {
            throw .decoding("the answer to \(context) is not JSON (\(error))")
        }
    }

    static func records(_ json: JSONValue, context: String) throws(AirtableError) -> [Record] {
        guard let list = json["records"] else { return [] }
        guard let items = list.arrayValue else {
            throw .decoding("the answer to \(context) has \"records\" as \(list.kindDescription), not a list")
        }
        var records: [Record] = []
        records.reserveCapacity(items.count)
        for item in items { records.append(try Record(json: item)) }
        return records
    }

    static func page(_ json: JSONValue, context: String) throws(AirtableError) -> RecordPage {
        let offset = json["offset"]?.stringValue
        return RecordPage(records: try records(json, context: context), offset: offset?.isEmpty == true ? nil : offset)
    }

    static func upsert(_ json: JSONValue, context: String) throws(AirtableError) -> UpsertResult {
        UpsertResult(records: try records(json, context: context),
                     createdRecords: try ids(json["createdRecords"], name: "createdRecords", context: context),
                     updatedRecords: try ids(json["updatedRecords"], name: "updatedRecords", context: context))
    }

    /// The ids a batch delete reports as deleted, in order.
    static func deletedIDs(_ json: JSONValue, context: String) throws(AirtableError) -> [String] {
        guard let items = json["records"]?.arrayValue else {
            throw .decoding("the answer to \(context) lists no deleted records")
        }
        var ids: [String] = []
        for item in items {
            guard let id = item["id"]?.stringValue else {
                throw .decoding("the answer to \(context) has a deleted record without an id")
            }
            if item["deleted"]?.boolValue != false { ids.append(id) }
        }
        return ids
    }

    private static func ids(_ value: JSONValue?, name: String, context: String) throws(AirtableError) -> [String] {
        guard let value, !value.isNull else { return [] }
        guard let items = value.arrayValue else {
            throw .decoding("the answer to \(context) has \"\(name)\" as \(value.kindDescription), not a list")
        }
        var ids: [String] = []
        for item in items {
            guard let id = item.stringValue else {
                throw .decoding("the answer to \(context) has a non-text id in \"\(name)\"")
            }
            ids.append(id)
        }
        return ids
    }

    /// The error of a failed response: any of Airtable's three body shapes, else a type named after
    /// the status (as airtable.js names them) with the start of the body as the message.
    static func apiError(status: Int, body: [UInt8]) -> APIError {
        if let json = try? JSONParser.parse(body), let error = APIError(status: status, body: json) {
            return error
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
            .filter { !$0.isNewline }
            .trimmingCharacters(in: .whitespaces)
        return APIError(status: status, type: fallbackType(status), message: text.isEmpty ? nil : text)
    }

    private static func fallbackType(_ status: Int) -> String {
        switch status {
        case 400: return "BAD_REQUEST"
        case 401: return "AUTHENTICATION_REQUIRED"
        case 403: return "NOT_AUTHORIZED"
        case 404: return "NOT_FOUND"
        case 413: return "REQUEST_TOO_LARGE"
        case 414: return "URL_TOO_LONG"
        case 422: return "UNPROCESSABLE_ENTITY"
        case 429: return "TOO_MANY_REQUESTS"
        case 500: return "SERVER_ERROR"
        case 502: return "BAD_GATEWAY"
        case 503: return "SERVICE_UNAVAILABLE"
        case 504: return "GATEWAY_TIMEOUT"
        default: return "UNEXPECTED_ERROR"
        }
    }
}
