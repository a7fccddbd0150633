@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import PinHashing
import Testing
import TestSupport
@testable import ShopREPL

/// The one access table (`Command.requiredAction`), tried the way staff meet it: with PINs on, every
/// command that changes something is refused to someone not logged in, and every manager's command to a
/// cashier, before anything is read or written.
@Suite struct CommandAccessTests {
    /// A line for every command the counter takes. The switch has no `default`: a new command does not
    /// compile until it has a line here, and so is tried below.
    static func lines(for name: CommandName) -> [String] {
        switch name {
        case .menu: ["menu"]
        case .order: ["order 熟成紅茶 M 半糖 少冰"]
        case .orders: ["orders", "orders --watch"]
        case .edit: ["edit #1 大杯"]
        case .advance: ["advance #1"]
        case .cancel: ["cancel #1 customer left"]
        case .void: ["void #1 spilled"]
        case .delete: ["delete #1 --yes"]
        case .label: ["label #1 --preview"]
        case .receipt: ["receipt #1 --preview"]
        case .printer: ["printer", "printer label none"]
        case .online: ["online", "online on", "online off"]
        case .seed: ["seed Seeds/menu.json"]
        case .banner: ["banner"]
        case .promos: ["promos"]
        case .report: ["report"]
        case .log: ["log"]
        case .login: ["login Amy"]
        case .logout: ["logout"]
        case .help: ["help"]
        case .quit: ["quit"]
        case .pay: ["pay #1 cash 100"]
        case .adjust: ["adjust #1 cup 1"]
        case .invoice: ["invoice #1 04595257"]
        case .soldout: ["soldout 熟成紅茶"]
        case .restock: ["restock 熟成紅茶"]
        case .price: ["price 熟成紅茶 M 40"]
        case .staff: ["staff", "staff add Mei", "staff pin Amy", "staff nopin Amy", "staff remove Mei"]
        case .shift: ["shift", "shift open 2000"]
        case .close: ["close 2000"]
        case .archive: ["archive", "archive now", "archive on"]
        case .export: ["export --csv /tmp/day.csv"]
        case .member: ["member 0912345678"]
        case .redeem: ["redeem #1"]
        case .pass: ["pass 0912345678 月卡"]
        // From the shell only: the prompt refuses them, saying so (below).
        case .setup, .serve, .usage, .initialize, .check, .recover, .backup, .backups, .restore: []
        }
    }

    @Test("the commands of the shell are in the one table; at the prompt they say where they run")
    func shellCommandsSayWhereTheyRun() {
        for name in CommandName.allCases where name.runsFromTheShell {
            #expect(throws: CommandError(.runsFromTheShell(name), usage: name.info.usage)) {
                try CommandParser.parse(line: name.rawValue)
            }
            #expect(CommandProblem.runsFromTheShell(name).description.contains("runs from the shell, not at the prompt: drinkshop \(name.rawValue)"))
        }
    }

    @Test("every command that changes something needs someone logged in once PINs are set; looking does not")
    func everyCommandHasAnEntry() throws {
        var changing: Set<String> = []
        for name in CommandName.allCases {
            for line in Self.lines(for: name) {
                let command = try #require(try CommandParser.parse(line: line), "\(line)")
                if command.requiredAction != nil { changing.insert(line) }
            }
        }
        // The commands the probe found unguarded are guarded now.
        for line in ["delete #1 --yes", "redeem #1", "invoice #1 04595257", "advance #1", "orders --watch", "seed Seeds/menu.json",
                     "online on", "online off"] {
            #expect(changing.contains(line), "\(line) needs no one")
        }
        for line in ["menu", "orders", "report", "log", "help", "login Amy", "logout", "staff", "shift", "member 0912345678",
                     "online"] {
            #expect(!changing.contains(line), "\(line) should be open to anyone at the counter")
        }
    }

    @Test("with PINs on, the table refuses before anything is read: nobody logged in, then a cashier")
    func theTableRefusesBeforeRunning() async throws {
        let clock = TestClock(TestClock.noon)
        let base = try LocalBase.inMemory(clock: clock.date)
        let shop = Shop(store: base, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date),
                        pinHasher: try PINHasher(iterations: 1_000))
        try await shop.createMissingSchema()
        _ = try await shop.staff.add("Amy", role: .manager)
        _ = try await shop.staff.add("Ken", role: .staff)
        try await shop.staff.setPIN(try PIN("2468"), for: "Amy")
        try await shop.staff.setPIN(try PIN("1357"), for: "Ken")
        let output = CapturedOutput()
        let answers = AnswerQueue(["1357"])
        let interpreter = ShopInterpreter(shop: shop, output: output, defaultStaff: "nobody",
                                          readSecret: { _ in answers.pop() })
        var lines: [(String, ShopAction)] = []
        for name in CommandName.allCases {
            for line in Self.lines(for: name) {
                if let action = try CommandParser.parse(line: line)?.requiredAction { lines.append((line, action)) }
            }
        }
        // Nobody logged in: every one refused with the words staff use, none of them a Swift name.
        for (line, action) in lines {
            let before = output.errors.count
            #expect(await interpreter.run(line: line) == .failed, "\(line)")
            let said = String(output.errors.dropFirst(before))
            #expect(said.contains("log in first") && said.contains(action.staffWords), "\(line): \(said)")
            if action.rawValue.contains(where: \.isUppercase) { #expect(!said.contains(action.rawValue), "\(line): \(said)") }
        }
        // A cashier: the manager's ones refused, the others get past the table (and may fail later on the
        // order they name, which does not exist here, but never for want of a role).
        #expect(await interpreter.run(line: "login ken") == .succeeded)
        for (line, action) in lines {
            let before = output.errors.count
            _ = await interpreter.run(line: line)
            let said = String(output.errors.dropFirst(before))
            #expect(said.contains("only a manager") == action.needsManager, "\(line): \(said)")
            #expect(!said.contains("log in first"), "\(line): \(said)")
        }
        // Nothing was written by the refused commands: the menu is as seeded (empty) and no order exists.
        #expect(try await base.allRecords(in: ShopSchema.orderTable).isEmpty)
    }
}
