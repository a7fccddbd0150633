import Airtable
import AirtableHTTP
import AirtableURLSession
import Foundation

/// Bench 1, DrinkShop's side: the Airtable client against a server, create / list / update / delete
/// `records` records in batches of ten, with `concurrency` tasks where order does not matter.
enum ClientBench {
    static func run(_ options: [String: String]) async throws {
        guard let endpoint = options["endpoint"], let base = options["base"] else {
            throw BenchError("client-crud needs --endpoint URL --base appID (token in DRINKSHOP_BENCH_TOKEN)")
        }
        guard let token = ProcessInfo.processInfo.environment["DRINKSHOP_BENCH_TOKEN"] else {
            throw BenchError("set DRINKSHOP_BENCH_TOKEN")
        }
        let count = Int(options["records"] ?? "") ?? 2_000
        let concurrency = max(1, Int(options["concurrency"] ?? "") ?? 4)
        let table = options["table"] ?? "BenchRecord"
        // No rate limit applies to this server, so the client is not told to pace itself.
        let configuration = try AirtableClient.Configuration(baseID: base, token: token, endpoint: endpoint,
                                                             requestsPerSecond: 10_000, burst: 10_000)
        let client = AirtableClient(configuration: configuration, transport: URLSessionTransport.shared)

        var phases: [(String, Double)] = []
        func timed<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
            let started = ContinuousClock.now
            let result = try await body()
            phases.append((name, (ContinuousClock.now - started).seconds))
            return result
        }

        let fields = (0..<count).map(BenchRecords.fields)
        let created: [Record] = try await timed("create") {
            try await inParallel(chunks(fields, concurrency)) { chunk in
                try await client.createRecords(in: table, chunk, options: WriteOptions())
            }
        }
        let listed = try await timed("list") { try await client.allRecords(in: table) }
        _ = try await timed("update") {
            try await inParallel(chunks(created.map { RecordUpdate(id: $0.id, fields: ["qty": 99]) }, concurrency)) { chunk in
                try await client.updateRecords(in: table, chunk, replace: false, options: WriteOptions())
            }
        }
        _ = try await timed("delete") {
            try await inParallel(chunks(created.map(\.id), concurrency)) { chunk in
                try await client.deleteRecords(in: table, ids: chunk)
            }
        }
        var result: [String: JSONValue] = ["records": .int(count), "listed": .int(listed.count),
                                           "concurrency": .int(concurrency)]
        for (name, seconds) in phases { result[name] = .number(seconds) }
        result["total"] = .number(phases.reduce(0) { $0 + $1.1 })
        print(JSONWriter.string(.object(result)))
    }

    /// `items` cut into `parts` runs of whole batches of ten (so each task sends full batches).
    static func chunks<T>(_ items: [T], _ parts: Int) -> [[T]] {
        let batches = (items.count + 9) / 10
        let perPart = max(1, (batches + parts - 1) / parts) * 10
        return stride(from: 0, to: items.count, by: perPart).map { Array(items[$0..<min(items.count, $0 + perPart)]) }
    }

    /// Runs `work` on every chunk at once; returns the results in chunk order.
    static func inParallel<T: Sendable, R: Sendable>(_ chunks: [[T]], _ work: @escaping @Sendable ([T]) async throws -> [R])
        async throws -> [R]
    {
        try await withThrowingTaskGroup(of: (Int, [R]).self) { group in
            for (index, chunk) in chunks.enumerated() { group.addTask { (index, try await work(chunk)) } }
            var results: [(Int, [R])] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }
}
