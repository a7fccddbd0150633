import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import HTTPServer
import LocalBase
import Testing
import TestSupport
@testable import OrderPage

/// Groups kept in the store: a new book on the same store file (a restarted server) finds each open group with
/// its lines, people and owners; a group being sent when the server stopped is placed once; expired ones go.
@Suite struct KeptGroupsTests {
    let clock = TestClock(TestClock.noon)
    let amy = BrowserKey.make(), ben = BrowserKey.make()
    let manager = Acting("Mia", role: .manager)

    /// A shop on the store file at `path`, as a new process opens it.
    func shop(at path: String) async throws -> (Shop, LocalBase) {
        let base = try LocalBase(path: path, clock: clock.date)
        let shop = Shop(store: base, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date))
        try await shop.createMissingSchema()
        return (shop, base)
    }

    func withStoreFile(_ body: (String) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("groups-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm", ".setup-lock"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let (shop, _) = try await shop(at: path)
        _ = try await shop.seeder.seed(contentsOf: LiveOrderServer.seeds + "/menu.json")
        try await shop.counter.setOnlineOrdering(true, by: manager)
        try await body(path)
    }

    @Test func aNewBookOnTheSameStoreFindsTheGroupWithItsLinesAndOwners() async throws {
        try await withStoreFile { path in
            let (shop, _) = try await self.shop(at: path)
            let (book, _) = try await GroupBook.reopen(keptBy: shop.counter, now: clock.date)
            let id = try await book.start(by: amy, from: ClientNetwork(host: "192.0.2.1"), name: "Amy", mobile: "0912-345-678")
            try await book.join(id, by: ben, name: "Ben")
            let amysLine = try await book.addLine(id, by: amy, drink: GroupBookTests.blackTea,
                                                  choices: GroupBookTests.cup(addOns: [.fruitJelly], note: "少冰"))
            let bensLine = try await book.addLine(id, by: ben, drink: GroupBookTests.lemon,
                                                  choices: GroupBookTests.cup(.medium, .regular, .free, cups: 2))
            let before = try book.snapshot(id, for: amy)

            // The server restarted: a new connection to the file, a new shop, a new book.
            let (again, base) = try await self.shop(at: path)
            let (reopened, notes) = try await GroupBook.reopen(keptBy: again.counter, now: clock.date)
            #expect(notes.isEmpty)
            let after = try reopened.snapshot(id, for: ben)
            #expect(after.lines == before.lines)
            #expect(after.organiserName == "Amy" && after.viewerName == "Ben" && !after.isOrganiser)
            #expect(after.expiresAt == before.expiresAt && after.version == before.version)
            // Whose line is whose, and who sends, hold as before.
            await #expect(throws: OrderPageRefusal.notYourLine) { try await reopened.deleteLine(id, line: amysLine, by: ben) }
            await #expect(throws: OrderPageRefusal.notOrganiser) { try await reopened.beginSending(id, by: ben) }
            await #expect(throws: OrderPageRefusal.notMember) {
                try await reopened.addLine(id, by: BrowserKey.make(), drink: GroupBookTests.blackTea, choices: GroupBookTests.cup())
            }
            try await reopened.deleteLine(id, line: bensLine, by: ben)
            let draft = try await reopened.beginSending(id, by: amy)
            #expect(draft.orderName == "Amy 0912-***-678")
            #expect(draft.lines.map(\.note) == ["for Amy · 少冰"])
            // The store holds neither the link's id nor a browser's key.
            let kept = try await base.allRecords(in: ShopSchema.onlineGroupTable)
            #expect(kept.count == 1)
            let text = kept.map { "\($0.fields)" }.joined()
            for secret in [id.hex, amy.hex, ben.hex] { #expect(!text.contains(secret)) }
        }
    }

    @Test func expiredGroupsAreDroppedAtStart() async throws {
        try await withStoreFile { path in
            let (shop, base) = try await self.shop(at: path)
            let (book, _) = try await GroupBook.reopen(keptBy: shop.counter, now: clock.date)
            let id = try await book.start(by: amy, from: ClientNetwork(host: "192.0.2.1"), name: "Amy", mobile: nil)
            clock.advance(by: book.limits.groupLifetime + 1)
            let (reopened, _) = try await GroupBook.reopen(keptBy: try await self.shop(at: path).0.counter, now: clock.date)
            #expect(throws: OrderPageRefusal.noSuchGroup) { try reopened.snapshot(id, for: amy) }
            #expect(try await base.allRecords(in: ShopSchema.onlineGroupTable).isEmpty)
        }
    }

    @Test func aGroupBeingSentWhenTheServerStoppedIsPlacedOnce() async throws {
        try await withStoreFile { path in
            let (shop, _) = try await self.shop(at: path)
            let (book, _) = try await GroupBook.reopen(keptBy: shop.counter, now: clock.date)
            let placed = try await book.start(by: amy, from: ClientNetwork(host: "192.0.2.1"), name: "Amy", mobile: nil)
            try await book.addLine(placed, by: amy, drink: GroupBookTests.blackTea, choices: GroupBookTests.cup())
            let unplaced = try await book.start(by: ben, from: ClientNetwork(host: "198.51.100.1"), name: "Ben", mobile: nil)
            try await book.addLine(unplaced, by: ben, drink: GroupBookTests.blackTea, choices: GroupBookTests.cup())
            // Amy's order reaches the store, and the server stops before it hears the answer; Ben's never leaves.
            let sending = try await book.beginSendingWithMember(placed, by: amy)
            let ticket = try await shop.counter.placeOnline(sending.draft, within: OnlineOrderBounds(orders: 20, cups: 200, unpaid: 12_000),
                                                           orderRef: sending.orderRef)
            _ = try await book.beginSendingWithMember(unplaced, by: ben)

            let (again, _) = try await self.shop(at: path)
            let (reopened, notes) = try await GroupBook.reopen(keptBy: again.counter, now: clock.date)
            #expect(notes.count == 2)
            guard case .sent(let found, _) = try reopened.snapshot(placed, for: amy).state else {
                Issue.record("Amy's group should be sent as the order the store holds")
                return
            }
            #expect(found.number == ticket.number && found.orderRef == ticket.orderRef && found.total == ticket.total)
            await #expect(throws: OrderPageRefusal.alreadySent) { try await reopened.beginSending(placed, by: amy) }
            // Ben's group takes changes again and sends once.
            #expect(try reopened.snapshot(unplaced, for: ben).state == .open)
            _ = try await reopened.beginSending(unplaced, by: ben)
            #expect(try await again.orders.today().orders.count == 1)
        }
    }
}
