import DrinkShopCore
@testable import ShopREPL
import Testing

/// Tab completion by context.
@Suite struct CompletionTests {
    static func menu() throws -> Menu {
        try Menu(drinks: [
            Drink(name: "熟成紅茶", englishName: "Aged Black Tea", category: .classicTea, mediumPrice: 35, largePrice: 40,
                  hotAvailable: true),
            Drink(name: "冷露歐蕾", englishName: "Cold Dew Au Lait", category: .milkTea, mediumPrice: 55),
            Drink(name: "雪花冷露", category: .creamCap, mediumPrice: 50, available: false),
        ])
    }

    static func completer() throws -> ShopCompleter {
        let completer = ShopCompleter(listFiles: { partial in ["Seeds/menu.json", "Seeds/promotions.json"].filter { $0.hasPrefix(partial) } })
        completer.update(menu: try menu())
        completer.update(openNumbers: ["#1", "#2", "#6@2026-11-30"])
        return completer
    }

    @Test func afterADrinkItsOwnOptionsAreOfferedAndNeverASoldOutDrink() throws {
        let completer = try Self.completer()
        let start = completer.complete(line: "order ", cursor: 6)
        #expect(start.contains("熟成紅茶") && start.contains("Cold Dew Au Lait") && !start.contains("雪花冷露"))
        let afterTea = completer.complete(line: "order 熟成紅茶 ", cursor: 11)
        #expect(afterTea.contains("大杯") && afterTea.contains("熱") && afterTea.contains("less ice") && afterTea.contains("加白玉"))
        #expect(!afterTea.contains("冷露歐蕾"), "no drinks once the drink is named")
        // 冷露歐蕾 has no large size and is not served hot.
        let afterAuLait = completer.complete(line: "order Cold Dew Au Lait M ", cursor: 25)
        #expect(!afterAuLait.contains("大杯") && !afterAuLait.contains("熱") && !afterAuLait.contains("中杯"))
        #expect(afterAuLait.contains("少冰") && afterAuLait.contains("半糖"))
        #expect(completer.complete(line: "order 熟成紅茶 le", cursor: 14).contains("less ice"))
        // After a comma, the next drink.
        #expect(completer.complete(line: "order 熟成紅茶 M 無糖 少冰, ", cursor: 23).contains("冷露歐蕾"))
    }

    @Test func orderCommandsOfferOpenNumbersAndSeedOffersFiles() throws {
        let completer = try Self.completer()
        #expect(completer.complete(line: "advance ", cursor: 8) == ["#1", "#2", "#6@2026-11-30"])
        #expect(completer.complete(line: "void #", cursor: 6).count == 3)
        #expect(completer.complete(line: "edit #1 ", cursor: 8).contains("大杯"))
        #expect(completer.complete(line: "seed Seeds/m", cursor: 12) == ["Seeds/menu.json"])
        #expect(completer.complete(line: "report --d", cursor: 10) == ["--date"])
    }

    @Test func switchesOfferTheirOneWordAndNothingAfterIt() throws {
        let completer = try Self.completer()
        #expect(completer.complete(line: "online ", cursor: 7) == ["on", "off"])
        #expect(completer.complete(line: "online of", cursor: 9) == ["off"])
        #expect(completer.complete(line: "archive n", cursor: 9) == ["now"])
        #expect(completer.complete(line: "archive now ", cursor: 12).isEmpty)
    }
}
