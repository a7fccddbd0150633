import Airtable
import AirtableHTTP

/// What `drinkshop serve --upstream URL --base appX` needs: where the real base is, how to reach it, and
/// how patient to be.
public struct GatewayConfiguration: Sendable {
    /// The upstream API root without a trailing slash (`https://api.airtable.com`).
    public var upstream: String
    /// The one base served.
    public var baseID: String
    /// The upstream's token; only ever sent upstream, never shown.
    public var upstreamToken: AccessToken
    /// Tables whose plain listings (GET without `offset`) are answered from the cache.
    public var cachedTables: Set<String>
    /// The cache asks the upstream whether a cached table changed at most this often, in seconds.
    public var checkInterval: Double
    /// A cached answer is dropped after this many seconds whatever the checks say (records deleted
    /// elsewhere do not show up as modified).
    public var maximumAge: Double
    /// A request is turned away with 503 rather than queued for longer than this many seconds (counters
    /// give up on an attempt after 10 s).
    public var maximumQueueWait: Double
    /// The longest one upstream exchange may take, in seconds.
    public var upstreamTimeout: Double
    /// After the upstream could not be reached, requests are answered 503 at once for this many seconds.
    public var unreachablePause: Double
    /// What the gateway's clients do meanwhile, said after "cannot reach" in that 503 (the program's words).
    public var unreachableNote: String?
    /// Where the upstream can reach this gateway (`--public-url`); set, the gateway keeps the cache fresh
    /// with webhooks on the upstream (see `GatewayWebhooks`).
    public var publicURL: String?
    /// While the webhooks are in place, the freshness checks run only this often, in seconds (a fallback
    /// for a lost ping), and answers are kept this long at most.
    public var webhookCheckInterval: Double = 60
    public var webhookMaximumAge: Double = 600
    /// How often the webhooks are refreshed with the upstream, in seconds.
    public var webhookRefreshInterval: Double = 6 * 3600
    /// The tables the program keeps apart from tokens without their scope (`User` → `drinkshop.staff`): the
    /// gateway serves only tokens holding every one of those scopes (`:read`, and `:write` to write).
    public var tableScopes = TableScopes()
    /// Where the gateway says what went wrong outside any request (a held write the base refused).
    public var log: (@Sendable (String) -> Void)?
    /// The `User-Agent` of the gateway's requests upstream: the program running it names itself here.
    public var userAgent = "AirtableGateway/1"

    public init(upstream: String, baseID: String, upstreamToken: AccessToken,
                cachedTables: Set<String> = [], checkInterval: Double = 5, maximumAge: Double = 60,
                maximumQueueWait: Double = 8, upstreamTimeout: Double = 9, unreachablePause: Double = 2) {
        var trimmed = upstream
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.upstream = trimmed
        self.baseID = baseID
        self.upstreamToken = upstreamToken
        self.cachedTables = cachedTables
        self.checkInterval = checkInterval
        self.maximumAge = maximumAge
        self.maximumQueueWait = maximumQueueWait
        self.upstreamTimeout = upstreamTimeout
        self.unreachablePause = unreachablePause
    }
}
