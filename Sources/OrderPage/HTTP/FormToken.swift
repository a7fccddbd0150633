import CCrypto

/// The token every form of the page carries (`<input type="hidden" name="token">`), bound to the browser
/// whose page it is: HMAC-SHA256 of the browser's key under a secret the server draws at start and never
/// shows. A post without it changes nothing, whatever its cookie and `Origin`: a page on another port of the
/// same site is "same-site", so the `SameSite=Lax` cookie goes along with its form (through a 307 redirect
/// with `Origin: null`), but it cannot read the victim's page, so it cannot know the token. A restarted
/// server has a new secret: a page opened before asks to be reloaded (``OrderPageRefusal/staleForm``).
struct FormToken: Sendable {
    /// The form field's name.
    static let field = "token"

    private let secret: [UInt8]

    /// A new secret of 256 bits from the system's generator.
    init() {
        var generator = SystemRandomNumberGenerator()
        secret = (0..<4).flatMap { _ -> [UInt8] in
            let word = generator.next() as UInt64
            return (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) }
        }
    }

    /// The token of `browser`'s pages: 64 lowercase hex digits.
    func value(for browser: BrowserKey) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let message = Array(("order-form:" + browser.hex).utf8)
        let signed = secret.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { bytes in
                HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), bytes.baseAddress, bytes.count, &digest, &length)
            }
        }
        // HMAC fails only when SHA-256 is unavailable: then no token matches, and every post is refused.
        guard signed != nil, length > 0 else { return "" }
        let digits = Array("0123456789abcdef")
        return String(digest.prefix(Int(length)).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }

    /// Whether `sent` is `browser`'s token, compared in constant time.
    func accepts(_ sent: String?, for browser: BrowserKey) -> Bool {
        let expected = Array(value(for: browser).utf8)
        guard let sent, !expected.isEmpty else { return false }
        let given = Array(sent.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }

    /// The hidden field for a form of `browser`'s page.
    func hiddenField(for browser: BrowserKey) -> String {
        "<input type=\"hidden\" name=\"\(Self.field)\" value=\"\(value(for: browser))\">"
    }
}
