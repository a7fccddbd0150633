import Airtable
import Synchronization

/// A `RecordStore` on an Airtable base over HTTP: api.airtable.com, or any server that speaks the
/// same API (`drinkshop serve` included).
///
/// - Requests are paced per base by a throttle shared by every task of the process (5 per second by
///   default), and, given a `PacingFile`, by every process of the machine, so well-behaved processes never
///   see a 429; if one does, it honours `Retry-After` (else waits 30 s) and holds every task (and every
///   process sharing the file) until then.
/// - 502, 503, 504 and lost connections are retried with jittered exponential backoff, a bounded number
///   of times, each request within an overall deadline enforced in Swift.
/// - A request whose answer was lost is sent again only when repeating it cannot change the outcome:
///   reads, updates by id, upserts and deletes are; creates are not (use an upsert on a
///   client-generated key for writes that must happen exactly once).
/// - Writes go in batches of ten, one request after another; a failure stops at that batch, and the
///   batches before it stay written, as with Airtable's own clients. A server that says it commits bigger
///   batches whole (`WriteBatchLimit`, `drinkshop serve`) gets them, up to its limit and 1 MiB a request,
///   with the same promise.
/// - URLs and query strings are encoded by hand; a listing whose URL would reach 16,000 characters is
///   sent as `POST …/listRecords`.
///
/// `listRecords` returns one page; `allRecords` (on `RecordStore`) pages through and restarts, a bounded
/// number of times, when Airtable says the cursor expired.
public final class AirtableClient: SchemaEditing, UniqueKeysReporting, CreateGuardsReporting, CustomStringConvertible {
    /// Where the client talks to and how politely.
    public let configuration: Configuration
    let transport: any HTTPTransport
    let clock: any ClientClock
    let throttle: RequestThrottle
    let randomUnit: @Sendable () -> Double
    /// The key fields the server said (in its last answer that said) it keeps unique.
    let reportedUniqueKeys = Mutex(UniqueKeys())
    /// The records per write request the server's last answer said it takes (`WriteBatchLimit`).
    let reportedWriteBatch = Mutex(WriteBatchLimit.airtable)
    let reportedCreateGuards = Mutex(Set<String>())

    /// Airtable's limit on records per write request.
    public static let maximumBatch = 10
    /// Airtable refuses URLs of this many characters or more.
    public static let maximumURLLength = 16_000

    /// - Parameters:
    ///   - transport: the network: `URLSessionTransport.shared` (module AirtableURLSession) in a program, a
    ///     scripted one in tests.
    ///   - clock: monotonic time and waiting; injected by tests.
    ///   - throttle: the pacing of requests; by default the process's shared throttle for this endpoint
    ///     and base.
    ///   - randomUnit: random numbers in `0..<1` for backoff jitter.
    public init(configuration: Configuration, transport: any HTTPTransport,
                clock: any ClientClock = MonotonicClock(), throttle: RequestThrottle? = nil,
                randomUnit: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
        self.throttle = throttle ?? RequestThrottle.shared(
            for: configuration.endpoint + " " + configuration.baseID,
            requestsPerSecond: configuration.requestsPerSecond, burst: configuration.effectiveBurst)
        self.randomUnit = randomUnit
    }

    /// What the server's `UniqueKeys.header` said; empty for Airtable itself, which keeps nothing unique.
    public var uniqueKeys: UniqueKeys { reportedUniqueKeys.withLock { $0 } }
    /// The create guards the last answer named (`CreateGuards.header`); empty for Airtable itself.
    public var createGuards: Set<String> { reportedCreateGuards.withLock { $0 } }

    /// `Airtable base appXXXX at https://api.airtable.com`.
    public var description: String { configuration.description }

    /// The file through which the processes of this machine share this base's pacing and call count.
    public var pacingFile: PacingFile? { throttle.pacingFile }

    // MARK: - Reading

