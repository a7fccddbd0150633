import CCrypto

/// HMAC-SHA256 through libcrypto (the library the PIN hashes use), for signing webhook notifications the
/// way Airtable does (`X-Airtable-Content-MAC: hmac-sha256=<hex>`).
enum WebhookSignature {
    /// HMAC-SHA256 of `message` under `key` (RFC 2104).
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let signed = key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress,
                     messageBytes.count, &digest, &length)
            }
        }
        // HMAC fails only when the digest is unavailable; an empty signature then fails verification.
        guard signed != nil else { return [] }
        return Array(digest.prefix(Int(length)))
    }

    /// Lower-case hex, as Airtable writes the MAC.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }
}
