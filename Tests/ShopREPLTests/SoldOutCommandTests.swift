@testable import DrinkShop
import Foundation
import DrinkShopCore
import Testing
@testable import ShopREPL

/// `soldout`, `restock` and `price` at the counter: one short command for an add-on, an ingredient or a size; a name
/// that is only part of one (or names several things) is asked about at a terminal and refused, with the choices,
/// where nobody can be asked; the menu and the make line show what is out.
@Suite struct SoldOutCommandTests {
    @Test func oneShotOrPipedAGuessIsRefusedWithTheChoicesAndNothingChanges() async throws {
        let counter = try await Counter()
        #expect(await counter.run("price 白玉 M 61") == [.failed])
        #expect(counter.output.errors.contains("白玉歐蕾 (drink 飲品)") && counter.output.errors.contains("nothing was changed"))
        #expect(await counter.run("soldout 白") == [.failed])
        #expect(counter.output.errors.contains("加白玉 (add-on 加料)") && counter.output.errors.contains("白玉 (ingredient 原料)"))
        let menu = try await counter.interpreter.shop.catalog.menu(refresh: true)
        #expect(menu.drink(named: "白玉歐蕾")?.mediumPrice == 60 && menu.drink(named: "白玉歐蕾")?.isOnSale == true && menu.soldOut.isEmpty)
    }

    @Test func atATerminalTheManagerPicksOneOrNone() async throws {
        let answers = AnswerQueue(["", "1"])
        let asked = AnswerQueue([])
        let counter = try await Counter(ask: { question in
            asked.push(question)
            return answers.pop()
        })
        #expect(await counter.run("price 白玉 M 61") == [.succeeded])
        #expect(counter.output.text.contains("Nothing changed (未變更)"))
        #expect(await counter.run("price 白玉 M 61") == [.succeeded])
        #expect(asked.all.count == 2 && asked.all[0].contains("1  白玉歐蕾 (drink 飲品)"))
        #expect(try await counter.interpreter.shop.catalog.menu(refresh: true).drink(named: "白玉歐蕾")?.mediumPrice == 61)
    }

    @Test func oneShortCommandForAnIngredientAndTheScreensShowIt() async throws {
        let counter = try await Counter()
        #expect(await counter.run("order 熟成紅茶 M 無糖 少冰 加白玉", "soldout 白玉") == [.succeeded, .succeeded])
        #expect(counter.output.text.contains("白玉 is sold out (售完) on every counter. With it: 加白玉, 白玉歐蕾."))
        #expect(await counter.run("order 白玉歐蕾 M 無糖 少冰") == [.failed])
        #expect(counter.output.errors.contains("白玉歐蕾 售完（白玉已售完）"))
        #expect(await counter.run("menu", "orders", "orders --watch") == [.succeeded, .succeeded, .succeeded])
        #expect(counter.output.text.contains("售完（白玉已售完）sold out"))
        #expect(counter.output.text.contains("加白玉 White Tapioca 售完 sold out"))
        #expect(counter.output.text.contains("⚠ 售完 sold out: 加白玉 (ask the customer 請詢問客人)"))
        #expect(await counter.run("soldout 熟成紅茶 L", "menu 熟成紅茶") == [.succeeded, .succeeded])
        #expect(counter.output.text.contains("大杯售完 Large sold out"))
        #expect(await counter.run("restock 白玉", "order 白玉歐蕾 M 無糖 少冰") == [.succeeded, .succeeded])
    }

    @Test func editSwapsALinesDrink() async throws {
        let counter = try await Counter()
        #expect(await counter.run("order 白玉歐蕾 M 無糖 少冰 加水玉", "edit #1 1 熟成紅茶 L") == [.succeeded, .succeeded])
        let line = try #require(try await counter.interpreter.shop.orders.find(.pickup(1)).order.lines.first)
        #expect(line.drinkName == "熟成紅茶" && line.size == .large && line.addOns == [.agarPearl])
    }

    /// A seed restocks what is out (the owner's file is the menu as it is on sale), unless the file says
    /// `"keepSoldOut": true`.
    @Test func aSeedRestocksUnlessTheFileKeepsWhatIsOut() async throws {
        let counter = try await Counter()
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seeds").path
        let menuText = try String(contentsOfFile: seeds + "/menu.json", encoding: .utf8)
        let folder = NSTemporaryDirectory() + "keep-sold-out-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The same menu, with the switch: a top-level key beside "records".
        let keeping = folder + "/keeping.json"
        let trimmed = menuText.trimmingCharacters(in: .whitespacesAndNewlines)
        try ("{\"keepSoldOut\": true, " + String(trimmed.dropFirst())).write(toFile: keeping, atomically: true, encoding: .utf8)
        #expect(await counter.run("soldout 加白玉", "soldout 熟成紅茶") == [.succeeded, .succeeded])
        #expect(await counter.run("seed \(keeping)") == [.succeeded])
        var menu = try await counter.interpreter.shop.catalog.menu(refresh: true)
        #expect(menu.drink(named: "熟成紅茶")?.isOnSale == false && !menu.soldOut.isEmpty)
        #expect(await counter.run("seed \(seeds)/menu.json") == [.succeeded])
        #expect(counter.output.text.contains("Back in stock (補貨) with the seed: 加白玉"))
        menu = try await counter.interpreter.shop.catalog.menu(refresh: true)
        #expect(menu.drink(named: "熟成紅茶")?.isOnSale == true && menu.soldOut.isEmpty)
        let bad = folder + "/bad.json"
        try ("{\"keepSoldOut\": \"yes\", " + String(trimmed.dropFirst())).write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(await counter.run("seed \(bad)") == [.failed])
        #expect(counter.output.errors.contains("keepSoldOut") && counter.output.errors.contains("must be true or false"))
    }
}
