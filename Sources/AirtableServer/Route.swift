import Airtable

/// Where a request goes, from its raw path. The path is split on `/` BEFORE percent-decoding, so a
/// table named `Orders/2024` arrives as `Orders%2F2024` and stays one segment.
enum Route: Equatable {
    case whoami
    case listBases
    case tables(base: String)
    case fields(base: String, table: String)
    case table(base: String, table: String)
    case listRecords(base: String, table: String)
    case record(base: String, table: String, id: String)
    case baseInfo(base: String)
    case metaTable(base: String, table: String)
    case metaField(base: String, table: String, field: String)
    case comments(base: String, table: String, record: String)
    case comment(base: String, table: String, record: String, id: String)
    case webhooks(base: String)
    case webhook(base: String, id: String)
    /// `…/webhooks/{id}/payloads`, `/refresh` or `/enableNotifications`.
    case webhookAction(base: String, id: String, action: String)

    /// The route of `path` (no query); nil when no route matches. A trailing slash is tolerated.
    init?(path: Substring) {
        guard path.hasPrefix("/") else { return nil }
        var raw = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        if raw.last == "" { raw.removeLast() }
        var segments: [String] = []
        for segment in raw {
            guard !segment.isEmpty, let decoded = QueryString.decodePathSegment(segment) else { return nil }
            segments.append(decoded)
        }
        guard segments.first == "v0" else { return nil }
        let rest = Array(segments.dropFirst())
        if rest.first == "meta" {
            switch Array(rest.dropFirst()) {
            case ["whoami"]: self = .whoami
            case ["bases"]: self = .listBases
            case let s where s.count == 2 && s[0] == "bases": self = .baseInfo(base: s[1])
            case let s where s.count == 3 && s[0] == "bases" && s[2] == "tables": self = .tables(base: s[1])
            case let s where s.count == 4 && s[0] == "bases" && s[2] == "tables":
                self = .metaTable(base: s[1], table: s[3])
            case let s where s.count == 5 && s[0] == "bases" && s[2] == "tables" && s[4] == "fields":
                self = .fields(base: s[1], table: s[3])
            case let s where s.count == 6 && s[0] == "bases" && s[2] == "tables" && s[4] == "fields":
                self = .metaField(base: s[1], table: s[3], field: s[5])
            default: return nil
            }
            return
        }
        // Base ids start with "app", so a first segment "bases" is never a base.
        if rest.first == "bases" {
            switch Array(rest.dropFirst()) {
            case let s where s.count == 2 && s[1] == "webhooks": self = .webhooks(base: s[0])
            case let s where s.count == 3 && s[1] == "webhooks": self = .webhook(base: s[0], id: s[2])
            case let s where s.count == 4 && s[1] == "webhooks"
                && ["payloads", "refresh", "enableNotifications"].contains(s[3]):
                self = .webhookAction(base: s[0], id: s[2], action: s[3])
            default: return nil
            }
            return
        }
        switch rest.count {
        case 2: self = .table(base: rest[0], table: rest[1])
        case 3 where rest[2] == "listRecords": self = .listRecords(base: rest[0], table: rest[1])
        case 3: self = .record(base: rest[0], table: rest[1], id: rest[2])
        case 4 where rest[3] == "comments": self = .comments(base: rest[0], table: rest[1], record: rest[2])
        case 5 where rest[3] == "comments":
            self = .comment(base: rest[0], table: rest[1], record: rest[2], id: rest[4])
        default: return nil
        }
    }

    /// The base the route names, if any.
    var base: String? {
        switch self {
        case .whoami, .listBases: return nil
        case .tables(let base), .fields(let base, _), .table(let base, _), .listRecords(let base, _),
            .record(let base, _, _), .baseInfo(let base), .metaTable(let base, _), .metaField(let base, _, _),
            .comments(let base, _, _), .comment(let base, _, _, _), .webhooks(let base), .webhook(let base, _),
            .webhookAction(let base, _, _):
            return base
        }
    }
}
