import Airtable
import DrinkShop
import DrinkShopCore
import Foundation
import Testing

@Suite struct SeedingTests {
    @Test func seedsTheRealMenuAndReportsCounts() async throws {
        let fixture = try await ShopFixture(seeded: false)
        let report = try await fixture.shop.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        #expect(report.drinks.created >= 25)
        #expect(report.drinks.updated == 0 && report.drinks.unchanged == 0)
        let menu = try await fixture.shop.catalog.menu(refresh: true)
        #expect(Set(menu.drinks.map(\.category)) == Set(DrinkCategory.allCases))
        let latte = try #require(menu.drink(named: "白玉歐蕾"))
        #expect(latte.mediumPrice == 60 && latte.largePrice == 70 && latte.hotAvailable)
        // KEBUKE's own field names are what is stored.
        let record = try #require(try await fixture.records("Drink").first { $0.fields["name"] == "白玉歐蕾" })
        #expect(record.fields["medium"] == 60 && record.fields["large"] == 70 && record.fields["category"] == "歐蕾")
    }

    @Test func seedingTwiceChangesNothing() async throws {
        let fixture = try await ShopFixture()
        let before = try await fixture.records("Drink")
        let again = try await fixture.shop.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        #expect(again.drinks.created == 0 && again.drinks.updated == 0 && again.drinks.unchanged == before.count)
        let promotions = try await fixture.shop.seeder.seed(contentsOf: ShopFixture.seeds + "/promotions.json")
        #expect(promotions.promotions.created == 0 && promotions.promotions.updated == 0)
        #expect(try await fixture.records("Drink") == before)
    }

    @Test func aChangedPriceUpdatesTheDrinkAndOnlyReplaceClearsWhatTheFileLeavesOut() async throws {
        let fixture = try await ShopFixture()
        let directory = try TemporaryDirectory()
        let file = try directory.file("menu.json", contents: """
            {"records":[{"fields":{"name":"白玉歐蕾","category":"歐蕾","medium":65,"large":75,"hotAvailable":true}},
                        {"fields":{"name":"熟成紅茶","category":"單品茶","medium":35,"hotAvailable":true,
                                   "description":"帶有濃穩果香的經典紅茶","englishName":"Aged Black Tea"}},
                        {"fields":{"name":"冬瓜檸檬","category":"調茶","medium":45}}]}
            """)
        // Merged: 熟成紅茶's file leaves out its large size, which stays; nothing else of it changed.
        let report = try await fixture.shop.seeder.seed(contentsOf: file)
        #expect(report.drinks == .init(created: 1, updated: 1, unchanged: 1))
        var menu = try await fixture.shop.catalog.menu(refresh: true)
        #expect(menu.drink(named: "白玉歐蕾")?.mediumPrice == 65)
        #expect(menu.drink(named: "熟成紅茶")?.largePrice == 40)
        #expect(menu.drink(named: "冬瓜檸檬")?.available == true)
        // Replaced: the file is the whole truth for 熟成紅茶, so its large size goes.
        let replaced = try await fixture.shop.seeder.seed(contentsOf: file, replace: true)
        #expect(replaced.drinks.updated >= 1)
        menu = try await fixture.shop.catalog.menu(refresh: true)
        #expect(menu.drink(named: "熟成紅茶")?.largePrice == nil)
    }

    @Test func acceptsABareArrayOfFieldObjects() async throws {
        let fixture = try await ShopFixture(seeded: false)
        let directory = try TemporaryDirectory()
        let file = try directory.file("bare.json", contents: """
            [{"name":"熟成紅茶","category":"單品茶","medium":35,"large":40},
             {"name":"雪藏紅茶","category":"調茶","medium":60,"available":false,"image":[{"url":"https://example.com/x.jpg"}]}]
            """)
        let report = try await fixture.shop.seeder.seed(contentsOf: file)
        #expect(report.drinks.created == 2)
        let menu = try await fixture.shop.catalog.menu(refresh: true)
        #expect(menu.drink(named: "雪藏紅茶")?.available == false)
        #expect(menu.drink(named: "雪藏紅茶")?.imageURLs == ["https://example.com/x.jpg"])
    }

