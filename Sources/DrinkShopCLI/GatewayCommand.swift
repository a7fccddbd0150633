import Airtable
import AirtableHTTP
import AirtableURLSession
import AirtableServer
import Foundation
import Glibc
import LocalBase
import DrinkShop
import HTTPServer

/// The options of `drinkshop serve` that make it a gateway to a real base.
struct GatewayOptions {
    var upstream: String?
    var base: String?
    /// The tables every counter reads again and again by default (the menu's, the shared settings and the staff,
    /// which a running counter reads every few seconds of use): the gateway itself knows no table names. Every
    /// DrinkShop write to them passes through the gateway and drops its answers at once, so the checks with the
    /// base only catch changes made elsewhere (Airtable's grid): every 10 minutes, each answer kept an hour at most.
    var cachedTables = [ShopSchema.drinkTable, ShopSchema.promotionTable, ShopSchema.settingTable, ShopSchema.userTable]
    var checkInterval = 600.0
    var maximumAge = 3600.0
    /// Where the upstream can reach this gateway: set, the gateway registers webhooks for the cached tables.
    var publicURL: String?
    /// The tables whose record updates the gateway answers from its copy and sends the base in batches:
    /// the orders, which every payment and every step of an order updates.
    var heldTables = [ShopSchema.orderTable]
    /// How long a held update may wait before it is sent (0: every write goes to the base as it comes).
    var holdFor = 300.0
    /// How often the gateway's copy of a held table is read whole from the base (records deleted in Airtable's
    /// grid leave it then; changes typed there show at each `--cache-check`).
    var holdRefill = 86_400.0

    var isRequested: Bool { upstream != nil || base != nil }

    /// Takes `word` (and its value) when it is a gateway option; false when it is not one.
    mutating func parse(_ word: String, value: () throws(UsageError) -> String) throws(UsageError) -> Bool {
        switch word {
        case "--upstream": upstream = try value()
        case "--base": base = try value()
        case "--cache-tables": cachedTables = Self.tableNames(try value())
        case "--cache-check": checkInterval = try Self.seconds(word, try value(), from: 0, what: "a number of seconds")
        case "--cache-max-age": maximumAge = try Self.seconds(word, try value(), above: 0)
        case "--hold-writes":
            holdFor = try Self.seconds(word, try value(), from: 0, upTo: 3600,
                                       what: "a number of seconds from 0 (send every write at once) to 3600")
        case "--hold-refill": holdRefill = try Self.seconds(word, try value(), above: 0)
        case "--hold-tables": heldTables = Self.tableNames(try value())
        case "--public-url":
            let text = try value()
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
            else { throw UsageError("--public-url must be an http(s) URL where the base can reach this gateway, not \(text)") }
            publicURL = text
        default: return false
        }
        return true
    }

    /// `Drink, Promotion` → the names, blanks dropped.
    private static func tableNames(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A number of seconds for `option`: at least `from` (or more than `above`), at most `upTo`.
    private static func seconds(_ option: String, _ text: String, from lowest: Double? = nil, above: Double? = nil,
                                upTo highest: Double = .infinity, what: String = "a positive number of seconds")
        throws(UsageError) -> Double
    {
        guard let seconds = Double(text), seconds.isFinite, seconds >= (lowest ?? -.infinity),
              seconds > (above ?? -.infinity), seconds <= highest
        else { throw UsageError("\(option) must be \(what), not \(text)") }
        return seconds
    }

    func check() throws(UsageError) {
        if publicURL != nil && !isRequested {
            throw UsageError("--public-url is for a gateway: give --upstream URL and --base appX too")
        }
        if isRequested && (upstream == nil || base == nil) {
            throw UsageError("a gateway needs both --upstream URL (e.g. https://api.airtable.com) and --base appXXXXXXXXXXXXXX")
        }
    }
}

/// `drinkshop serve --upstream URL --base appX`: Airtable's API for that one base, forwarded to the real
/// one through one rate budget (see `AirtableGateway`).
struct GatewayCommand {
    var serve: ServeCommand

