import Airtable
import AirtableHTTP
import AirtableURLSession
import AirtableServer
import Dispatch
import Foundation
import Glibc
import DrinkShop
import DrinkShopCore
import HTTPServer
import LocalBase
import OrderPage
import PickupDisplay

/// `drinkshop serve`: the embedded base over Airtable's REST API, the pickup screen at `/display`
/// (tokenless, numbers and states only) fed by the shop's services over the same base, and the customers'
/// ordering page at `/order` (tokenless; orders only while a manager has set `online on`).
/// Lines for the person who started the server, written at once (standard output may be a pipe, and may
/// close: `drinkshop serve | head -1` goes on serving).
private func print(_ line: String) {
    Console.say(line)
}

struct ServeCommand {
    var host = "127.0.0.1"
    var port = 8080
    var tokenFile: String?
    var rateLimit: Double?
    var rateLimitPenalty: Double = 30
    /// A views file (DrinkShop's own way to define views; see `ViewDefinition`).
    var viewsFile: String?
    /// `--upstream URL --base appX`: serve as a gateway to that base instead of the embedded store.
    var gateway = GatewayOptions()
    /// `--webhook-allow http://127.0.0.1:PORT` (repeatable): local receivers webhooks may notify, beside
    /// public https URLs.
    var webhookReceivers = WebhookReceivers()
    /// Minutes between `serve`'s own backups of a store that changes (0: none; a close at a counter still is
    /// backed up by that counter only if it runs on the file itself).
    var backupEvery = 60
    var backupTo: String?
    /// `--like-airtable`: Airtable's API and nothing more: no key kept unique, no create guard, no write batch
    /// beyond Airtable's ten, so counters and scripts behave as they do against Airtable itself.
    var likeAirtable = false
    private var webhookAllowances: [String] = []

    static func parse(_ words: [String]) throws(UsageError) -> ServeCommand {
        var command = ServeCommand()
        var index = 0
        func value(_ name: String) throws(UsageError) -> String {
            guard index + 1 < words.count else { throw UsageError("\(name) needs a value") }
            index += 1
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            switch word {
            case "--host": command.host = try value(word)
            case "--port":
                let text = try value(word)
                guard let port = Int(text), (0...65_535).contains(port) else {
                    throw UsageError("--port must be a number from 0 to 65535, not \(text)")
                }
                command.port = port
            case "--tokens": command.tokenFile = try value(word)
            case "--backup-to": command.backupTo = try value(word)
            case "--backup-every":
                let text = try value(word)
                guard let minutes = Int(text), minutes >= 0, minutes <= 10_080 else {
                    throw UsageError("--backup-every takes minutes between backups (0 for none, at most a week), not \(text.prefix(20))")
                }
                command.backupEvery = minutes
            case "--views": command.viewsFile = try value(word)
            case "--webhook-allow":
                command.webhookAllowances.append(try value(word))
                do {
                    command.webhookReceivers = try WebhookReceivers(allowing: command.webhookAllowances)
                } catch {
                    throw UsageError(error.description)
                }
            case "--rate-limit":
                let text = try value(word)
                guard let rate = Double(text), rate > 0 else {
                    throw UsageError("--rate-limit must be a positive number of requests per second, not \(text)")
                }
                command.rateLimit = rate
            case "--like-airtable": command.likeAirtable = true
            case "--rate-limit-penalty":
                let text = try value(word)
                guard let seconds = Double(text), seconds >= 0 else {
                    throw UsageError("--rate-limit-penalty must be a number of seconds, not \(text)")
                }
                command.rateLimitPenalty = seconds
            default:
                if try command.gateway.parse(word, value: { () throws(UsageError) -> String in try value(word) }) { break }
                throw UsageError("serve does not know \(word); see drinkshop --help")
            }
            index += 1
        }
        try command.gateway.check()
        return command
    }

