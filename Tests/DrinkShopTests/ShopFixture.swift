import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import PinHashing
import TestSupport
import LocalBase
import Synchronization

extension TestClock {
    /// The shop's clock (Taipei) reading this test clock.
    var shopClock: ShopClock { ShopClock(timeZone: TestClock.taipei, now: date) }
}

/// A shop on a fresh in-memory (or file) LocalBase with the shop's tables, seeded from the repo's menu.
struct ShopFixture {
    let clock: TestClock
    let base: LocalBase
    let shop: Shop

    init(seeded: Bool = true, path: String? = nil, pinHasher: PINHasher = .standard) async throws {
        let clock = TestClock(TestClock.noon)
        self.clock = clock
        let now = clock.date
        base = try path.map { try LocalBase(path: $0, clock: now) } ?? LocalBase.inMemory(clock: now)
        shop = Shop(store: base, clock: clock.shopClock, pinHasher: pinHasher)
        try await shop.createMissingSchema()
        if seeded {
            _ = try await shop.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
            _ = try await shop.seeder.seed(contentsOf: ShopFixture.seeds + "/promotions.json")
        }
    }

    /// The repository's Seeds folder.
    static let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Seeds").path

    /// A counter reaching the base through `store` (over the API), with an outbox of its own named `location`.
    func counter(over store: any RecordStore, location: String) async throws -> Shop {
        let outbox = Outbox(store: try LocalBase.inMemory(clock: clock.date), location: location)
        try await outbox.prepare()
        return Shop(store: store, clock: clock.shopClock, outbox: outbox)
    }

    /// A new shop (another counter) on the same base.
    func secondCounter() -> Shop {
        let clock = self.clock
        return Shop(store: base, clock: clock.shopClock)
    }

    func records(_ table: String) async throws -> [Record] {
        try await base.allRecords(in: table)
    }

    func line(_ drink: String, _ options: [DrinkOption], quantity: Int? = nil, note: String? = nil) -> LineDraft {
        LineDraft(drink: drink, options: options, quantity: quantity, note: note)
    }
}

/// A temporary file path, removed with its folder when the test's scope ends.
struct TemporaryDirectory: ~Copyable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "drinkshop-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String, contents: String) throws -> String {
        let file = path + "/" + name
        try contents.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
