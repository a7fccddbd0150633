import Airtable
import AirtableHTTP
@testable import DrinkShop
import Foundation
import Testing
import TestSupport

/// The built `drinkshop` binary on a remote base (the in-process server): it never sets up or seeds a
/// base by itself, says what is missing and points to `setup`, and `setup` creates it or explains.
@Suite struct RemoteCommandLineTests {
    struct Outcome {
        var status: Int32
        var output: String
    }

    /// `drinkshop` next to the test binary (the same build), run with the server's Airtable settings.
    static func drinkshop(_ arguments: [String], server: ServerHarness, token: String, input: String = "",
                                  extra: [String: String] = [:]) async throws -> Outcome
    {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        let candidates = [testBinary.deletingLastPathComponent(), testBinary.deletingLastPathComponent().deletingLastPathComponent(),
                          Repository.root.appendingPathComponent(".build/debug")]
            .map { $0.appendingPathComponent("drinkshop") }
        guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "drinkshop (build it: swift build --product drinkshop)"])
        }
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("AIRTABLE_") }
        environment["AIRTABLE_TOKEN"] = token
        environment["AIRTABLE_BASE_ID"] = server.base.baseID
        environment["AIRTABLE_ENDPOINT_URL"] = server.endpoint
        environment["HOME"] = server.directory.path
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        // Awaited off the cooperative pool: the child talks to this process's server, whose handlers need it.
        let finished = try await ChildProcess.run(binary.path, arguments, environment: environment, input: input,
                                                  mergeOutput: true)
        return Outcome(status: finished.status, output: finished.stdout)
    }

    @Test func aBaseWithoutTheShopsTablesIsReportedAndSetUpOnlyBySetup() async throws {
        try await ServerHarness.with { server in
            let repl = try await Self.drinkshop([], server: server, token: server.token, input: "menu\n")
            #expect(repl.status == 1)
            #expect(repl.output.contains("Airtable base \(server.base.baseID) at \(server.endpoint) lacks what the shop "
                + "needs: table Drink, table OrderDrink, table User, table Promotion, table PickupTicket, table AuditLog, table Setting, "
                + "table TillPayment, table Shift, table Member, table OrderTill, table Adjustment, table CounterLetter, table InvoiceTrack, table InvoiceBook, table EInvoice, table ProofPrint. "
                + "Run `drinkshop setup`"))
            let seed = try await Self.drinkshop(["seed", Repository.menu], server: server, token: server.token)
            #expect(seed.status == 1)
            #expect(seed.output.contains("Run `drinkshop setup`"))
            #expect(try await server.base.schema().tables.isEmpty, "nothing may be created implicitly")

            let refused = try await Self.drinkshop(["setup"], server: server, token: server.readOnlyToken)
            #expect(refused.status == 1)
            #expect(refused.output.contains("it needs the schema.bases:write scope. Create these by hand"))
            #expect(refused.output.contains("  - \"ref\": Single line text [singleLineText]"))
            #expect(try await server.base.schema().tables.isEmpty)

            let setup = try await Self.drinkshop(["setup"], server: server, token: server.token)
            #expect(setup.status == 0)
            #expect(setup.output.contains("  created table Setting\n"))
            // The till's tables are created remotely too.
            #expect(setup.output.contains("  created table TillPayment\n"))
            #expect(setup.output.contains("  created table Adjustment\n  created table CounterLetter\n  created table InvoiceTrack\n  created table InvoiceBook\n  created table EInvoice\n  created table ProofPrint\nDone: the base is ready for the shop."))
            let again = try await Self.drinkshop(["setup"], server: server, token: server.token)
            #expect(again.output.contains("has every table and field the shop needs"))
            // All a counter needs; the served file's own table (the ordering page's groups) is `serve`'s to add.
            #expect(try await Shop(store: server.base).missingSchema() == ["table OnlineGroup"])
            #expect(try await server.base.allRecords(in: "Drink").isEmpty, "setup never seeds")

            let seeded = try await Self.drinkshop(["seed", Repository.menu], server: server, token: server.token)
            #expect(seeded.status == 0)
            #expect(try await server.base.allRecords(in: "Drink").count == 28)
            let order = try await Self.drinkshop(["order", "白玉歐蕾", "大杯", "半糖", "少冰", "x2", "for", "Amy"], server: server,
                                           token: server.token)
            #expect(order.status == 0)
            #expect(order.output.contains("取餐號 #1"))
            #expect(!(repl.output + seed.output + refused.output + setup.output + order.output).contains(server.token))

            // Every process above counted its calls in the one pacing file of this base; a Free plan's
            // 1,000 calls are far off, so usage warns of nothing yet.
            let usage = try await Self.drinkshop(["usage"], server: server, token: server.token,
                                           extra: ["DRINKSHOP_AIRTABLE_PLAN": "free"])
            #expect(usage.status == 0)
            let today = usage.output.split(separator: "\n").first { $0.contains("today (") }
            let count = today.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
            #expect(count >= 10, "\(usage.output)")
            #expect(usage.output.contains(" of 1,000 (Free plan, "))
            #expect(!usage.output.contains("warning"))
            let unknownPlan = try await Self.drinkshop(["usage"], server: server, token: server.token,
                                                 extra: ["DRINKSHOP_AIRTABLE_PLAN": "gold"])
            #expect(unknownPlan.status == 2)
            #expect(unknownPlan.output.contains("DRINKSHOP_AIRTABLE_PLAN must be one of free, team, business, enterprise"))
        }
    }

    /// The pacing file an earlier version left on this machine (first word `drinkshop-pacing`) is read on:
    /// today's count carries on from it, and it is written back in the same format.
    @Test func aPacingFileAnEarlierVersionWroteIsReadOn() async throws {
        try await ServerHarness.with { server in
            let state = server.directory.appendingPathComponent("state").path
            let path = PacingFile.path(directory: state + "/drinkshop/pacing", endpoint: server.endpoint,
                                       baseID: server.base.baseID)
            try FileManager.default.createDirectory(atPath: state + "/drinkshop/pacing", withIntermediateDirectories: true)
            let day = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
            let text = "drinkshop-pacing 1 tat=0.0 held=0.0 day=\(day) calls-today=777 month=\(day.prefix(7)) calls-month=777"
            try Data((text.padding(toLength: 255, withPad: " ", startingAt: 0) + "\n").utf8)
                .write(to: URL(fileURLWithPath: path))
            let usage = try await Self.drinkshop(["usage"], server: server, token: server.token,
                                                 extra: ["XDG_STATE_HOME": state])
            #expect(usage.status == 0, "\(usage.output)")
            let today = usage.output.split(separator: "\n").first { $0.contains("today (") }
            let count = today.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
            #expect(count >= 777, "\(usage.output)")
            // A command that calls the base writes the file back.
            _ = try await Self.drinkshop(["menu"], server: server, token: server.token, extra: ["XDG_STATE_HOME": state])
            #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("drinkshop-pacing 1 "))
        }
    }

    /// Counters starting together against a remote base all create their outbox file (one per base, in
    /// the shared data directory) at the same moment: one creates its tables, the others use them.
    @Test func countersStartingTogetherShareANewOutboxFile() async throws {
        try await ServerHarness.with { server in
            #expect(try await Self.drinkshop(["setup"], server: server, token: server.token).status == 0)
            // The outbox file the seeding would make is moved away, so the orders below find none.
            #expect(try await Self.drinkshop(["seed", Repository.menu], server: server, token: server.token).status == 0)
            let dataDirectory = server.directory.appendingPathComponent(".local/share/drinkshop").path
            try? FileManager.default.removeItem(atPath: dataDirectory)

            // More counters than the cooperative pool has threads: each child needs this process's server
            // to answer while the test waits for it, so waiting for a child on a pool thread would stall them all.
            let counters = max(6, ProcessInfo.processInfo.activeProcessorCount * 2 + 2)
            let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                for counter in 1...counters {
                    group.addTask {
                        try await Self.drinkshop(["order", "熟成紅茶", "M", "無糖", "去冰", "for", "Counter\(counter)"],
                                                 server: server, token: server.token)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for outcome in outcomes {
                #expect(outcome.status == 0, "\(outcome.output)")
                #expect(!outcome.output.contains("already exists"), "\(outcome.output)")
            }
            let orders = try await server.base.allRecords(in: "OrderDrink")
            let names = orders.compactMap { $0.fields["orderName"]?.stringValue }
            #expect(names.sorted() == (1...counters).map { "Counter\($0)" }.sorted())
        }
    }
}
