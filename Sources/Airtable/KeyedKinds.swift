/// Records a server that keeps a table's key unique (`UniqueKeys`) takes only under a key of one shape: records of
/// one kind (a payment) are created under `<basis cell>#<count>` (`TillPayment.ref` = `orderRef#entries`), so two
/// writers that worked them out from one state share the key and the server takes one. A writer that predates the
/// key (it creates such a record with no key, or another one, and trusts a read-back instead) could otherwise take a
/// second one beside a keyed writer's: its create is refused with the rule's `refusal`. Kept by the server only (not
/// said in the header: a writer that knows the key needs no telling).
public struct KeyedKinds: Sendable, Hashable {
    public struct Rule: Sendable, Hashable {
        /// The cell naming the record's kind, and the kind that must carry the key.
        public var kindField: String
        public var kind: String
        /// The cell the key is made from (the key is that cell's text, `#` and a count).
        public var basisField: String
        /// The message of the refusal, for the staff of a writer that predates the rule.
        public var refusal: String

        public init(kindField: String, kind: String, basisField: String, refusal: String) {
            self.kindField = kindField
            self.kind = kind
            self.basisField = basisField
            self.refusal = refusal
        }
    }

    /// The error type (status 422) of a refused create.
    public static let refusalType = "KEY_REQUIRED"

    public private(set) var ruleByTable: [String: Rule]

    public init(_ ruleByTable: [String: Rule] = [:]) { self.ruleByTable = ruleByTable }

    /// The refusal of records created in `table` (no id) of the rule's kind whose key (`keyField`) is not
    /// `<basis>#<count>`; nil when every record may be written.
    public func refusal(in table: String, keyField: String, _ records: [(id: String?, fields: Fields)]) -> String? {
        guard let rule = ruleByTable[table] else { return nil }
        for record in records where record.id == nil && record.fields[rule.kindField]?.stringValue == rule.kind {
            guard let basis = record.fields[rule.basisField]?.stringValue, !basis.isEmpty,
                  let key = record.fields[keyField]?.stringValue, key.hasPrefix(basis + "#")
            else { return rule.refusal }
            let count = key.dropFirst(basis.count + 1)
            if count.isEmpty || !count.allSatisfy({ $0.isASCII && $0.isNumber }) { return rule.refusal }
        }
        return nil
    }
}