    func run(environment: [String: String]) async throws -> Int32 {
        guard let upstream = serve.gateway.upstream, let base = serve.gateway.base else { return 2 }
        guard let secret = [environment["AIRTABLE_TOKEN"], environment["AIRTABLE_API_KEY"]]
            .compactMap({ $0 }).first(where: { !$0.isEmpty }) else {
            throw UsageError("the gateway forwards with the base's own token: set AIRTABLE_TOKEN (never shown or logged)")
        }
        var rate = 5.0
        if let text = environment["AIRTABLE_RATE_LIMIT"], !text.isEmpty {
            guard let value = Double(text), value > 0, value.isFinite else {
                throw UsageError("AIRTABLE_RATE_LIMIT must be a positive number of requests per second, not \(text)")
            }
            rate = value
        }
        let client: AirtableClient.Configuration
        do {
            client = try AirtableClient.Configuration(baseID: base, token: secret, endpoint: upstream, requestsPerSecond: rate)
        } catch {
            throw UsageError("the gateway's settings cannot be used: \(error) (--upstream, --base, AIRTABLE_TOKEN)")
        }
        let pacing = PacingFile(path: PacingFile.path(directory: StoreLocation.pacingDirectory(environment: environment),
                                                      endpoint: client.endpoint, baseID: base),
                                formatName: ShopIdentity.pacingFormatName)
        let throttle = RequestThrottle.shared(
            for: client.endpoint + " " + base, requestsPerSecond: rate, burst: client.effectiveBurst, pacingFile: pacing,
            onFileError: { DrinkShopCLI.printError("drinkshop: warning: \($0); pacing this gateway alone") })
        var configuration = GatewayConfiguration(
            upstream: client.endpoint, baseID: base, upstreamToken: client.token,
            cachedTables: Set(serve.gateway.cachedTables), checkInterval: serve.gateway.checkInterval,
            maximumAge: max(serve.gateway.maximumAge, serve.gateway.checkInterval))
        configuration.publicURL = serve.gateway.publicURL
        configuration.userAgent = ShopIdentity.gatewayUserAgent
        configuration.unreachableNote = "counters keep orders until it answers"
        let tokenBase = StoreLocation.dataDirectory(environment: environment) + "/gateway-\(base)"
        try StoreLocation.prepareParent(of: tokenBase)
        let (tokens, tokenNote) = try serve.accessTokens(databasePath: tokenBase, environment: environment)
        configuration.log = { line in Console.complain(line) }
        configuration.tableScopes = ServeCommand.shopTableScopes
        var held: HeldWrites?
        let journalPath = StoreLocation.dataDirectory(environment: environment) + "/gateway-\(base)-held.jsonl"
        if serve.gateway.holdFor > 0 && !serve.gateway.heldTables.isEmpty {
            do {
                held = try await HeldWrites.open(tables: Set(serve.gateway.heldTables), holdFor: serve.gateway.holdFor,
                                      refillEvery: serve.gateway.holdRefill, mirror: try LocalBase.inMemory(), journalPath: journalPath, baseID: base)
            } catch {
                throw UsageError("the gateway cannot hold writes: \(error) (--hold-writes 0 sends every write at once)")
            }
        }
        let gateway = AirtableGateway(configuration: configuration, tokens: tokens, throttle: throttle,
                                      transport: URLSessionTransport.shared, held: held)

        var server = HTTPServer.Configuration()
        server.host = serve.host
        server.port = serve.port
        server.limits.maxRequestLineLength = 4 * AirtableAPI.maximumURLLength
        server.log = { entry in Console.complain(entry.description) }
        let http = HTTPServer(configuration: server) { request in
            let answer = await gateway.handle(APIRequest(method: request.method, target: request.target,
                                                         headers: request.headers.map { ($0.name, $0.value) },
                                                         body: request.body))
            return HTTPResponse(status: answer.status, headers: HTTPHeaders(answer.headers), body: answer.body)
        }
        let bound = try http.start()
        let display = serve.host.contains(":") ? "[\(serve.host)]" : serve.host
        let say = { (line: String) in Console.say(line) }
        say("DrinkShop gateway to \(client.description)")
        say("  endpoint  http://\(display):\(bound)   (AIRTABLE_ENDPOINT_URL for counters)")
        say("  base id   \(base)")
        say("  budget    \(rate) requests/s to the base for every counter behind this gateway, shared with "
            + "drinkshop on this machine (\(pacing.path))")
        var webhookLines: [String] = []
        if serve.gateway.publicURL != nil {
            let problems = await gateway.startWebhooks()
            let covered = gateway.tablesWithWebhooks
            webhookLines.append(covered.isEmpty ? "none" : covered.joined(separator: ", ")
                + " tell the gateway of changes (pings to \(configuration.publicURL ?? "")/gateway/webhook-ping)")
            webhookLines += problems
        }
        let byWebhook = !configuration.cachedTables.isEmpty && Set(gateway.tablesWithWebhooks) == configuration.cachedTables
        let every = byWebhook ? max(configuration.checkInterval, configuration.webhookCheckInterval) : configuration.checkInterval
        say("  cached    " + (configuration.cachedTables.isEmpty ? "nothing"
            : configuration.cachedTables.sorted().joined(separator: ", ")
                + " (checked with the base at most every \(every) s\(byWebhook ? ", and at once on a webhook ping" : ""))"))
        for line in webhookLines { say("  webhooks  " + line) }
        if let held {
            say("  held      updates of " + held.tables.sorted().joined(separator: ", ") + " answered at once and sent to "
                + "the base within \(Int(held.holdFor)) s, ten records a request (kept meanwhile in \(journalPath))"
                + (held.waiting > 0 ? "; \(held.waiting) left from the last run are sent now" : ""))
            gateway.resumeHeldWrites()
        }
        say("  upstream  token from the environment (never shown or logged)")
        say("  " + tokenNote)
        say("Press Ctrl-C to stop.")
        let signals = http.shutdownOnSignals([SIGINT, SIGTERM])
        defer { signals.cancel() }
        try await http.run()
        await gateway.stopWebhooks()
        let left = await gateway.sendHeldWrites()
        let counts = gateway.counts
        say("Stopped: \(counts.forwarded) requests forwarded, \(counts.answeredFromCache) reads answered from the cache "
            + "(\(counts.freshnessChecks) freshness checks), \(counts.turnedAway) turned away busy, \(counts.unreachable) "
            + "answered unreachable, \(counts.upstream429) 429s from the base, \(counts.webhookPings) webhook pings"
            + (held == nil ? "." : "; \(counts.heldWrites) record updates held and sent in \(counts.heldBatches) requests, "
                + "\(counts.heldRefused) refused by the base, \(counts.answeredFromCopy) reads from the copy"
                + (left > 0 ? ", \(left) records' updates kept in the journal for the next start." : ".")))
        return 0
    }
}

/// What `setup` tells the person about running several counters (also in the README).
enum SeveralCounters {
    static let text = """
        Several counters, three ways:
          - one machine: every counter is a drinkshop process on the same embedded file (--db); nothing to set up.
          - several machines in the shop: one runs `drinkshop serve --host 0.0.0.0`; the others set AIRTABLE_TOKEN,
            AIRTABLE_BASE_ID and AIRTABLE_ENDPOINT_URL=http://that-machine:8080. The data stays in the shop.
          - a real Airtable base: counters on one machine share its 5 requests a second by themselves; counters on
            several machines go through one gateway, `drinkshop serve --upstream https://api.airtable.com --base appX`,
            with AIRTABLE_ENDPOINT_URL pointing at it. Watch the plan's monthly calls with `drinkshop usage`.
        """
}
