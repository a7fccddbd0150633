import Airtable
import Foundation

/// The live listings of one open base, behind the offsets it hands out.
///
/// An offset is `itr` + 14 base62 + `/` + the id of the first record of the next page. The iterator
/// remembers where the listing stands (a position in creation order, or the sorted snapshot of the
/// matching records), so each page costs the page, not the table. Iterators live in memory: an offset
/// from before a restart, or unused for longer than `lifetime`, is no longer available.
final class ListIterators {
    /// Where a listing resumes.
    enum Position {
        /// Creation order: records with seq in `after+1 ... ceiling` (the ceiling is the last seq when the
        /// listing began, so records added meanwhile neither shift pages nor appear half-way).
        case creationOrder(after: Int64, ceiling: Int64)
        /// A sort: the matching records (seq and id) in order, fixed at the first page, and the next index.
        case sorted(entries: [(seq: Int64, id: String)], next: Int)
    }

    struct Iterator {
        var tableID: String
        var position: Position
        /// Records still allowed by maxRecords; nil for no cap.
        var remaining: Int?
        /// The record id the offset names, checked when the offset comes back.
        var nextRecordID: String
        var lastUsed: Date
    }

    private let lifetime: TimeInterval
    private var live: [String: Iterator] = [:]
    /// Bounds the memory a client that never finishes its listings can pin (a sorted listing keeps the
    /// ids of all its matches).
    private let capacity = 128

    init(lifetime: Duration) {
        let parts = lifetime.components
        self.lifetime = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// Parses an offset and returns its live iterator; throws INVALID_OFFSET_VALUE for a malformed one
    /// and LIST_RECORDS_ITERATOR_NOT_AVAILABLE for one unknown, expired or from another table.
    func resume(_ offset: String, tableID: String, now: Date) throws -> (key: String, iterator: Iterator) {
        let parts = offset.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, AirtableID.isValid(String(parts[0]), prefix: "itr"),
              AirtableID.isValid(String(parts[1]), prefix: "rec")
        else { throw APIError.invalidOffset(offset) }
        let key = String(parts[0])
        guard let iterator = live[key] else { throw APIError.iteratorNotAvailable }
        guard now.timeIntervalSince(iterator.lastUsed) <= lifetime else {
            live[key] = nil
            throw APIError.iteratorNotAvailable
        }
        guard iterator.tableID == tableID, iterator.nextRecordID == parts[1] else {
            throw APIError.iteratorNotAvailable
        }
        return (key, iterator)
    }

    /// Stores `iterator` (under `key`, or a new key) and returns the offset for the next page.
    func store(_ iterator: Iterator, key: String?) -> String {
        let key = key ?? AirtableID.make("itr")
        live[key] = iterator
        if live.count > capacity {
            live = live.filter { iterator.lastUsed.timeIntervalSince($0.value.lastUsed) <= lifetime }
        }
        if live.count > capacity { evictOldest() }
        return key + "/" + iterator.nextRecordID
    }

    /// Forgets a finished listing.
    func finish(_ key: String?) {
        if let key { live[key] = nil }
    }

    private func evictOldest() {
        let ordered = live.sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (key, _) in ordered.prefix(live.count - capacity) { live[key] = nil }
    }
}
