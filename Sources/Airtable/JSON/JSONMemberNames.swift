/// The member names a parse keeps, each with the name it is kept under (`JSONParser.parseObject(_:renaming:)`).
///
/// A member's name is looked up by its bytes in the text, so a parse that keeps a few members of many
/// builds no `String` for the names it meets and hashes them once (FNV-1a, in an open-addressed table),
/// where a `Set<String>` lookup builds each name (a heap string past 15 bytes) and hashes it with SipHash.
public struct JSONMemberNames: Sendable {
    private struct Slot: Sendable {
        var key: [UInt8]
        var name: String
    }

    private let slots: [Slot?]
    private let mask: Int
    /// How many members are kept.
    public let count: Int

    /// - Parameter renaming: each member name kept, and the name it is kept under.
    public init(_ renaming: [String: String]) {
        var size = 8
        while size < renaming.count * 2 { size *= 2 }
        var slots = [Slot?](repeating: nil, count: size)
        for (key, name) in renaming {
            let bytes = Array(key.utf8)
            var at = Self.hash(bytes) & (size - 1)
            while slots[at] != nil { at = (at + 1) & (size - 1) }
            slots[at] = Slot(key: bytes, name: name)
        }
        self.slots = slots
        mask = size - 1
        count = renaming.count
    }

    /// The name `key` (a member name's UTF-8 bytes, unescaped) is kept under; nil when it is not kept.
    func name(of key: UnsafeBufferPointer<UInt8>) -> String? {
        var at = Self.hash(key) & mask
        while let slot = slots[at] {
            if slot.key.elementsEqual(key) { return slot.name }
            at = (at + 1) & mask
        }
        return nil
    }

    private static func hash(_ bytes: some Sequence<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}

extension JSONParser {
    /// Parses JSON text that must be one object, keeping only the members `names` names, each under the
    /// name it gives, and (with `droppingEmptyCells`) none whose value is an empty cell (`isEmptyCell`).
    /// The other members are checked as JSON and skipped, never built.
    public static func parseObject(_ text: String, renaming names: JSONMemberNames, droppingEmptyCells: Bool)
        throws(JSONSyntaxError) -> [String: JSONValue]
    {
        try wholeObject(text) { (parser) throws(JSONSyntaxError) in
            try parser.parseMembers(renaming: names, droppingEmptyCells: droppingEmptyCells)
        }
    }
}
