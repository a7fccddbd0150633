import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Testing
import TestSupport

/// An outbox file that fails the way a LocalBase file does (locked, full, unreadable): every write
/// throws `.localStore`, while reads still work (`GatedStore(file, writesOnly: true)`).
extension GatedStore {
    func breakWrites() { fail(with: .localStore("the local base outbox.sqlite failed: disk I/O error")) }
}

@Suite struct DeliveryPolicyTests {
    @Test func onlyAnUnreachableRemoteBaseCountsAsUnreachable() {
        #expect(ShopError.store(.transport("connection refused")).isUnreachable)
        #expect(ShopError.store(.timedOut(seconds: 30)).isUnreachable)
        #expect(ShopError.store(.api(APIError(status: 503, type: "SERVICE_UNAVAILABLE"))).isUnreachable)
        #expect(!ShopError.store(.api(.invalidValue(field: "size", detail: "is wrong"))).isUnreachable)
        #expect(!ShopError.store(.rateLimited(retryAfter: 30)).isUnreachable)
        #expect(!ShopError.store(.localStore("the local base outbox.sqlite failed: disk I/O error")).isUnreachable)
        #expect(!ShopError.noSuchOrder(.pickup(3)).isUnreachable)
    }

    @Test func aFailingOutboxWhileTheRemoteBaseAnswersNeitherMarksItOfflineNorLosesTheOrder() async throws {
        let fixture = try await ShopFixture()
        let file = try LocalBase.inMemory()
        try await Outbox(store: file, location: "outbox.sqlite").prepare()
        let local = GatedStore(file, writesOnly: true)
        let outbox = Outbox(store: local, location: "outbox.sqlite")
        let clock = fixture.clock
        let shop = Shop(store: fixture.base, clock: clock.shopClock,
                        outbox: outbox)
        local.breakWrites()

        // The menu is read from the remote base; the copy that cannot be kept is said, not fatal.
        let menu = try await shop.catalog.menu(refresh: true)
        #expect(!menu.isEmpty)
        #expect(try await shop.catalog.problems().contains { $0.contains("could not be kept in outbox.sqlite") })
        #expect(!shop.isOffline)

        let placed = try await shop.orders.place(OrderDraft(orderName: "Amy", lines: [
            LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.half), .ice(.less)], quantity: 2),
        ]), placedBy: "Ken")
        #expect(placed.number == .pickup(1))
        #expect(!placed.isUnsent)
        #expect(!shop.isOffline)
        let lines = try await fixture.records("OrderDrink")
        #expect(lines.count == 1)
        #expect(lines.first?.fields["orderName"] == "Amy")
        #expect(try await outbox.count() == 0)
        let (orders, problems) = try await shop.orders.today()
        #expect(orders.map(\.number) == [.pickup(1)])
        #expect(problems.isEmpty)
    }

    @Test func aLocalStoreFailureIsNamedAsSuchNotAsAnUnreachableStore() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/not-a-base.sqlite"
        try Data("a shopping list".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try LocalBase(path: path)
            Issue.record("a file that is not a base was opened")
        } catch {
            #expect(!ShopError.store(error).isUnreachable)
            guard case .localFile(LocalFileFailure(path: path, problem: .damaged)) = error else {
                Issue.record("not named as a local store's failure: \(error)")
                return
            }
        }
    }

    @Test func anOrderNotFoundWhileTheStoreIsUnreachableSaysSoByItsCase() async throws {
        let fixture = try await ShopFixture()
        let flaky = FlakyStore(fixture.base)
        let outbox = Outbox(store: try LocalBase.inMemory(), location: "memory")
        try await outbox.prepare()
        let clock = fixture.clock
        let shop = Shop(store: flaky, clock: clock.shopClock, outbox: outbox)
        _ = try await shop.catalog.menu()
        flaky.unplug()
        await #expect {
            _ = try await shop.orders.find(.pickup(7))
        } throws: { error in
            guard case .notFoundWhileOffline(.pickup(7), let failure)? = error as? ShopError else { return false }
            return failure.isUnreachable
        }
        #expect(shop.isOffline)
        flaky.plugIn()
        clock.advance(by: 5)
        await #expect {
            _ = try await shop.orders.find(.pickup(7))
        } throws: { error in
            guard case .noSuchOrder(.pickup(7))? = error as? ShopError else { return false }
            return true
        }
    }
}