    func run(store: EmbeddedStore, environment: [String: String]) async throws -> Int32 {
        let (tokens, tokenNote) = try accessTokens(databasePath: store.path, environment: environment)
        let limiter = rateLimit.map { RateLimiter(requestsPerSecond: $0, penalty: rateLimitPenalty) }
        if let viewsFile {
            guard let data = FileManager.default.contents(atPath: viewsFile) else {
                throw UsageError("cannot read the views file \(viewsFile)")
            }
            let definitions: [ViewDefinition]
            do {
                definitions = try ViewDefinition.parse(Array(data), place: viewsFile)
            } catch {
                throw UsageError(error.description)
            }
            do {
                try await store.base.defineViews(definitions)
            } catch {
                throw UsageError("views file \(viewsFile): \(error.apiError?.message ?? error.description)")
            }
        }
        let owner = try await store.base.collaborators().first
        // Webhook pings are this process's only requests: without libcurl it serves everything else and says so.
        let httpProblem = HTTPAvailability.problem()
        let api = AirtableAPI(store: store.base, baseID: store.base.baseID, baseName: ShopIdentity.baseName,
                              workspaceID: ShopIdentity.workspaceID, tokens: tokens, rateLimiter: limiter,
                              user: owner, notifier: httpProblem == nil ? WebhookNotifier(transport: URLSessionTransport.shared) : nil,
                              protectedTables: Self.shopTables, tableScopes: Self.shopTableScopes,
                              webhookReceivers: webhookReceivers,
                              uniqueKeys: likeAirtable ? UniqueKeys() : ShopSchema.keptUnique,
                              createGuards: likeAirtable ? [] : ShopSchema.createGuards,
                              writeBatch: likeAirtable ? .airtable : nil)
        var configuration = HTTPServer.Configuration()
        configuration.host = host
        configuration.port = port
        // Airtable's limit is 16,000 characters of URL, answered by the API layer with a JSON 414; the
        // socket layer's own (plain-text) 414 only has to stop request lines far beyond that.
        configuration.limits.maxRequestLineLength = 4 * AirtableAPI.maximumURLLength
        configuration.log = { entry in Console.complain(entry.description) }
        // Each customer's group page holds a live stream; the per-address cap (8) still keeps any one phone or
        // script from taking them all, and the pickup screen on its own address always gets one.
        configuration.maxStreams = 128
        // SIGTERM stops the server within 2 s, even while a request computes: requests under way get a second
        // to be answered (ours take milliseconds), then their connections close and the process ends.
        configuration.shutdownGracePeriod = .seconds(1)
        let shop = Shop(store: store.base)
        // The shop's time zone and business-day start, as the counters count them: the page's orders get the
        // day's pickup numbers the counters give.
        do {
            for note in try await shop.counter.adoptSettings(environment: environment).notes { Console.complain("Note: \(note)") }
        } catch {
            throw UsageError("\(error)")
        }
        let board = ServedPickupBoard(queue: shop.queue)
        let display = PickupDisplay(source: board)
        let onlineLabels = OnlineLabels(shop: shop, environment: environment)
        // The customers' groups kept in the store: those a stop or crash interrupted come back as they were.
        let clock = shop.clock
        let book: GroupBook
        do {
            let (reopened, notes) = try await GroupBook.reopen(keptBy: shop.counter, now: { clock.now() })
            for note in notes { Console.complain("Note: \(note)") }
            book = reopened
        } catch {
            throw UsageError("the ordering page's groups could not be read: \(error)")
        }
        let orderPage = OrderPage(shop: shop, book: book, storeChanges: { board.boardChanges() }, placed: { ticket in
            board.changed()
            onlineLabels.print(ticket)
        })
        let backups = Backups(folder: Backups.folder(option: backupTo, storePath: store.path, environment: environment),
                              rotation: try Self.rotation(environment), timeZone: shop.clock.timeZone)
        let schedule = backupEvery == 0 ? nil : BackupSchedule(
            backups: backups, copyTo: environment["DRINKSHOP_BACKUP_COPY"], storePath: store.path,
            interval: TimeInterval(backupEvery * 60), environment: environment)
        let health = HealthRoute(store: store.base, backups: backupEvery == 0 && backupTo == nil ? nil : backups)
        let server = HTTPServer(configuration: configuration, handler: health.handler(otherRoutes: display.handler(otherRoutes: orderPage.handler { request in
            let response = await api.handle(request)
            if ServedPickupBoard.isWrite(request, response) { board.changed() }
            return response
        })))
        let bound = try server.start()
        let shownHost = host.contains(":") ? "[\(host)]" : host
        print("DrinkShop is serving \(store.path)")
        print("  endpoint  http://\(shownHost):\(bound)   (AIRTABLE_ENDPOINT_URL for clients)")
        print("  base id   \(store.base.baseID)")
        print("  tables    Drink, OrderDrink, User, Promotion, PickupTicket")
        print("  " + tokenNote)
        print("  pickup    http://\(shownHost):\(bound)\(PickupDisplay.path)   (the screen for customers; no token)")
        let online = (try? await shop.counter.isOnlineOrderingOpen()) == true
        print("  order     http://\(shownHost):\(bound)\(OrderPage.path)   (customers order here; no token; online ordering is "
            + (online ? "on" : "off: a manager opens it with `online on`") + ")")
        print("  health    http://\(shownHost):\(bound)\(HealthRoute.path)   (the store and its last backup's age; no token)")
        if let schedule {
            print("  backups   \(schedule.backups.folder), every \(backupEvery) min while orders come in and after each close")
        }
        if let limiter { print("  rate limit \(limiter.requestsPerSecond) requests/s per base") }
        if !webhookReceivers.allowed.isEmpty {
            print("  webhooks  may also notify " + webhookReceivers.allowed.map(\.description).sorted().joined(separator: ", "))
        }
        if let httpProblem {
            print("  webhooks  payloads are kept, but no ping is sent: \(httpProblem) (apt-get install libcurl4)")
        }
        print("Press Ctrl-C to stop.")

        let signals = server.shutdownOnSignals([SIGINT, SIGTERM])
        // What no request announces (a new business day, a counter on the database file itself) shows
        // within this tick; and settings a counter changed (the time zone, the day start) are followed, so the
        // screen and the ordering page count days as the counters do, without a restart.
        let tick = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                let news = await shop.counter.followSharedSettings()
                for problem in news.problems { Console.complain("warning: \(problem)") }
                if !news.changes.isEmpty {
                    Console.complain("Settings changed at a counter: " + news.changes.map(\.description).joined(separator: "; "))
                }
                board.changed()
            }
        }
        let backing = Task { await schedule?.run(shop: shop) }
        defer {
            backing.cancel()
            signals.cancel()
            tick.cancel()
            board.finish()
            orderPage.book.finish()
        }
        try await server.run()
        print("Stopped.")
        return 0
    }

    /// `DRINKSHOP_BACKUP_KEEP`, else the standard rotation.
    static func rotation(_ environment: [String: String]) throws(UsageError) -> BackupRotation {
        guard let text = environment["DRINKSHOP_BACKUP_KEEP"] else { return .standard }
        do { return try BackupRotation(parsing: text) } catch { throw UsageError("DRINKSHOP_BACKUP_KEEP: \(error)") }
    }

    /// The tables and fields the shop reads by name: the API refuses to rename them while `serve` runs (a renamed
    /// `Drink` would make the next counter set up a new, empty one).
    static let shopTables = ProtectedTables(ShopSchema.embeddedTables.map { ($0.name, $0.fields.map(\.name)) },
                                            owner: "DrinkShop's counters")

    /// The shop's tables a token reaches only with the shop's own scopes: the staff (names, roles, PIN
    /// hashes) and the till (payments, shifts, members, settings, the audit trail, orders' till records).
    /// A token with Airtable's record scopes alone reads the menu and adds orders, and nothing of these.
    static let shopTableScopes = TableScopes([
        ShopSchema.userTable: "drinkshop.staff",
        ShopSchema.paymentTable: "drinkshop.till", ShopSchema.shiftTable: "drinkshop.till",
        ShopSchema.memberTable: "drinkshop.till", ShopSchema.orderTillTable: "drinkshop.till",
        ShopSchema.adjustmentTable: "drinkshop.till", ShopSchema.settingTable: "drinkshop.till",
        ShopSchema.auditTable: "drinkshop.till", ShopSchema.onlineGroupTable: "drinkshop.till",
        ShopSchema.invoiceTrackTable: "drinkshop.till", ShopSchema.invoiceBookTable: "drinkshop.till",
        ShopSchema.einvoiceTable: "drinkshop.till", ShopSchema.proofPrintTable: "drinkshop.till",
    ])

    /// `DRINKSHOP_API_TOKEN`, else `--tokens FILE`, else a generated token kept (mode 0600) beside the
    /// database. The token itself is never printed.
    /// - Returns: the tokens, and a line saying where they come from (never the tokens themselves).
    func accessTokens(databasePath: String, environment: [String: String]) throws -> (AccessTokens, String) {
        if let token = environment["DRINKSHOP_API_TOKEN"], !token.isEmpty {
            return (AccessTokens([(token, .readWrite)]), "tokens    DRINKSHOP_API_TOKEN (read-write)")
        }
        if let tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw UsageError("cannot read the token file \(tokenFile)")
            }
            let tokens = try AccessTokens.parseFile(text, path: tokenFile, tableScopes: Self.shopTableScopes)
            return (tokens, "tokens    \(tokens) from \(tokenFile)")
        }
        let path = databasePath + ".token"
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !token.isEmpty {
                return (AccessTokens([(token, .readWrite)]), "token     in \(path) (read-write)")
            }
        }
        let token = AccessTokens.generateToken()
        guard FileManager.default.createFile(atPath: path, contents: Data((token + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw UsageError("cannot write the token file \(path)")
        }
        return (AccessTokens([(token, .readWrite)]), "token     generated, stored in \(path) (mode 0600, read-write)")
    }
}