    /// Each bad file names where it is wrong, and the store is exactly as before.
    @Test(arguments: [
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50,}}]}", "line 1, column 63", "invalid JSON"),
        ("{\"records\":[{\"fields\":{\"category\":\"歐蕾\",\"medium\":50}}]}", "records[0].fields.name", "missing"),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"咖啡\",\"medium\":50}}]}", "records[0].fields.category", "unknown category"),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":0}}]}", "records[0].fields.medium", "positive"),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":-5}}]}", "records[0].fields.medium", "positive"),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50,\"large\":40}}]}", "records[0].fields.large", "below"),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50}},{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":55}}]}", "records[1].fields.name", "duplicate"),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50,\"colour\":\"red\"}}]}", "records[0].fields.colour", "unknown field"),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":\"50\"}}]}", "records[0].fields.medium", "number"),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50.5}}]}", "records[0].fields.medium", "whole"),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50,\"hotAvailable\":\"yes\"}}]}", "records[0].fields.hotAvailable", "true or false"),
        ("{\"drinks\":[]}", "drinks", "unknown top-level key"),
        ("42", "top level", "object"),
        ("{\"promotions\":[{\"fields\":{\"name\":\"P\",\"kind\":\"halfOff\"}}]}", "promotions[0].fields.kind", "unknown"),
        ("{\"promotions\":[{\"fields\":{\"name\":\"P\",\"kind\":\"percentOff\",\"percent\":150}}]}", "promotions[0].fields.percent", "100"),
        ("{\"promotions\":[{\"fields\":{\"name\":\"P\",\"kind\":\"buyOneGetOne\",\"drink\":\"咖啡\"}}]}", "promotions[0].fields.drink", "not on the menu"),
        ("{\"promotions\":[{\"fields\":{\"name\":\"P\",\"kind\":\"buyOneGetOne\",\"startsAt\":\"soon\"}}]}", "promotions[0].fields.startsAt", "not a date"),
    ])
    func refusesBadFilesWhole(file contents: String, location: String, problem: String) async throws {
        let fixture = try await ShopFixture()
        let before = try await fixture.records("Drink")
        let promotionsBefore = try await fixture.records("Promotion")
        let directory = try TemporaryDirectory()
        let file = try directory.file("bad.json", contents: contents)
        do {
            _ = try await fixture.shop.seeder.seed(contentsOf: file)
            Issue.record("the bad file was accepted")
        } catch {
            guard case .seed(let seedError) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(seedError.location == location)
            #expect(seedError.problem.contains(problem), "\(seedError.problem)")
            // The message names the file, where in it, and what is wrong.
            #expect(seedError.path == file
                && error.description == "seed refused, nothing changed: \(file): \(location): \(seedError.problem)")
        }
        #expect(try await fixture.records("Drink") == before)
        #expect(try await fixture.records("Promotion") == promotionsBefore)
    }

    @Test func aMissingFileSaysSo() async throws {
        let fixture = try await ShopFixture()
        await #expect(throws: ShopError.self) { try await fixture.shop.seeder.seed(contentsOf: "/nonexistent/menu.json") }
    }

    @Test func promotionsFromTheSeedPriceOrders() async throws {
        let fixture = try await ShopFixture()
        let promotions = try await fixture.shop.catalog.promotions()
        #expect(promotions.contains { $0.name == "第二杯半價" && $0.kind == .secondCupHalfPrice })
        let banners = try await fixture.shop.catalog.banners()
        #expect(banners.contains { $0.text.contains("第二杯半價") })
        // Not started yet on the test day (29 November): no banner.
        #expect(!banners.contains { $0.text.contains("買一送一") })
    }
}

@Suite struct SeedMergeTests {
    @Test func aFileWithSomeFieldsKeepsTheRestAndReplaceMakesItTheWholeTruth() async throws {
        let fixture = try await ShopFixture()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seed-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("one.json").path
        try Data(#"{"records": [{"fields": {"name": "白玉歐蕾", "category": "歐蕾", "medium": 65, "large": 75}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let merged = try await fixture.shop.seeder.seed(contentsOf: path)
        #expect(merged.drinks.updated == 1)
        var drink = try #require(try await fixture.shop.catalog.menu(refresh: true).drink(named: "白玉歐蕾"))
        #expect(drink.mediumPrice == 65 && drink.englishName == "White Jade Au Lait" && drink.hotAvailable)
        let again = try await fixture.shop.seeder.seed(contentsOf: path)
        #expect(again.drinks.unchanged == 1)
        _ = try await fixture.shop.seeder.seed(contentsOf: path, replace: true)
        drink = try #require(try await fixture.shop.catalog.menu(refresh: true).drink(named: "白玉歐蕾"))
        #expect(drink.mediumPrice == 65 && drink.englishName == nil && !drink.hotAvailable)
    }
}
