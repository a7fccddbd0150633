import Airtable
/// Percent-encoding by hand, leaving only RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`)
/// as they are. Foundation's `URLComponents` leaves `+`, `/`, `'` and more alone, and a `+` in a
/// query reads as a space on the server (reference §0.4, §15), so nothing here goes through it.
public enum PercentEncoding {
    /// `text` with every byte outside the unreserved set written as `%XX` (UTF-8, upper-case hex):
    /// `Drink Orders/2024 & 大杯` becomes `Drink%20Orders%2F2024%20%26%20%E5%A4%A7%E6%9D%AF`.
    public static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A query string from name-value pairs, in the order given, names and values both encoded.
    public static func query(_ items: [(name: String, value: String)]) -> String {
        items.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
