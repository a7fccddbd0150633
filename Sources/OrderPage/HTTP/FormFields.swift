/// The fields of an `application/x-www-form-urlencoded` body or a query string, as browsers send them:
/// `name=value` pairs joined by `&`, `+` for a space, `%XX` for a byte, UTF-8 throughout. A field may occur
/// several times (checkboxes). Malformed escapes and text that is not UTF-8 make the whole form unreadable
/// (nil) rather than half-read.
struct FormFields: Sendable, Equatable {
    /// The longest body the page reads; its forms are far smaller.
    static let maximumBytes = 8 * 1024
    /// The most fields one form may have.
    static let maximumFields = 64

    private(set) var pairs: [(name: String, value: String)]

    static func == (lhs: FormFields, rhs: FormFields) -> Bool {
        lhs.pairs.map(\.name) == rhs.pairs.map(\.name) && lhs.pairs.map(\.value) == rhs.pairs.map(\.value)
    }

    init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count <= Self.maximumBytes else { return nil }
        var pairs: [(String, String)] = []
        for piece in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = piece.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { return nil }
            guard let value = parts.count > 1 ? Self.decode(parts[1]) : "" else { return nil }
            pairs.append((name, value))
            guard pairs.count <= Self.maximumFields else { return nil }
        }
        self.pairs = pairs
    }

    init?(query: String?) {
        self.init(Array((query ?? "").utf8))
    }

    /// The first value of `name`.
    subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// Every value of `name`, in order.
    func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    private static func decode(_ bytes: some Collection<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): out.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                out.append(high << 4 | low)
            default: out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `text` percent-encoded for a URL's query or path (unreserved characters kept, all else `%XX`).
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}

/// The page's one cookie: the browser's key, which proves which lines are its own.
enum BrowserCookie {
    static let name = "dsorder"

    /// The key in the request's `Cookie` headers, when one is there and well formed.
    static func key(in cookieHeaders: [String]) -> BrowserKey? {
        for header in cookieHeaders {
            for piece in header.split(separator: ";") {
                let pair = piece.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                if let key = BrowserKey(pair[1].trimmingCharacters(in: .whitespaces)) { return key }
            }
        }
        return nil
    }

    /// The `Set-Cookie` value giving the browser `key`: only for this page's paths, never to scripts, never
    /// sent along from another site's form, kept a day (longer than any group lives).
    static func setting(_ key: BrowserKey) -> String {
        "\(name)=\(key.hex); Path=/order; Max-Age=86400; HttpOnly; SameSite=Lax"
    }
}
