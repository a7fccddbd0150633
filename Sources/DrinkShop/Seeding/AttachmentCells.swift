import Airtable
import Foundation

/// Attachment cells as stores keep them. A seed file names an image by its `url`; the embedded store
/// keeps that URL and adds an id and a filename, while Airtable copies the file and answers with its
/// own short-lived `…airtableusercontent.com` URL (expiring after about 2 hours), an id and the
/// filename it took from the original URL. Airtable replaces a cell's attachments unless the ids of
/// the ones to keep are sent.
enum AttachmentCells {
    /// Whether `url` is one of Airtable's expiring copies (never worth storing elsewhere).
    static func isExpiring(_ url: String) -> Bool {
        // Only a URL naming that host can be on it; the others are not parsed.
        guard mentions(url, "airtableusercontent.com") else { return false }
        guard let host = URL(string: url)?.host?.lowercased() else { return false }
        return host == "airtableusercontent.com" || host.hasSuffix(".airtableusercontent.com")
    }

    /// Whether `text`, with its ASCII letters lowercased, contains `word` (lowercase ASCII), compared byte
    /// by byte.
    private static func mentions(_ text: String, _ word: String) -> Bool {
        let needle = Array(word.utf8)
        let bytes = text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == first {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// Whether the stored attachment is the one the seed names: the same URL, or (for a copy Airtable
    /// serves under an expiring URL) the same filename, given or taken from the seed's URL.
    static func isSame(stored: JSONValue, wanted: JSONValue) -> Bool {
        guard let storedURL = stored["url"]?.stringValue else { return false }
        if storedURL == wanted["url"]?.stringValue { return true }
        guard isExpiring(storedURL), let name = filename(of: wanted) else { return false }
        return stored["filename"]?.stringValue == name
    }

    /// Whether the stored cell holds exactly the seed's attachments, in order.
    static func match(stored: JSONValue, wanted: JSONValue) -> Bool {
        let held = stored.arrayValue ?? [], named = wanted.arrayValue ?? []
        return held.count == named.count && zip(held, named).allSatisfy { isSame(stored: $0, wanted: $1) }
    }

    /// The cell to send so the attachments the store already holds are kept rather than sent again: each
    /// one the seed names that is stored goes as its id (with its URL when that URL lasts, for stores
    /// that want one); new ones go as the seed gives them.
    static func toSend(stored: JSONValue?, wanted: JSONValue) -> JSONValue {
        guard let items = wanted.arrayValue else { return wanted }
        var unused = stored?.arrayValue ?? []
        return .array(items.map { item in
            guard let index = unused.firstIndex(where: { isSame(stored: $0, wanted: item) }),
                  let id = unused[index]["id"]?.stringValue else { return item }
            let kept = unused.remove(at: index)
            if let url = kept["url"]?.stringValue, !isExpiring(url) { return .object(["id": .string(id), "url": .string(url)]) }
            return .object(["id": .string(id)])
        })
    }

    /// The filename a store gives the seed's attachment: its own, or the last segment of its URL.
    private static func filename(of wanted: JSONValue) -> String? {
        if let name = wanted["filename"]?.stringValue, !name.isEmpty { return name }
        guard let url = wanted["url"]?.stringValue, let path = URL(string: url)?.path else { return nil }
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        let decoded = last.removingPercentEncoding ?? last
        return decoded.isEmpty ? nil : decoded
    }
}
