import CCrypto

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

/// A secret's SHA-256, as 64 lowercase hex digits: what the store keeps in its place (`OnlineGroup`), so a copy
/// of the store (a backup, a token with the till's scope) holds no link or cookie that works. 128 random bits
/// cannot be found again from their digest.
public struct SecretDigest: Sendable, Hashable, Codable, CustomStringConvertible {
    public let hex: String

    fileprivate init(hex: String) { self.hex = hex }

    /// The digest written as `text`, or nil unless it is exactly 64 lowercase hex digits.
    init?(_ text: String) {
        guard text.utf8.count == 64, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            return nil
        }
        hex = text
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let digest = SecretDigest(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a SHA-256 digest"))
        }
        self = digest
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    public var description: String { hex }
}

extension Secret128 {
    /// This value's SHA-256 (of its 32 hex digits).
    public var digest: SecretDigest {
        let message = Array(hex.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = message.withUnsafeBufferPointer { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_sha256(), nil)
        }
        // SHA-256 is always there in libcrypto; were it not, a random digest matches nothing (the group or the
        // browser's lines are then not found: refused, never mixed up, and the secret never written).
        guard done == 1, length == 32 else { return SecretDigest(hex: Secret128.make().hex + Secret128.make().hex) }
        let digits = Array("0123456789abcdef")
        return SecretDigest(hex: String(digest.prefix(32).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }))
    }
}
