import Airtable
import Foundation
import Testing

@Suite(.clearOfShopMidnight) struct EndToEndTests {
    @Test func aNewStoreIsSeededAndTakesOneShotOrders() async throws {
        let shop = try Drinkshop()
        let placed = try await shop.run(["order", "白玉歐蕾", "大杯", "半糖", "少冰", "x2", "for", "Amy"])
        #expect(placed.status == 0, "\(placed.stderr)")
        #expect(placed.stdout.contains("取餐號 #1"))
        #expect(placed.stdout.contains("for Amy · placed by Ken"))
        #expect(placed.stderr.contains("seeded from"))

        // Global options may come after the command.
        let listed = try await shop.run(["orders", "--json", "--db", shop.database], database: false)
        #expect(listed.status == 0)
        let records = try #require(try JSONParser.parse(listed.stdout).arrayValue)
        #expect(records.count == 1)
        #expect(records[0]["fields"]?["orderName"] == "Amy")
        #expect(records[0]["fields"]?["price"] == 140)
        #expect(listed.stderr.isEmpty)
    }

    @Test func editCancelAndDeleteFromTheShell() async throws {
        let shop = try Drinkshop()
        #expect(try await shop.run(["order", "熟成紅茶", "M", "無糖", "hot,", "冷露歐蕾", "L", "微糖", "去冰", "加白玉"]).status == 0)
        let edited = try await shop.run(["edit", "#1", "2", "無糖", "x3"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("大杯•去冰•無糖•加白玉"))
        #expect(try await shop.run(["order", "雪花冷露", "M", "半糖", "正常冰"]).status == 0)
        let cancelled = try await shop.run(["cancel", "#1", "customer", "left"])
        #expect(cancelled.stdout.contains("#1 cancelled: customer left"))
        // Not at a terminal: delete wants --yes.
        let refused = try await shop.run(["delete", "#2"])
        #expect(refused.status != 0 && refused.stderr.contains("--yes"))
        #expect(try await shop.run(["delete", "#2", "--yes"]).stdout.contains("Order #2 deleted"))
        let all = try await shop.run(["orders", "all"])
        #expect(all.stdout.contains("已取消 cancelled"))
        #expect(!all.stdout.contains("雪花冷露"))
    }

    @Test func aFailedOneShotCommandExitsNonZeroWithItsErrorOnStderr() async throws {
        let shop = try Drinkshop()
        let result = try await shop.run(["order", "白玉歐雷", "L", "半糖", "少冰"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("did you mean 白玉歐蕾?"))
        #expect(!result.stdout.contains("取餐號"))
        let unknown = try await shop.run(["brew", "tea"])
        #expect(unknown.status == 1 && unknown.stderr.contains("unknown command"))
    }

    @Test func pipedCommandsAllRunAndTheStatusReportsFailures() async throws {
        let shop = try Drinkshop()
        let script = """
            login Mei
            order 熟成紅茶 M 半糖 少冰
            order 咖啡 L 半糖 少冰
            orders
            advance #1
            """
        let result = try await shop.run([], input: script + "\n")
        #expect(result.status == 1)
        #expect(result.stdout.contains("Hello, Mei"))
        #expect(result.stdout.contains("placed by Mei"))
        #expect(result.stdout.contains("#1 is now preparing"))
        #expect(result.stderr.contains("no drink called \"咖啡\""))
        // No prompt or banner noise when nobody is typing.
        #expect(!result.stdout.contains("drinkshop>"))

        let clean = try await shop.run([], input: "orders all\nquit\norders\n")
        #expect(clean.status == 0)
    }

    @Test func seedingTwiceChangesNothingAndABadFileLeavesTheStoreUnchanged() async throws {
        let shop = try Drinkshop()
        let first = try await shop.run(["seed", Drinkshop.seeds + "/menu.json"])
        #expect(first.stdout.contains("drinks 0 created, 0 updated, 28 unchanged"), "\(first.stdout)\(first.stderr)")
        let second = try await shop.run(["seed", Drinkshop.seeds + "/menu.json"])
        #expect(second.stdout.contains("0 created, 0 updated, 28 unchanged"))

        let menuBefore = try await shop.run(["menu", "--json"]).stdout
        let bytesBefore = try Data(contentsOf: URL(fileURLWithPath: shop.database))
        let bad = try shop.write("bad.json", """
            {"records":[{"fields":{"name":"新品","category":"歐蕾","medium":60}},
                        {"fields":{"name":"壞品","category":"歐蕾","medium":60,"large":50}}]}
            """)
        let refused = try await shop.run(["seed", bad])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("records[1].fields.large"))
        #expect(try await shop.run(["menu", "--json"]).stdout == menuBefore)
        #expect(try Data(contentsOf: URL(fileURLWithPath: shop.database)) == bytesBefore)

        let broken = try shop.write("broken.json", "{\n  \"records\": [\n    {\"fields\": {\"name\": \"x\",}}\n  ]\n}\n")
        let syntax = try await shop.run(["seed", broken])
        #expect(syntax.status == 1 && syntax.stderr.contains("line 3, column 29"))
    }

    @Test func helpVersionAndUsageErrors() async throws {
        let shop = try Drinkshop()
        let help = try await shop.run(["--help"], database: false)
        #expect(help.status == 0 && help.stdout.contains("drinkshop serve [--host H]"))
        // The shell's commands come from the one command table, with the counter's.
        for shell in ["drinkshop setup", "drinkshop usage", "drinkshop init --db PATH", "drinkshop check", "drinkshop recover"] {
            #expect(help.stdout.contains(shell), "\(shell)")
        }
        let serveHelp = try await shop.run(["help", "serve"], database: false)
        #expect(serveHelp.stdout.contains("usage: drinkshop serve") && serveHelp.stdout.contains("--upstream"))
        let orderHelp = try await shop.run(["order", "--help"], database: false)
        #expect(orderHelp.stdout.contains("usage: drinkshop order"))
        // `help` needs no store and makes none, even at the default location.
        let helpClose = try await shop.run(["help", "close"], database: false)
        #expect(helpClose.status == 0 && helpClose.stdout.contains("usage: drinkshop close"), "\(helpClose.stdout)")
        let listed = try FileManager.default.contentsOfDirectory(atPath: shop.directory)
        #expect(!listed.contains { $0.hasSuffix(".sqlite") } && !FileManager.default.fileExists(atPath: shop.directory + "/.local"),
                "\(listed)")
        let missing = try await shop.run(["--db"], database: false)
        #expect(missing.status == 2 && missing.stderr.contains("--db needs a value"))
    }

