import Airtable
import AirtableHTTP
import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase

/// The store a counter (the REPL or one command) runs on, chosen once (`open`): the remote base the environment
/// names, else the embedded store file. It says what it is, what follows a drawer close, which thread the counter
/// runs on, and what is done once the counter ends.
struct CounterStore {
    let shop: Shop
    /// How the counter names the store in its header.
    let description: String
    /// What runs after each drawer close here (the embedded store's backup), and the line it says.
    let afterClose: (@Sendable () async -> String?)?
    /// Where the counter runs: the embedded store's calls wait in place on a thread of its own instead of hopping
    /// to its queue and back (see DedicatedThreadExecutor); nil for a remote base.
    let executor: (any TaskExecutor)?
    /// What is done once the counter ends with `status`.
    let finish: (_ status: Int32) async -> Void
    /// The embedded store's base; nil for a remote base.
    var embedded: LocalBase? = nil

    /// Why a counter cannot start on the store (said as is; the program exits with `status`).
    struct Refusal: Error {
        var message: String
        var status: Int32
    }

    /// Opens the store a counter runs on: the remote base the environment names (never seeded or set up
    /// implicitly), else the embedded store at `path` (made there only when `mayCreate`).
    /// - Parameter repl: whether the counter is the REPL (which checks a remote base's tables first and holds pickup
    ///   numbers ahead) rather than one command.
    static func open(repl: Bool, path: String, mayCreate: Bool, environment: [String: String]) async throws -> CounterStore {
        // Asked before the client exists: making its URLSession is already a call into libcurl.
        if RemoteStore.isNamed(environment), let refusal = HTTPAvailability.refusal(for: "the remote base (AIRTABLE_BASE_ID)") {
            throw Refusal(message: refusal, status: 69)
        }
        if let remote = try RemoteStore.fromEnvironment(environment) {
            return try await open(remote, repl: repl, environment: environment)
        }
        let store = try await EmbeddedStore.open(path: path, mayCreate: mayCreate, environment: environment,
                                                 notes: DrinkShopCLI.printError)
        let shop = Shop(store: store.base, printers: try ShopPrinters.configured(environment: environment),
                        archive: ArchiveLocation.archive(at: ArchiveLocation.forEmbedded(storePath: store.path,
                                                                                         environment: environment)))
        return CounterStore(shop: shop, description: "embedded store \(store.path)",
                            afterClose: DrinkShopCLI.backupAfterClose(storePath: store.path, shop: shop, environment: environment),
                            executor: DedicatedThreadExecutor(name: "counter"),
                            finish: { _ in await store.finish() }, embedded: store.base)
    }

    private static func open(_ remote: RemoteStore, repl: Bool, environment: [String: String]) async throws -> CounterStore {
        // A remote base: never seeded or set up implicitly; say what is missing and point to setup.
        if repl, let problem = await remote.schemaProblem() {
            throw Refusal(message: "drinkshop: \(problem)", status: 1)
        }
        let outbox = try await remote.openOutbox(environment: environment)
        let printers = try ShopPrinters.configured(environment: environment)
        let archive = ArchiveLocation.archive(at: ArchiveLocation.forRemote(baseID: remote.client.configuration.baseID,
                                                                             environment: environment))
        // On Airtable itself every reading of the shared settings and of the menu counts against the plan's calls.
        let onAirtable = remote.client.configuration.endpoint == AirtableClient.Configuration.airtableEndpoint
        let shop = Shop(store: remote.client, outbox: outbox, printers: printers, archive: archive,
                        sharedSettingsAge: onAirtable ? Counter.airtableSharedReadingAge : Counter.defaultSharedReadingAge,
                        menuLifetime: onAirtable ? Catalog.airtableLifetime : Catalog.defaultLifetime)
        // A REPL stays open: it claims pickup numbers ten at a time (one request per order, two more per ten); a
        // one-shot command claims only the one it needs.
        if repl { shop.counter.holdPickupNumbers() }
        return CounterStore(shop: shop, description: remote.description, afterClose: nil, executor: nil, finish: { status in
            if status != 0, !repl, let problem = await remote.schemaProblem() {
                DrinkShopCLI.printError("drinkshop: \(problem)")
            }
            if let warning = await UsageCommand.warning(for: remote.client, environment: environment) {
                DrinkShopCLI.printError("drinkshop: warning: \(warning) (drinkshop usage)")
            }
        })
    }
}
