import Airtable
import AirtableHTTP
import AirtableURLSession
import AirtableServer
@testable import DrinkShop
import Foundation
import HTTPServer
import LocalBase

/// `drinkshop serve` in miniature, in process: a LocalBase in a temporary file behind AirtableAPI on an
/// HTTPServer bound to port 0. `intercept` may stand between the socket and the API (to stall or fail
/// requests); it gets the request and a way to pass it on.
final class ServerHarness: Sendable {
    typealias Intercept = @Sendable (HTTPRequest, @Sendable (HTTPRequest) async -> HTTPResponse) async -> HTTPResponse

    let base: LocalBase
    let api: AirtableAPI
    let server: HTTPServer
    let port: Int
    let directory: URL
    let token = "patE2E" + AirtableID.make("tok") + ".readwrite"
    let readOnlyToken = "patE2E" + AirtableID.make("tok") + ".readonly"

    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// - Parameter clock: the served base's clock (its records' creation times); the machine's by default.
    init(rateLimiter: RateLimiter? = nil, intercept: Intercept? = nil,
         clock: @escaping @Sendable () -> Date = Date.init, uniqueKeys: UniqueKeys = UniqueKeys(),
         createGuards: [any CreateGuard] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-e2e-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let base = try LocalBase(path: directory.appendingPathComponent("served.sqlite").path, clock: clock)
        let api = AirtableAPI(store: base, baseID: base.baseID,
                              tokens: AccessTokens([(token, .readWrite), (readOnlyToken, .read)]), rateLimiter: rateLimiter,
                              uniqueKeys: uniqueKeys, createGuards: createGuards)
        let forward: @Sendable (HTTPRequest) async -> HTTPResponse = { request in await api.handle(request) }
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0)) { request in
            if let intercept { return await intercept(request, forward) }
            return await forward(request)
        }
        self.base = base
        self.api = api
        self.server = server
        port = try server.start()
    }

    /// A client of this server with its own throttle (tests do not share pacing), over the real
    /// URLSession transport unless another is given.
    func client(token: String? = nil, transport: any HTTPTransport = URLSessionTransport.shared,
                requestsPerSecond: Double = 1000, burst: Int? = 1000, retry: RetryPolicy = RetryPolicy(),
                deadline: Double = 30, attemptTimeout: Double = 20) throws -> AirtableClient {
        let configuration = try AirtableClient.Configuration(
            baseID: base.baseID, token: token ?? self.token, endpoint: endpoint, requestsPerSecond: requestsPerSecond,
            burst: burst, retry: retry, deadline: deadline, attemptTimeout: attemptTimeout)
        return AirtableClient(configuration: configuration, transport: transport,
                              throttle: RequestThrottle(requestsPerSecond: requestsPerSecond,
                                                        burst: configuration.effectiveBurst))
    }

    /// Stops the server and removes its files.
    func stop() async {
        await server.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `body` with a started server, stopping it afterwards whatever happens.
    static func with<T>(rateLimiter: RateLimiter? = nil, intercept: Intercept? = nil, uniqueKeys: UniqueKeys = UniqueKeys(),
                        createGuards: [any CreateGuard] = [], _ body: (ServerHarness) async throws -> T) async throws -> T {
        let harness = try ServerHarness(rateLimiter: rateLimiter, intercept: intercept, uniqueKeys: uniqueKeys,
                                        createGuards: createGuards)
        do {
            let result = try await body(harness)
            await harness.stop()
            return result
        } catch {
            await harness.stop()
            throw error
        }
    }
}

/// Files of the repository the tests read (the seed files).
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let menu = root.appendingPathComponent("Seeds/menu.json").path
    static let promotions = root.appendingPathComponent("Seeds/promotions.json").path
}

/// A temporary LocalBase file, removed with `remove()`.
struct TemporaryBase {
    let base: LocalBase
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-e2e-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        base = try LocalBase(path: directory.appendingPathComponent("direct.sqlite").path)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
