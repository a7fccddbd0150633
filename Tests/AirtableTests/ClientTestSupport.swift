import Airtable
import AirtableHTTP
import Foundation
import TestSupport
import Synchronization

/// A scripted server: every request is recorded with the time it was sent and the time it was allowed,
/// then answered by `respond(request, index)`.
final class StubTransport: HTTPTransport {
    struct Sent: Sendable {
        var request: TransportRequest
        var at: Double
        var timeout: Double
    }

    typealias Responder = @Sendable (TransportRequest, Int) throws(TransportError) -> TransportResponse

    private let sent = Mutex<[Sent]>([])
    private let clock: TestClock?
    private let respond: Responder

    init(clock: TestClock? = nil, respond: @escaping Responder) {
        self.clock = clock
        self.respond = respond
    }

    func send(_ request: TransportRequest, timeout: Double) async throws(TransportError) -> TransportResponse {
        let index = sent.withLock { list in
            list.append(Sent(request: request, at: clock?.seconds ?? 0, timeout: timeout))
            return list.count - 1
        }
        return try respond(request, index)
    }

    var requests: [TransportRequest] { sent.withLock { $0.map(\.request) } }
    var sendTimes: [Double] { sent.withLock { $0.map(\.at) } }
    var timeouts: [Double] { sent.withLock { $0.map(\.timeout) } }
}

enum ClientFixture {
    static let token = "patTESTtoken00001.0123456789abcdef0123456789abcdef"
    static let base = "appTESTBASE000001"

    static func configuration(endpoint: String = "https://api.airtable.com", retry: RetryPolicy = RetryPolicy(),
                              deadline: Double = 60, attemptTimeout: Double = 20) -> AirtableClient.Configuration {
        do {
            return try AirtableClient.Configuration(baseID: base, token: token, endpoint: endpoint, retry: retry,
                                                    deadline: deadline, attemptTimeout: attemptTimeout)
        } catch {
            preconditionFailure("test configuration refused: \(error)")
        }
    }

    /// A client on its own throttle (so tests never share pacing) that is fast unless told otherwise.
    static func client(_ transport: StubTransport, clock: TestClock = TestClock(),
                       endpoint: String = "https://api.airtable.com", retry: RetryPolicy = RetryPolicy(),
                       deadline: Double = 60, attemptTimeout: Double = 20, requestsPerSecond: Double = 1000,
                       burst: Int = 1000, randomUnit: @escaping @Sendable () -> Double = { 0.5 }) -> AirtableClient {
        AirtableClient(configuration: configuration(endpoint: endpoint, retry: retry, deadline: deadline,
                                                    attemptTimeout: attemptTimeout),
                       transport: transport, clock: clock.client,
                       throttle: RequestThrottle(requestsPerSecond: requestsPerSecond, burst: burst),
                       randomUnit: randomUnit)
    }

    static func json(_ value: JSONValue, status: Int = 200, headers: [String: String] = [:]) -> TransportResponse {
        TransportResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a },
                          body: JSONWriter.bytes(value))
    }

    static func record(_ id: String, _ fields: Fields = [:]) -> JSONValue {
        ["id": .string(id), "createdTime": "2024-06-15T10:30:00.000Z", "fields": .object(fields)]
    }

    /// A record id made from a number: `rec00000000000042`.
    static func id(_ number: Int) -> String {
        let digits = String(number)
        return "rec" + String(repeating: "0", count: 14 - digits.count) + digits
    }

    /// The request body parsed back, for checks on its structure.
    static func body(_ request: TransportRequest) -> JSONValue? {
        guard let body = request.body else { return nil }
        return try? JSONParser.parse(body)
    }

    /// Echoes write bodies back as records with fresh ids, as the API does.
    static func echoWrites(_ request: TransportRequest) -> TransportResponse {
        let records = body(request)?["records"]?.arrayValue ?? []
        var answer: [JSONValue] = []
        for (index, item) in records.enumerated() {
            let id = item["id"]?.stringValue ?? ClientFixture.id(1000 + index)
            answer.append(record(id, item["fields"]?.objectValue ?? [:]))
        }
        return json(["records": .array(answer)])
    }
}