    @Test func colourOnlyAtATerminal() async throws {
        let shop = try Drinkshop()
        let result = try await shop.run(["menu"], environment: ["TERM": "xterm-256color"])
        #expect(!result.stdout.contains("\u{1B}["))
    }

    /// Counters started together on a store that does not exist yet: one creates the tables and seeds
    /// the menu, the others wait and then use it; every order is taken once, the menu seeded once.
    @Test func countersStartingTogetherOnANewStoreAllWork() async throws {
        let shop = try Drinkshop()
        let counters = 6
        let results = try await withThrowingTaskGroup(of: Drinkshop.Result.self) { group in
            for counter in 1...counters {
                group.addTask { [directory = shop.directory, database = shop.database] in
                    try await Drinkshop.run(["order", "熟成紅茶", "M", "無糖", "去冰", "for", "Counter\(counter)"],
                                            directory: directory, storePath: database)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("Airtable error"), "\(result.stderr)")
        }
        #expect(results.filter { $0.stderr.contains("seeded from") }.count == 1, "exactly one counter seeds the store")

        let listed = try await shop.run(["orders", "--json"])
        let orders = try #require(try JSONParser.parse(listed.stdout).arrayValue)
        let names = orders.compactMap { $0["fields"]?["orderName"]?.stringValue }
        #expect(names.sorted() == (1...counters).map { "Counter\($0)" }.sorted())
        let numbers = orders.compactMap { $0["fields"]?["pickupNumber"]?.intValue }
        #expect(Set(numbers) == Set(1...counters))
        let menu = try #require(try JSONParser.parse(try await shop.run(["menu", "--json"]).stdout).arrayValue)
        let drinkNames = menu.compactMap { $0["fields"]?["name"]?.stringValue ?? $0["name"]?.stringValue }
        #expect(drinkNames.count == 28)
        #expect(Set(drinkNames).count == drinkNames.count, "no drink seeded twice")
    }
}
