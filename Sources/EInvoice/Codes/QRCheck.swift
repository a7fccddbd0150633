import CCrypto

/// The QR code's 加密驗證資訊: Base64 of AES-128-CBC (PKCS#7 padding) over the ASCII of the invoice number
/// and random code (14 characters), with the shop's QR key and the Ministry's fixed IV
/// `0EDF25C93A28D7B5FF5E45DA42F8A1B8`; always 24 characters.
enum QRCheck {
    static let iv: [UInt8] = [0x0E, 0xDF, 0x25, 0xC9, 0x3A, 0x28, 0xD7, 0xB5, 0xFF, 0x5E, 0x45, 0xDA, 0x42, 0xF8, 0xA1, 0xB8]

    /// The check value of `plaintext`; nil only when libcrypto fails (out of memory).
    static func value(of plaintext: String, key: QRKey) -> String? {
        encrypt(Array(plaintext.utf8), key: key.bytes).map(base64)
    }

    static func encrypt(_ input: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard key.count == 16, let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        guard EVP_EncryptInit_ex(context, EVP_aes_128_cbc(), nil, key, iv) == 1 else { return nil }
        var output = [UInt8](repeating: 0, count: input.count + 16)
        var written: Int32 = 0
        var finished: Int32 = 0
        let ok = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress,
                  EVP_EncryptUpdate(context, base, &written, input, Int32(input.count)) == 1 else { return false }
            return EVP_EncryptFinal_ex(context, base + Int(written), &finished) == 1
        }
        guard ok else { return nil }
        return Array(output.prefix(Int(written + finished)))
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<4 {
                result.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 0x3F] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: result, as: UTF8.self)
    }
}
