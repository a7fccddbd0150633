import Foundation

/// How many records one create, update or upsert request may carry. Airtable takes ten and refuses more. A
/// server that commits each request whole (`drinkshop serve` on its embedded store) takes more from a client that
/// asks for it: it names its limit in a response header on every answer, and a client that has seen it sends
/// bigger batches with the same header on the request. A request without the header keeps Airtable's ten, so a
/// client written for Airtable meets Airtable's refusal here too.
///
/// A bigger batch is still one request: written whole or not at all, one after another, so a failure stops at
/// that batch as before; only the number of requests (and of durable commits) falls.
public struct WriteBatchLimit: Sendable, Hashable {
    /// The header: on an answer, the records the server takes per request from a client that asks; on a request,
    /// that the client asks for them.
    public static let header = "X-DrinkShop-Write-Batch"
    /// Airtable's limit, and every server's for a request without the header.
    public static let airtable = WriteBatchLimit(records: 10)
    /// What `drinkshop serve` takes on a store that commits a request whole: 2,000 drinks in 4 requests. A request's
    /// work stays bounded by the server's 2 MiB body limit, as it was with ten long records.
    public static let served = WriteBatchLimit(records: 500)
    /// The most any client sends in one request, whatever a server says.
    public static let largest = 1_000
    /// A batch grows past Airtable's ten only while its body stays within this many bytes (the server reads
    /// bodies of up to 2 MiB): long cells make smaller batches, never a refused one.
    public static let bodyBytes = 1_024 * 1_024

    /// Records per request.
    public let records: Int

    public init(records: Int) { self.records = max(1, min(records, Self.largest)) }

    /// Reads the header's value; nil unless it is a whole number beyond Airtable's ten.
    public init?(header: String) {
        guard let number = Int(header.trimmingCharacters(in: .whitespaces)), number > Self.airtable.records else {
            return nil
        }
        self.init(records: number)
    }

    /// The header's value.
    public var headerValue: String { String(records) }
}
