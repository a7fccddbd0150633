import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import PinHashing
import Printing
@testable import ShopREPL
import TestSupport
import Testing

/// A remote base that can be unplugged: while down, every request fails as a lost connection does.
extension GatedStore {
    func unplug() { fail(with: .transport("connection refused")) }
    func plugIn() { fail(with: nil) }
}

/// With PINs on and the base away, a counter takes orders into its outbox at once, checking who may act
/// against the last known staff, and says once that it works from them.
@Suite struct LastKnownStaffTests {
    static let lastKnown = "working from the last known staff and settings"

    /// A base with the menu seeded and Amy a manager with the PIN 2468; and a shop over it for more set-up.
    static func shopWithAmysPIN(_ clock: TestClock, hasher: PINHasher) async throws -> (LocalBase, Shop) {
        let base = try LocalBase.inMemory(clock: clock.date)
        let setup = Shop(store: base, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date), pinHasher: hasher)
        try await setup.createMissingSchema()
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seeds").path
        _ = try await setup.seeder.seed(contentsOf: seeds + "/menu.json")
        _ = try await setup.counter.addStaff("Amy", role: .manager, by: Acting("Amy", role: nil))
        _ = try await setup.counter.setPIN(try PIN("2468"), for: "Amy", by: Acting("Amy", role: nil))
        return (base, setup)
    }

    @Test func withPINsOnAndTheBaseAwayOrdersGoToTheOutboxCheckedAgainstTheLastKnownStaff() async throws {
        let clock = TestClock(Counter.noon)
        let hasher = try PINHasher(iterations: 1_000)
        let (base, _) = try await Self.shopWithAmysPIN(clock, hasher: hasher)

        let remote = GatedStore(base)
        let store = CountingStore(remote)
        let outboxFile = try LocalBase.inMemory(clock: clock.date)
        let outbox = Outbox(store: outboxFile, location: "outbox.sqlite")
        try await outbox.prepare()
        func counter(_ output: CapturedOutput) -> ShopInterpreter {
            let shop = Shop(store: store, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date), outbox: outbox,
                            pinHasher: hasher)
            return ShopInterpreter(shop: shop, output: output, defaultStaff: "Ken", prompter: Prompter(readSecret: { _ in "2468" }))
        }
        let output = CapturedOutput()
        let amy = counter(output)
        #expect(await amy.run(line: "login Amy") == .succeeded)
        #expect(await amy.run(line: "order 熟成紅茶 M 無糖 少冰") == .succeeded)
        #expect(output.text.contains("取餐號 #1"))

        // The base goes away, and stays away long past every reading's and note's age.
        remote.unplug()
        clock.advance(by: 120)
        let first = await store.requests { #expect(await amy.run(line: "order 熟成紅茶 L 半糖 去冰") == .succeeded) }
        #expect(try await outbox.count() == 1)
        #expect(!first.contains("GET User"), "whether PINs are on is not asked of a base that is away: \(first)")
        #expect(output.errors.components(separatedBy: Self.lastKnown).count == 2)
        clock.advance(by: 10)
        let second = await store.requests { #expect(await amy.run(line: "order 白玉歐蕾 M 半糖 少冰") == .succeeded) }
        #expect(try await outbox.count() == 2)
        #expect(!second.contains("GET User") && !second.contains("GET Setting"), "\(second)")
        #expect(output.errors.components(separatedBy: Self.lastKnown).count == 2, "said once")

        // A counter opened while the base is away goes by what this machine last knew: PINs are on.
        let laterOutput = CapturedOutput()
        let later = counter(laterOutput)
        // Opening, it finds the base away (one try), and from then on waits on it for nothing.
        let opening = await store.requests {
            let adopted = try? await later.shop.settings.adopt(environment: [:], machineTimeZone: TestClock.taipei)
            #expect(adopted?.notes.isEmpty == false)
        }
        #expect(opening == ["GET Setting"])
        #expect(later.shop.isOffline)
        let refused = await store.requests { #expect(await later.run(line: "order 熟成紅茶 M 無糖 少冰") == .failed) }
        #expect(laterOutput.errors.contains("log in"))
        #expect(laterOutput.errors.contains(Self.lastKnown))
        #expect(refused.isEmpty, "\(refused)")
        #expect(try await outbox.count() == 2)
    }

    @Test("while the base is away, a one-shot command proves its PIN against the staff last read, and wrong PINs still lock")
    func aOneShotCommandProvesItsPINAgainstTheLastKnownStaffWhileTheBaseIsAway() async throws {
        let clock = TestClock(Counter.noon)
        let hasher = try PINHasher(iterations: 1_000)
        let (base, setup) = try await Self.shopWithAmysPIN(clock, hasher: hasher)
        _ = try await setup.counter.addStaff("Ken", role: .staff, by: Acting("Amy", role: .manager))
        _ = try await setup.counter.setPIN(try PIN("1357"), for: "Ken", by: Acting("Amy", role: .manager))

        let remote = GatedStore(base)
        let store = CountingStore(remote)
        let outbox = Outbox(store: try LocalBase.inMemory(clock: clock.date), location: "outbox.sqlite")
        try await outbox.prepare()
        /// A one-shot `drinkshop` command of this machine: its own process, so its own shop over the same outbox.
        func oneShot(_ line: String, as name: String, pin: String) async -> (ShopInterpreter.Outcome, CapturedOutput) {
            let shop = Shop(store: store, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date), outbox: outbox,
                            pinHasher: hasher)
            let output = CapturedOutput()
            let command = ShopInterpreter(shop: shop, output: output, defaultStaff: name, credentials: OneShotCredentials(pin: pin))
            // As `drinkshop` does before a command: the outbox first (and the counter's letter, the first time).
            await command.sendOutbox(force: !shop.isOffline)
            return (await command.run(line: line), output)
        }
        // While the base answers, a command reads the staff (and the outbox keeps them for an outage).
        #expect(await oneShot("orders", as: "Amy", pin: "2468").0 == .succeeded)

        remote.unplug()
        clock.advance(by: 600)
        let (placed, placedOutput) = await oneShot("order 熟成紅茶 M 無糖 少冰", as: "Ken", pin: "1357")
        #expect(placed == .succeeded, "\(placedOutput.errors)")
        #expect(placedOutput.text.contains("kept on this counter as #A-P1"), "\(placedOutput.text)")
        #expect(try await outbox.count() == 1)

        // A burst of wrong PINs locks Ken out here too, and then even his right PIN is refused.
        var said: [String] = []
        for _ in 0..<5 {
            let (outcome, output) = await oneShot("order 熟成紅茶 M 無糖 少冰", as: "Ken", pin: "0000")
            #expect(outcome == .failed)
            said.append(output.errors)
        }
        #expect(said.first?.contains("wrong PIN; 4 tries left") == true, "\(said)")
        #expect(said.last?.contains("too many wrong PINs: locked for 5 more minutes") == true, "\(said)")
        let (locked, lockedOutput) = await oneShot("order 熟成紅茶 M 無糖 少冰", as: "Ken", pin: "1357")
        #expect(locked == .failed)
        #expect(lockedOutput.errors.contains("locked"), "\(lockedOutput.errors)")
        #expect(try await outbox.count() == 1)
        // Amy is not locked by Ken's tries, and nobody is added or known who was not on the staff.
        #expect(await oneShot("order 白玉歐蕾 M 半糖 少冰", as: "Amy", pin: "2468").0 == .succeeded)
        #expect(await oneShot("order 白玉歐蕾 M 半糖 少冰", as: "Zed", pin: "2468").0 == .failed)
        #expect(try await outbox.count() == 2)
    }

    @Test func aProvisionalOrdersStickersArePrintedAgainWithItsPickupNumberOnceItIsSent() async throws {
        let clock = TestClock(Counter.noon)
        let base = try LocalBase.inMemory(clock: clock.date)
        let setup = Shop(store: base, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date))
        try await setup.createMissingSchema()
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seeds").path
        _ = try await setup.seeder.seed(contentsOf: seeds + "/menu.json")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("drinkshop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("labels.tspl").path

        let remote = GatedStore(base)
        let outbox = Outbox(store: try LocalBase.inMemory(clock: clock.date), location: "outbox.sqlite")
        try await outbox.prepare()
        let shop = Shop(store: remote, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date), outbox: outbox,
                        printers: ShopPrinters(label: try PrinterSink(setting: file)))
        let output = CapturedOutput()
        let counter = ShopInterpreter(shop: shop, output: output, defaultStaff: "Ken")
        // As the REPL does before its first prompt: the outbox is sent, and the counter claims its letter (A).
        await counter.sendOutbox(force: true)
        #expect(await counter.run(line: "order 熟成紅茶 M 無糖 少冰") == .succeeded)
        remote.unplug()
        clock.advance(by: 10)
        #expect(await counter.run(line: "order 白玉歐蕾 L 半糖 少冰 x2") == .succeeded)
        #expect(try await outbox.count() == 1)
        let stickers = { () throws -> [String] in
            TSPL.lines(Array(try #require(FileManager.default.contents(atPath: file)))).compactMap(TSPL.text)
        }
        #expect(try stickers().filter { $0.hasPrefix("#A-P1") }.count == 2, "printed with the kept number")

        remote.plugIn()
        clock.advance(by: 10)
        await counter.sendOutbox(force: true)
        #expect(output.text.contains("Sent order #A-P1: its pickup number is #2"))
        #expect(output.text.contains("Printed 2 cup labels of #2 again on \(file): its pickup number replaces #A-P1"))
        // The two stickers again, with the pickup number staff call out and the kept number the slip says.
        let again = try stickers().filter { $0.hasSuffix("/2") && !$0.hasPrefix("#") }
        #expect(again.count == 2 && again.allSatisfy { $0.hasPrefix("2 (A-P1)") }, "\(again)")

        // The store keeps the P number beside the pickup number, for the pickup screen's `P1 → 47`; the
        // order placed online has none.
        let lines = try await base.allRecords(in: ShopSchema.orderTable)
        #expect(Set(lines.map { $0.fields[OrderField.provisionalNumber.rawValue]?.intValue }) == [nil, 1], "\(lines.map(\.fields))")
        let tickets = try await shop.queue.pickupTickets().tickets
        #expect(tickets.map(\.number) == [1, 2])
        #expect(tickets.map(\.provisionalNumber) == [nil, 1])
        #expect(tickets.map(\.keptText) == [nil, "A-P1"])
    }
}
