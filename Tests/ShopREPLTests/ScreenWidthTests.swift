@testable import DrinkShop
import DrinkShopCore
import LineEditor
@testable import ShopREPL
import Synchronization
import Testing

/// A terminal of a fixed size for the interpreter: what it is asked to show goes to the counter's
/// captured output, and each `show` is kept, so a test sees what was paged as one text.
final class FixedScreen: CounterScreen {
    let size: (rows: Int, columns: Int)
    private let output: CapturedOutput
    private let texts = Mutex<[String]>([])

    init(columns: Int, rows: Int = 24, output: CapturedOutput) {
        size = (rows, columns)
        self.output = output
    }

    func show(_ text: String) async {
        texts.withLock { $0.append(text) }
        output.write(text)
    }

    /// Everything shown through the pager, one text per command.
    var shown: [String] { texts.withLock { $0 } }
}

/// A busy evening at the counter: 40 open orders with long names, Chinese drinks, add-ons and notes,
/// payments, cancellations, voids and menu changes (more than 30 audit entries).
enum BusyEvening {
    static let names = [
        "王小明（台積電十二廠夜班團購）", "Christopher Montgomery-Smith", "陳美玲", "Amy", "林家豪 外送 Foodpanda 23 號",
        "Dr. Nakamura Hiroshi", "黃小姐", "Ken", "張先生公司十杯", "Lee",
    ]
    static let lines = [
        "熟成紅茶 大杯 半糖 少冰", "白玉歐蕾 大杯 半糖 少冰 x2", "熟成歐蕾 中杯 微糖 去冰 加白玉 加水玉",
        "熟成榛果歐蕾 大杯 無糖 完全去冰 note \"燕麥奶換成鮮奶，吸管另外放，謝謝您\"", "春芽綠茶 中杯 少糖 微冰 x3",
        "麗春紅茶 大杯 二分糖 正常冰 加菓玉, 熟成冷露 中杯 一分糖 少冰 note \"less ice please, customer is allergic\"",
    ]

    /// Places the 40 orders (the first twelve paid, some moved along the make line), then the day's changes.
    static func play(on counter: Counter) async throws {
        await counter.run("login 店長阿芬")
        for index in 0..<46 {
            let name = names[index % names.count]
            let outcome = await counter.run("order \(lines[index % lines.count]) for \(name)")
            try #require(outcome == [.succeeded], "order \(index): \(counter.output.errors)")
        }
        await counter.run("shift open 2000")
        for number in 1...12 { await counter.run("pay #\(number) cash 1000") }
        for number in 13...20 { await counter.run("advance #\(number)") }
        for number in 13...16 { await counter.run("advance #\(number)") }
        // Six orders leave the open list, each with an audit entry: three cancelled, three voided.
        for number in 41...43 {
            await counter.run("cancel #\(number) 客人說等太久了不要了，已經打電話確認過兩次 customer left after waiting too long")
        }
        for number in 1...3 {
            await counter.run("advance #\(number)", "void #\(number) 飲料做錯，重新做一杯給客人 wrong drink made, remade")
        }
        for (index, drink) in ["熟成紅茶", "麗春紅茶", "春芽綠茶", "熟成冷露", "白玉歐蕾", "熟成歐蕾"].enumerated() {
            await counter.run("price \(drink) L \(80 + index)", "soldout \(drink)", "restock \(drink)")
        }
        for number in 21...26 { await counter.run("edit #\(number) 1 大杯") }
        try #require(counter.output.errors.isEmpty, "\(counter.output.errors)")
    }
}

/// The counter's tables at 60, 80 and 120 columns: no line wider than the screen (by display width),
/// the key columns always there; and piped (no screen) the whole table as before.
@Suite struct ScreenWidthTests {
    static let widths = [60, 80, 120]

    /// A counter after a busy evening, showing on a screen `columns` wide (nil: piped).
    private func evening(columns: Int?) async throws -> Counter {
        let counter = try await Counter()
        try await BusyEvening.play(on: counter)
        if let columns { counter.interpreter.screen = FixedScreen(columns: columns, output: counter.output) }
        return counter
    }

    /// The output of one command, alone.
    private func output(of line: String, on counter: Counter) async throws -> String {
        let before = counter.output.text.count
        let outcome = await counter.run(line)
        try #require(outcome == [.succeeded], "\(line): \(counter.output.errors)")
        return String(counter.output.text.dropFirst(before))
    }

    private func expectFits(_ text: String, _ columns: Int, _ what: String) {
        for line in text.split(separator: "\n") {
            #expect(line.displayWidth <= columns, "\(what) at \(columns): \(line.displayWidth) columns: \(line)")
        }
    }

