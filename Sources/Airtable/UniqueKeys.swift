import Foundation

/// Key fields a server keeps unique within their table: it is one process in front of its store, so it can
/// refuse a second record holding a key's value, atomically, where Airtable itself cannot (Airtable has no
/// unique constraint, and what two concurrent upserts on one key do is undocumented). A server that does so
/// names them in a response header on every answer; a client that has seen the header may rely on a create
/// either holding its key or being refused with `duplicateType`, and needs no claim rule of its own.
public struct UniqueKeys: Sendable, Hashable {
    /// The response header naming them: `PickupTicket.key` (several separated by commas).
    public static let header = "X-DrinkShop-Unique-Keys"
    /// The error type (status 422) of a write that would give a key's value to a second record.
    public static let duplicateType = "DUPLICATE_KEY_VALUE"

    /// Field names by table name.
    public private(set) var fieldByTable: [String: String]
    /// Records created only under their key (`KeyedKinds`): kept by the server, not said in the header.
    public private(set) var keyedKinds: KeyedKinds

    public init(_ fieldByTable: [String: String] = [:], keyedKinds: KeyedKinds = KeyedKinds()) {
        self.fieldByTable = fieldByTable
        self.keyedKinds = keyedKinds
    }

    /// Reads the header's value.
    public init(header: String) {
        var fields: [String: String] = [:]
        for entry in header.split(separator: ",") {
            let parts = entry.trimmingCharacters(in: .whitespaces).split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty { fields[parts[0]] = parts[1] }
        }
        fieldByTable = fields
        keyedKinds = KeyedKinds()
    }

    public var isEmpty: Bool { fieldByTable.isEmpty }

    /// The header's value.
    public var headerValue: String { fieldByTable.sorted { $0.key < $1.key }.map { "\($0.key).\($0.value)" }.joined(separator: ",") }

    public func contains(field: String, in table: String) -> Bool { fieldByTable[table] == field }
}

/// A store that says which key fields the server behind it keeps unique (`UniqueKeys`).
public protocol UniqueKeysReporting: Sendable {
    /// The keys the server has said it keeps unique; empty until it has said so (or if it never does).
    var uniqueKeys: UniqueKeys { get }
}

extension RecordStore {
    /// Whether the store, or the one it forwards to, keeps `field` unique in `table`.
    public func keepsUnique(_ field: String, in table: String) -> Bool {
        if let reporting = self as? any UniqueKeysReporting { return reporting.uniqueKeys.contains(field: field, in: table) }
        if let forwarding = self as? any ForwardingRecordStore { return forwarding.underlying.keepsUnique(field, in: table) }
        return false
    }
}

extension AirtableError {
    /// Whether this is a server's refusal of a key value another record holds (`UniqueKeys.duplicateType`).
    public var isDuplicateKey: Bool { apiError?.type == UniqueKeys.duplicateType }
}
