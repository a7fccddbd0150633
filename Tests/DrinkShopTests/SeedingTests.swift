import Airtable
import AirtableFormula
@testable import DrinkShop
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
        ("{\"records\":[{\"fields\":{\"category\":\"歐蕾\",\"medium\":50}}]}", "records[0].fields.name", SeedProblem.field(.missingDrinkName)),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"咖啡\",\"medium\":50}}]}", "records[0].fields.category", .field(.unknownCategory("咖啡"))),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":0}}]}", "records[0].fields.medium", .field(.priceNotPositive(0))),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":-5}}]}", "records[0].fields.medium", .field(.priceNotPositive(-5))),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50,\"large\":40}}]}", "records[0].fields.large",
         .field(.drink(.largeBelowMedium(medium: 50, large: 40)))),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50}},{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":55}}]}", "records[1].fields.name",
         .duplicateName(.drink, "A", firstAt: 0)),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50,\"colour\":\"red\"}}]}", "records[0].fields.colour",
         .field(.unknownField(of: .drink, known: ["available", "category", "contains", "description", "englishName", "hotAvailable", "image", "large",
                                                  "medium", "name", "soldOut"]))),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":\"50\"}}]}", "records[0].fields.medium", .field(.priceNotANumber(found: "a string"))),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50.5}}]}", "records[0].fields.medium", .field(.priceNotWhole(50.5))),
        ("{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50,\"hotAvailable\":\"yes\"}}]}", "records[0].fields.hotAvailable", .field(.notTrueOrFalse)),
        ("{\"drinks\":[]}", "drinks", .unknownTopLevelKey(expected: ["records", "promotions", "keepSoldOut", "adjustments", "passes", "stampCard"])),
        ("42", "top level", .topLevelNotAnObject(found: "a number")),
        ("{\"promotions\":[{\"fields\":{\"name\":\"P\",\"kind\":\"halfOff\"}}]}", "promotions[0].fields.kind", .field(.promotion(.unknownKind("halfOff")))),
        ("{\"promotions\":[{\"fields\":{\"name\":\"P\",\"kind\":\"percentOff\",\"percent\":150}}]}", "promotions[0].fields.percent", .field(.promotion(.percentOutOfRange(150)))),
        ("{\"promotions\":[{\"fields\":{\"name\":\"P\",\"kind\":\"buyOneGetOne\",\"drink\":\"咖啡\"}}]}", "promotions[0].fields.drink", .field(.drinkNotOnMenu("咖啡"))),
        ("{\"promotions\":[{\"fields\":{\"name\":\"P\",\"kind\":\"buyOneGetOne\",\"startsAt\":\"soon\"}}]}", "promotions[0].fields.startsAt", .field(.notADate("soon"))),
    ])
    func refusesBadFilesWhole(file contents: String, location: String, problem: SeedProblem) async throws {
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
            #expect(seedError == SeedError(path: file, location: location, problem: problem))
        }
        #expect(try await fixture.records("Drink") == before)
        #expect(try await fixture.records("Promotion") == promotionsBefore)
    }

    /// The messages name the file, where in it, and what is wrong, in the words of the file.
    @Test func aRefusedFileSaysWhereAndWhat() async throws {
        let fixture = try await ShopFixture()
        let directory = try TemporaryDirectory()
        let file = try directory.file("bad.json", contents: "{\"records\":[{\"fields\":{\"name\":\"A\",\"category\":\"歐蕾\",\"medium\":50,}}]}")
        do {
            _ = try await fixture.shop.seeder.seed(contentsOf: file)
            Issue.record("the bad file was accepted")
        } catch {
            guard case .seed(let seedError) = error, case .invalidJSON = seedError.problem else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(seedError.location == "line 1, column 63")
            #expect(error.description.hasPrefix("seed refused, nothing changed: \(file): line 1, column 63: invalid JSON: "))
        }
        let messages: [(SeedProblem, String)] = [
            (.field(.priceNotWhole(50.5)), "must be a whole number of NT$, not 50.5"),
            (.field(.drink(.largeBelowMedium(medium: 50, large: 40))), "the large price (40) is below the medium price (50)"),
            (.field(.promotion(.percentOutOfRange(150))), "the percentage must be from 1 to 100, not 150"),
            (.duplicateName(.drink, "A", firstAt: 0), "duplicate drink name \"A\" (first at record 0)"),
            (.field(.unknownField(of: .adjustment, known: ["code", "name"])), "unknown field; an adjustment has code, name"),
            (.unknownTopLevelKey(expected: ["records", "promotions"]), "unknown top-level key; expected records, promotions"),
        ]
        for (problem, message) in messages { #expect(problem.description == message) }
        #expect(SeedError(path: "menu.json", location: "records[0].fields.medium", problem: .field(.priceNotPositive(0))).description
            == "menu.json: records[0].fields.medium: must be a positive number of NT$, not 0")
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
