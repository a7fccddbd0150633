import CCrypto

/// HMAC-SHA256 under a secret key, checked in constant time: a file only the key's owner can have made.
public struct SecretSeal: Sendable {
    private let key: [UInt8]

    /// - Parameter key: the secret (at least 16 bytes; a shorter key seals nothing, so nothing it "sealed" holds).
    public init(key: [UInt8]) { self.key = key }

    /// The seal of `message`, in lower-case hex; empty when the key is too short or libcrypto refuses.
    public func seal(_ message: String) -> String {
        guard key.count >= 16 else { return "" }
        let bytes = Array(message.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let signed = key.withUnsafeBufferPointer { keyBytes in
            bytes.withUnsafeBufferPointer { messageBytes in
                HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress, messageBytes.count,
                     &digest, &length)
            }
        }
        guard signed != nil, length > 0 else { return "" }
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.prefix(Int(length)).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
    }

    /// Whether `seal` is `message`'s, compared in constant time (an empty seal never is).
    public func holds(_ seal: String, for message: String) -> Bool {
        let expected = Array(self.seal(message).utf8)
        let given = Array(seal.utf8)
        guard !expected.isEmpty, expected.count == given.count else { return false }
        return expected.withUnsafeBytes { a in given.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
