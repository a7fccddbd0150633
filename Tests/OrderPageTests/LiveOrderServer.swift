import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import HTTPServer
import LocalBase
import OrderPage
import Synchronization
import TestSupport

/// "The store may have changed", told by the test (the server's write signal in `drinkshop serve`).
final class TestSignal: Sendable {
    private let subscribers = Mutex<[AsyncStream<Void>.Continuation]>([])

    func subscribe() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        subscribers.withLock { $0.append(continuation) }
        return stream
    }

    func changed() {
        for subscriber in subscribers.withLock({ $0 }) { subscriber.yield() }
    }

    func finish() {
        for subscriber in subscribers.withLock({ $0 }) { subscriber.finish() }
    }
}

/// A count several tasks add to.
final class Tally: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// A shop on a fresh in-memory base seeded with the repository's menu, with the ordering page served on a
/// free port in front of a stand-in for the token-protected API (401 for everything).
struct LiveOrderServer {
    let clock: TestClock
    let base: LocalBase
    let shop: Shop
    let page: OrderPage
    let port: Int
    let signal: TestSignal
    let placed: Tally
    let manager = Acting("Mia", role: .manager)

    func browser() -> Browser { Browser(port: port) }

    /// The counter moves order `number` on, as staff would; the server's write signal follows.
    func advance(_ number: Int, unpaid: Bool = false) async throws {
        _ = try await shop.counter.advance(.pickup(number), unpaid: unpaid, by: manager)
        signal.changed()
    }

    func setOnline(_ on: Bool) async throws {
        try await shop.counter.setOnlineOrdering(on, by: manager)
    }

    static let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Seeds").path

    static func run(
        online: Bool = true, limits change: (inout OrderPageLimits) -> Void = { _ in },
        _ body: (LiveOrderServer) async throws -> Void
    ) async throws {
        let clock = TestClock(TestClock.noon)
        let base = try LocalBase.inMemory(clock: clock.date)
        let shop = Shop(store: base, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date))
        try await shop.createMissingSchema()
        _ = try await shop.seeder.seed(contentsOf: seeds + "/menu.json")
        _ = try await shop.seeder.seed(contentsOf: seeds + "/promotions.json")
        var limits = OrderPageLimits()
        change(&limits)
        let signal = TestSignal()
        let placed = Tally()
        let book = GroupBook(limits: limits, now: clock.date)
        let seconds = clock.monotonic
        let page = OrderPage(shop: shop, book: book, storeChanges: { signal.subscribe() },
                             placed: { _ in placed.add() }, heartbeat: .seconds(15), seconds: seconds)
        let server = HTTPServer(configuration: .init(port: 0), handler: page.handler { _ in
            .json(#"{"error":"AUTHENTICATION_REQUIRED"}"#, status: 401)
        })
        let port = try server.start()
        let live = LiveOrderServer(clock: clock, base: base, shop: shop, page: page, port: port, signal: signal, placed: placed)
        if online { try await live.setOnline(true) }
        do {
            try await body(live)
        } catch {
            signal.finish()
            book.finish()
            await server.shutdown()
            throw error
        }
        signal.finish()
        book.finish()
        await server.shutdown()
    }
}

extension PageResponse {
    /// The group's path a redirect points at (`/order/g/<id>`), without any fragment.
    var location: String? { header("Location").map { String($0.split(separator: "#")[0]) } }
}

/// A drink form as the page's form sends it.
func drinkFields(_ drink: String, size: String, ice: String, sugar: String, addOns: [String] = [], cups: Int = 1, note: String = "")
    -> [(String, String)]
{
    [("drink", drink), ("size", size), ("ice", ice), ("sugar", sugar)] + addOns.map { ("addon", $0) }
        + [("cups", String(cups)), ("note", note)]
}