    /// One page: `GET …/{table}?…`, or `POST …/{table}/listRecords` when the URL would be too long.
    public func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        let path = tableURL(table)
        let items = ListQueryEncoding.queryItems(query)
        let getURL = path + (items.isEmpty ? "" : "?" + PercentEncoding.query(items))
        let exchange: APIExchange
        if getURL.utf8.count < AirtableClient.maximumURLLength {
            exchange = APIExchange(method: "GET", url: getURL, context: "listing \(table)", repetition: .safe)
        } else {
            let locale = ListQueryEncoding.localeItems(query)
            let url = path + "/listRecords" + (locale.isEmpty ? "" : "?" + PercentEncoding.query(locale))
            exchange = APIExchange(method: "POST", url: url, body: ListQueryEncoding.body(query),
                                   context: "listing \(table)", repetition: .safe)
        }
        return try ResponseDecoding.page(try await perform(exchange), context: exchange.context)
    }

    /// `GET …/{table}/{id}`.
    public func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record {
        var items: [(name: String, value: String)] = []
        if options.cellFormat != .json { items.append(("cellFormat", options.cellFormat.rawValue)) }
        if let zone = options.timeZone { items.append(("timeZone", zone)) }
        if let locale = options.userLocale { items.append(("userLocale", locale)) }
        if options.returnFieldsByFieldId { items.append(("returnFieldsByFieldId", "true")) }
        let url = tableURL(table) + "/" + PercentEncoding.encode(id)
            + (items.isEmpty ? "" : "?" + PercentEncoding.query(items))
        return try Record(json: try await perform(APIExchange(method: "GET", url: url, context: "reading \(table) \(id)",
                                                             repetition: .safe)))
    }

    // MARK: - Writing

    /// `POST …/{table}` per ten records. A batch whose answer was lost is not sent again (it may
    /// have been applied); the error says so.
    public func createRecords(in table: String, _ records: [Fields], options: WriteOptions)
        async throws(AirtableError) -> [Record]
    {
        var created: [Record] = []
        for batch in writeBatches(records.map { ["fields": .object($0)] }) {
            let body = AirtableClient.writeBody(Array(batch), options: options)
            let exchange = APIExchange(method: "POST", url: tableURL(table), body: body, context: "POST \(table)",
                                       repetition: .onlyIfNotSent, headers: batchHeaders(batch))
            created += try ResponseDecoding.records(try await perform(exchange), context: exchange.context)
        }
        return created
    }

    /// `PATCH` (or, with `replace`, `PUT`) `…/{table}` per ten records.
    public func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record]
    {
        let method = replace ? "PUT" : "PATCH"
        var updated: [Record] = []
        for batch in writeBatches(updates.map { ["id": .string($0.id), "fields": .object($0.fields)] }) {
            let body = AirtableClient.writeBody(Array(batch), options: options)
            let exchange = APIExchange(method: method, url: tableURL(table), body: body, context: "\(method) \(table)",
                                       repetition: .safe, headers: batchHeaders(batch))
            updated += try ResponseDecoding.records(try await perform(exchange), context: exchange.context)
        }
        return updated
    }

    /// `PATCH`/`PUT …/{table}` with `performUpsert` per ten records; the answers are joined in order.
    /// Refused before anything is sent when a record without an id lacks a merge field.
    public func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                              options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        try AirtableClient.checkUpsert(records, mergeOn: mergeOn)
        let method = replace ? "PUT" : "PATCH"
        var result = UpsertResult(records: [], createdRecords: [], updatedRecords: [])
        let items: [JSONValue] = records.map { record in
            var item: [String: JSONValue] = ["fields": .object(record.fields)]
            if let id = record.id { item["id"] = .string(id) }
            return .object(item)
        }
        for batch in writeBatches(items) {
            var body = AirtableClient.writeBody(Array(batch), options: options)
            if case .object(var object) = body {
                object["performUpsert"] = ["fieldsToMergeOn": .array(mergeOn.map(JSONValue.string))]
                body = .object(object)
            }
            let exchange = APIExchange(method: method, url: tableURL(table), body: body, context: "\(method) \(table)",
                                       repetition: .safe, headers: batchHeaders(batch))
            let part = try ResponseDecoding.upsert(try await perform(exchange), context: exchange.context)
            result.records += part.records
            result.createdRecords += part.createdRecords
            result.updatedRecords += part.updatedRecords
        }
        return result
    }

    /// `DELETE …/{table}?records[]=…` per ten ids. A repeat that finds the records gone after a lost
    /// answer counts them as deleted.
    public func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String] {
        var deleted: [String] = []
        for batch in AirtableClient.batches(ids) {
            let url = tableURL(table) + "?" + PercentEncoding.query(batch.map { ("records[]", $0) })
            let assumed: JSONValue = ["records": .array(batch.map { ["id": .string($0), "deleted": true] })]
            let exchange = APIExchange(method: "DELETE", url: url, context: "DELETE \(table)",
                                       repetition: .deletion(assumed: assumed))
            deleted += try ResponseDecoding.deletedIDs(try await perform(exchange), context: exchange.context)
        }
        return deleted
    }

    // MARK: - Pieces

    /// `…/v0/{base}/{table}`, both segments percent-encoded (a `/` in a table name becomes `%2F`).
    func tableURL(_ table: String) -> String {
        configuration.endpoint + "/v0/" + PercentEncoding.encode(configuration.baseID) + "/" + PercentEncoding.encode(table)
    }

    /// `…/v0/meta/bases/{base}` followed by `rest`.
    func metaURL(_ rest: String) -> String {
        configuration.endpoint + "/v0/meta/bases/" + PercentEncoding.encode(configuration.baseID) + rest
    }

    static func batches<Element>(_ items: [Element]) -> [ArraySlice<Element>] {
        stride(from: 0, to: items.count, by: maximumBatch).map { items[$0..<min($0 + maximumBatch, items.count)] }
    }

    /// The records of a write, one request's worth each: Airtable's ten, or as many as the server last said it
    /// takes, a batch growing past ten only while its records come to at most `WriteBatchLimit.bodyBytes`.
    func writeBatches(_ items: [JSONValue]) -> [ArraySlice<JSONValue>] {
        let limit = reportedWriteBatch.withLock { $0 }.records
        guard limit > AirtableClient.maximumBatch else { return AirtableClient.batches(items) }
        var batches: [ArraySlice<JSONValue>] = []
        var start = items.startIndex
        var bytes = 0
        for index in items.indices {
            let size = JSONWriter.bytes(items[index]).count + 1
            let count = index - start
            if count == limit || (count >= AirtableClient.maximumBatch && bytes + size > WriteBatchLimit.bodyBytes) {
                batches.append(items[start..<index])
                start = index
                bytes = 0
            }
            bytes += size
        }
        if start < items.endIndex { batches.append(items[start...]) }
        return batches
    }

    /// The request's ask for a batch beyond Airtable's ten (`WriteBatchLimit.header`); none for ten or fewer.
    private func batchHeaders(_ batch: ArraySlice<JSONValue>) -> [String: String] {
        guard batch.count > AirtableClient.maximumBatch else { return [:] }
        return [WriteBatchLimit.header: String(batch.count)]
    }

    static func writeBody(_ records: [JSONValue], options: WriteOptions) -> JSONValue {
        var body: [String: JSONValue] = ["records": .array(records)]
        if options.typecast { body["typecast"] = true }
        if options.returnFieldsByFieldId { body["returnFieldsByFieldId"] = true }
        return .object(body)
    }

    /// Refuses, before anything is sent, an upsert the API would refuse part-way through the batches.
    static func checkUpsert(_ records: [UpsertRecord], mergeOn: [String]) throws(AirtableError) {
        guard (1...3).contains(mergeOn.count) else {
            throw .api(.invalidRequest("an upsert merges on 1 to 3 fields, not \(mergeOn.count); nothing was sent"))
        }
        for (index, record) in records.enumerated() where record.id == nil {
            for field in mergeOn where record.fields[field].map({ $0.isNull }) ?? true {
                throw .api(.invalidRequest("record \(index + 1) of the upsert has no value for the merge field "
                    + "\"\(field)\"; nothing was sent"))
            }
        }
    }
}
