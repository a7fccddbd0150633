import Airtable
import AirtableHTTP
import AirtableURLSession
import DrinkShop
import Foundation
import LocalBase

/// The shop on a remote Airtable base (api.airtable.com, or any compatible server such as
/// `drinkshop serve`), chosen by the environment:
///
/// - `AIRTABLE_TOKEN` (or `AIRTABLE_API_KEY`) and `AIRTABLE_BASE_ID` select it;
/// - `AIRTABLE_ENDPOINT_URL` points it at another server (default https://api.airtable.com);
/// - `AIRTABLE_RATE_LIMIT` changes the requests per second it allows itself (default 5).
///
/// A remote base is never seeded or changed implicitly: only `seed`, the order commands and `setup` write.
struct RemoteStore {
    let client: AirtableClient

    /// The remote store the environment names, or nil when it names none.
    /// Whether the environment names a remote base at all (a token or a base id), before anything is made of it.
    static func isNamed(_ environment: [String: String]) -> Bool {
        ["AIRTABLE_TOKEN", "AIRTABLE_API_KEY", "AIRTABLE_BASE_ID"].contains { nonEmpty(environment[$0]) != nil }
    }

    static func fromEnvironment(_ environment: [String: String]) throws(UsageError) -> RemoteStore? {
        let token = nonEmpty(environment["AIRTABLE_TOKEN"]) ?? nonEmpty(environment["AIRTABLE_API_KEY"])
        let base = nonEmpty(environment["AIRTABLE_BASE_ID"])
        switch (token, base) {
        case (nil, nil):
            return nil
        case (nil, _?):
            throw UsageError("AIRTABLE_BASE_ID is set but no token is: set AIRTABLE_TOKEN (or AIRTABLE_API_KEY) too, "
                + "or unset AIRTABLE_BASE_ID to use the embedded store")
        case (_?, nil):
            throw UsageError("a token is set (AIRTABLE_TOKEN or AIRTABLE_API_KEY) but AIRTABLE_BASE_ID is not: "
                + "set it to the base's id (appXXXXXXXXXXXXXX)")
        case let (token?, base?):
            var rate = 5.0
            if let text = nonEmpty(environment["AIRTABLE_RATE_LIMIT"]) {
                guard let value = Double(text), value > 0, value.isFinite else {
                    throw UsageError("AIRTABLE_RATE_LIMIT must be a positive number of requests per second, not \(text)")
                }
                rate = value
            }
            do {
                var configuration = try AirtableClient.Configuration(
                    baseID: base, token: token,
                    endpoint: nonEmpty(environment["AIRTABLE_ENDPOINT_URL"]) ?? AirtableClient.Configuration.airtableEndpoint,
                    requestsPerSecond: rate)
                configuration.userAgent = ShopIdentity.clientUserAgent
                // The counter has an outbox: rather than keep staff waiting through long retries, give up
                // soon (about a second for a refused connection) and keep the order until the base answers.
                var counter = configuration
                // A 429 (or a hold another process's 429 put on the base) hands the order to the outbox at
                // once rather than holding the counter for the base's 30 s.
                counter.retry = RetryPolicy(maximumAttempts: 3, initialBackoff: 0.25, maximumBackoff: 2, longestHeldWait: 3)
                counter.attemptTimeout = 10
                counter.deadline = 30
                // Every process of this machine on this base shares one pacing state and call count.
                let pacing = PacingFile(path: PacingFile.path(directory: StoreLocation.pacingDirectory(environment: environment),
                                                              endpoint: counter.endpoint, baseID: base),
                                        formatName: ShopIdentity.pacingFormatName)
                let throttle = RequestThrottle.shared(
                    for: counter.endpoint + " " + base, requestsPerSecond: rate, burst: counter.effectiveBurst,
                    pacingFile: pacing,
                    onFileError: { DrinkShopCLI.printError("drinkshop: warning: \($0); pacing this process alone") })
                return RemoteStore(client: AirtableClient(configuration: counter, transport: URLSessionTransport.shared, throttle: throttle))
            } catch {
                throw UsageError("the Airtable settings cannot be used: \(error) "
                    + "(AIRTABLE_TOKEN, AIRTABLE_BASE_ID, AIRTABLE_ENDPOINT_URL)")
            }
        }
    }

    /// The outbox of this counter for this base: `DRINKSHOP_OUTBOX`, else `outbox-<baseID>.sqlite` in the
    /// data directory. Orders wait there while the base cannot be reached.
    func openOutbox(environment: [String: String]) async throws -> Outbox {
        let path = RemoteStore.nonEmpty(environment["DRINKSHOP_OUTBOX"])
            ?? StoreLocation.dataDirectory(environment: environment) + "/outbox-\(client.configuration.baseID).sqlite"
        try StoreLocation.prepareParent(of: path)
        // Two counters starting together on a new outbox file: one creates its tables, the other waits.
        return try await LocalBase.withSetupLock(path: path) {
            let outbox = Outbox(store: try await LocalBase.open(path: path, owner: ShopIdentity.baseOwner), location: path)
            try await outbox.prepare()
            return outbox
        }
    }

    /// `Airtable base appXXXX at https://api.airtable.com`, for the REPL's header.
    var description: String { client.description }

    /// Why the shop cannot work on this base, or nil when it can (or when the token may not read the
    /// schema, which only `setup` needs).
    func schemaProblem() async -> String? {
        let reading: SchemaReading
        do {
            reading = try await client.readSchema()
        } catch {
            if error.isNotFound || error.apiError?.status == 403 { return nil }
            // Unreachable now: the shop works from its outbox and says so; nothing to point at yet.
            if error.isUnreachable { return nil }
            if error.apiError?.status == 401 {
                return "\(error): check AIRTABLE_TOKEN for \(description)"
            }
            return "\(description): \(error)"
        }
        let plan = SchemaPlan(wanted: ShopSchema.tables, reading: reading)
        guard !plan.isComplete else { return nil }
        return "\(description) lacks what the shop needs: " + plan.missingItems.joined(separator: ", ")
            + ". Run `drinkshop setup` to create them (it changes no records)."
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return value
    }
}
