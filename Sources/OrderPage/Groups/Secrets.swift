/// A group's id (the link's capability) and a browser's key (the cookie proving whose lines are whose):
/// 128 random bits each, written as 32 lowercase hex digits. Made from the system's generator (getrandom,
/// cryptographically secure), so neither can be guessed from another.
public struct Secret128: Sendable, Hashable, CustomStringConvertible {
    /// The 32 hex digits.
    public let hex: String

    /// A new random value.
    public static func make() -> Secret128 {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next() as UInt64, generator.next() as UInt64]
        let hex = words.map { word -> String in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
        return Secret128(checkedHex: hex)
    }

    /// The value written as `text`, or nil unless it is exactly 32 lowercase hex digits.
    public init?(_ text: some StringProtocol) {
        guard text.utf8.count == 32, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        hex = String(text)
    }

    private init(checkedHex: String) { hex = checkedHex }

    public var description: String { hex }
}

/// Which group: the id in its link (`/order/g/<id>`).
public typealias GroupID = Secret128
/// Which browser: the key its cookie carries.
public typealias BrowserKey = Secret128