    @Test("an order from the customers' page is marked online at every width, and piped", arguments: widths + [nil])
    func onlineOrdersAreMarkedAtEveryWidth(columns: Int?) async throws {
        let counter = try await evening(columns: columns)
        try await counter.interpreter.shop.counter.setOnlineOrdering(true, by: Acting("Mia", role: .manager))
        let draft = OrderDraft(orderName: "Amy", lines: [LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.free), .ice(.iceFree)])])
        let ticket = try await counter.interpreter.shop.counter.placeOnline(draft, within: .init(orders: 5))
        let text = try await output(of: "orders", on: counter)
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("\(ticket.number) ") || $0.hasPrefix(" \(ticket.number) ") })
        #expect(row.contains("網"), "\(row)")
        #expect(text.split(separator: "\n").filter { $0.contains("網") && !$0.contains("網路點單") }.count == 1, "only the online order: \(text)")
        if let columns { expectFits(text, columns, "orders") }
    }

    @Test(arguments: widths) func ordersFitAndKeepNumberStatusDrinksTotalAndPaid(columns: Int) async throws {
        let counter = try await evening(columns: columns)
        let text = try await output(of: "orders", on: counter)
        expectFits(text, columns, "orders")
        let lines = text.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        for title in ["#", "Status", "Drinks", "Total", "Paid"] { #expect(header.contains(title), "\(title) at \(columns)") }
        // Every open order has its own row with its number, a status and a payment word.
        let rows = lines.dropFirst(2).dropLast()
        #expect(rows.count == 40)
        for row in rows {
            let words = row.split(separator: " ")
            #expect(Int(words.first ?? "") != nil, "a row without its number: \(row)")
            #expect(["placed", "preparing", "ready", "已下單", "製作中", "可取餐"].contains { row.contains($0) }, "\(row)")
            #expect(row.contains("$"), "\(row)")
            #expect(row.contains("paid") || row.contains("due"), "\(row)")
        }
        #expect(rows.contains { $0.contains("熟成榛果") })
        // One paging per command: the whole list went to the pager as one text.
        let screen = try #require(counter.interpreter.screen as? FixedScreen)
        #expect(screen.shown.last == text)
    }

    @Test(arguments: widths) func theLogFitsWithWhenWhatAndSubject(columns: Int) async throws {
        let counter = try await evening(columns: columns)
        let text = try await output(of: "log", on: counter)
        expectFits(text, columns, "log")
        let lines = text.split(separator: "\n").map(String.init)
        let count = try #require(lines.last.flatMap { Int($0.split(separator: " ").first ?? "") })
        #expect(count >= 30)
        #expect(lines[1].contains("When") && lines[1].contains("What") && lines[1].contains("Order / item"))
        #expect(lines.filter { $0.contains("void") && $0.contains("#1") }.count >= 1)
        #expect(lines.filter { $0.contains("price") }.count == 6)
    }

    @Test(arguments: widths) func theReportAndItsAuditTableFit(columns: Int) async throws {
        let counter = try await evening(columns: columns)
        let text = try await output(of: "report", on: counter)
        expectFits(text, columns, "report")
        #expect(text.contains("Daily report"))
        #expect(text.contains("Till report"))
        #expect(text.contains("Audit trail (menu, staff, voids, closing)"))
        // The voids and cancellations keep their number and amount.
        for number in ["#1", "#2", "#3", "41", "42", "43"] { #expect(text.contains(number), "\(number) at \(columns)") }
        #expect(text.contains("By drink"))
    }

    @Test(arguments: widths) func theWholeMenuFitsWithNamesAndPrices(columns: Int) async throws {
        let counter = try await evening(columns: columns)
        let text = try await output(of: "menu", on: counter)
        expectFits(text, columns, "menu")
        let menu = try await counter.interpreter.shop.catalog.menu()
        for drink in menu.drinks {
            let row = text.split(separator: "\n").first { $0.hasPrefix(drink.name + " ") }
            #expect(row?.contains("$\(drink.mediumPrice)") == true, "\(drink.name) at \(columns)")
        }
        #expect(text.contains("售完 sold out"))
        for addOn in AddOn.allCases { #expect(text.contains(addOn.rawValue)) }
        // Wide enough, the English names show.
        if columns >= 80 { #expect(text.contains("English")) }
    }

    @Test(arguments: widths) func receiptsFitTheScreen(columns: Int) async throws {
        let counter = try await evening(columns: columns)
        let text = try await output(
            of: "order 熟成榛果歐蕾 大杯 無糖 完全去冰 加白玉 加菓玉 x2 note \"燕麥奶換成鮮奶，吸管另外放，謝謝您，外送員會來拿\" "
                + "for 王小明（台積電十二廠夜班團購）", on: counter)
        expectFits(text, columns, "receipt")
        #expect(text.contains("取餐號 #47"))
        #expect(text.contains("熟成榛果歐蕾"))
        #expect(text.contains("Total $"))
    }

    @Test func pipedOutputKeepsEveryColumnWhole() async throws {
        let counter = try await evening(columns: nil)
        let orders = try await output(of: "orders", on: counter)
        let header = try #require(orders.split(separator: "\n").first)
        #expect(header.contains("Cups") && header.contains("For"))
        #expect(orders.contains("Christopher Montgomery-Smith"))
        #expect(orders.contains("未付 unpaid") && orders.contains("製作中 preparing"))
        #expect(orders.split(separator: "\n").contains { $0.displayWidth > 120 })
        let menu = try await output(of: "menu", on: counter)
        #expect(menu.contains("English"))
        #expect(menu.contains("加料 Add-ons +$10 each per cup: 加白玉"))
    }

    @Test func aResizedScreenCountsFromTheNextCommand() async throws {
        let counter = try await evening(columns: 120)
        let wide = try await output(of: "orders", on: counter)
        #expect(wide.split(separator: "\n").first?.contains("Cups") == true)
        counter.interpreter.screen = FixedScreen(columns: 60, output: counter.output)
        let narrow = try await output(of: "orders", on: counter)
        expectFits(narrow, 60, "orders after a resize")
        #expect(narrow.split(separator: "\n").first?.contains("Cups") == false)
    }

    @Test func jsonIsNeverFittedOrPaged() async throws {
        let counter = try await evening(columns: 60)
        let json = try await output(of: "orders --json", on: counter)
        #expect(json.split(separator: "\n").count == 1)
        let screen = try #require(counter.interpreter.screen as? FixedScreen)
        #expect(screen.shown.isEmpty)
    }
}
