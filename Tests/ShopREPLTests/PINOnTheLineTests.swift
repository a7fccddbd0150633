import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import PinHashing
import ShopREPL
import Testing
import TestSupport

/// A PIN typed on the command line (`login Boss 4321`) is refused before anything runs, and neither the
/// refusal nor anything else says it back; the session keeps no such line in history (`holdsPIN`).
@Suite struct PINOnTheLineTests {
    @Test("lines that hold a PIN", arguments: [
        ("login Boss 4321", true), ("login Boss", false), ("LOGIN boss ４３２１", true), ("staff pin Boss 13579", true),
        ("staff add Mei manager 2468", true), ("login Amy Lin", false), ("pay #1 cash 1000", false),
        ("order 熟成紅茶 M for 0912345678", false), ("staff pin Boss", false), ("shift open 1000", false),
    ])
    func holdsPIN(line: String, holds: Bool) {
        #expect(CommandParser.holdsPIN(line: line) == holds)
    }

    @Test func aLoginWithItsPINIsRefusedUnrunAndNeverEchoed() async throws {
        let base = try LocalBase.inMemory()
        let shop = Shop(store: base, pinHasher: try PINHasher(iterations: 1_000))
        try await shop.createMissingSchema()
        _ = try await shop.staff.add("Boss", role: .manager)
        try await shop.staff.setPIN(try PIN("4321"), for: "Boss")
        let output = CapturedOutput()
        let interpreter = ShopInterpreter(shop: shop, output: output, defaultStaff: "nobody", prompter: Prompter(readSecret: { _ in "4321" }))
        for line in ["login Boss 4321", "staff pin Boss 4321"] {
            #expect(await interpreter.run(line: line) == .failed)
        }
        #expect(output.errors.contains("PIN 不要打在指令上"))
        #expect(!output.errors.contains("4321") && !output.text.contains("4321"))
        // Nobody was logged in by it, and no try was counted against Boss.
        #expect(try await shop.staff.account(named: "Boss").attempts.failures == 0)
        #expect(await interpreter.run(line: "login Boss") == .succeeded)
    }
}
