@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import PinHashing
import Testing
import TestSupport
@testable import ShopREPL

/// The one access table (`CommandSpec.access`, asked through `ParsedCommand.requiredAction`), tried the way staff meet it: with PINs on, every
/// command that changes something is refused to someone not logged in, and every manager's command to a
/// cashier, before anything is read or written.
@Suite struct CommandAccessTests {
    /// Lines for every command the counter takes, by its name. `CommandTableTests` fails when a command of the
    /// table has none here, so a new command is tried below too.
    static let lines: [String: [String]] = [
        "menu": ["menu"],
        "order": ["order 熟成紅茶 M 半糖 少冰"],
        "orders": ["orders", "orders --watch"],
        "edit": ["edit #1 大杯"],
        "advance": ["advance #1"],
        "cancel": ["cancel #1 customer left"],
        "void": ["void #1 spilled"],
        "delete": ["delete #1 --yes"],
        "label": ["label #1 --preview"],
        "receipt": ["receipt #1 --preview"],
        "printer": ["printer", "printer label none"],
        "online": ["online", "online on", "online off"],
        "seed": ["seed Seeds/menu.json"],
        "banner": ["banner"],
        "promos": ["promos"],
        "report": ["report"],
        "log": ["log"],
        "login": ["login Amy"],
        "logout": ["logout"],
        "help": ["help"],
        "quit": ["quit"],
        "pay": ["pay #1 cash 100"],
        "adjust": ["adjust #1 cup 1"],
        "invoice": ["invoice #1 04595257"],
        "einvoice": ["einvoice track 11512 AB 12345000-12345049"],
        "soldout": ["soldout 熟成紅茶"],
        "restock": ["restock 熟成紅茶"],
        "price": ["price 熟成紅茶 M 40"],
        "staff": ["staff", "staff add Mei", "staff pin Amy", "staff nopin Amy", "staff remove Mei"],
        "shift": ["shift", "shift open 2000"],
        "close": ["close 2000"],
        "archive": ["archive", "archive now", "archive on"],
        "export": ["export --csv /tmp/day.csv"],
        "member": ["member 0912345678"],
        "redeem": ["redeem #1"],
        "pass": ["pass 0912345678 月卡"],
    ]

    /// What each of those lines needs once PINs are set, as the access table said before it moved into the command
    /// table (issue 34); every line not named here needs nobody.
    static let needs: [String: ShopAction] = [
        "order 熟成紅茶 M 半糖 少冰": .placeOrder, "orders --watch": .advanceOrder, "edit #1 大杯": .editOrder,
        "advance #1": .advanceOrder, "cancel #1 customer left": .cancelOrder, "void #1 spilled": .void,
        "delete #1 --yes": .deleteOrder, "printer label none": .changeSetting, "online on": .changeSetting,
        "online off": .changeSetting, "seed Seeds/menu.json": .seedMenu, "pay #1 cash 100": .takePayment,
        "adjust #1 cup 1": .editOrder, "invoice #1 04595257": .editOrder, "einvoice track 11512 AB 12345000-12345049": .invoiceSetup, "soldout 熟成紅茶": .soldOut,
        "restock 熟成紅茶": .restock, "price 熟成紅茶 M 40": .changePrice, "staff add Mei": .staffChanges,
        "staff pin Amy": .staffChanges, "staff nopin Amy": .staffChanges, "staff remove Mei": .staffChanges,
        "shift open 2000": .openShift, "close 2000": .closeDay, "archive now": .closeDay, "archive on": .changeSetting,
        "redeem #1": .redeemStamps, "pass 0912345678 月卡": .sellPass,
    ]

    @Test("the commands of the shell are in the one table; at the prompt they say where they run")
    func shellCommandsSayWhereTheyRun() {
        for spec in CommandSpec.all where spec.runsFromTheShell {
            #expect(throws: CommandError(.runsFromTheShell(spec), usage: spec.usage)) {
                try CommandParser.parse(line: spec.name)
            }
            #expect(CommandProblem.runsFromTheShell(spec).description.contains("runs from the shell, not at the prompt: drinkshop \(spec.name)"))
        }
    }

    @Test("every command that changes something needs someone logged in once PINs are set; looking does not")
    func everyCommandHasAnEntry() throws {
        var changing: Set<String> = []
        for spec in CommandSpec.all {
            for line in Self.lines[spec.name] ?? [] {
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
                                          prompter: Prompter(readSecret: { _ in answers.pop() }))
        var lines: [(String, ShopAction)] = []
        for spec in CommandSpec.all {
            for line in Self.lines[spec.name] ?? [] {
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
