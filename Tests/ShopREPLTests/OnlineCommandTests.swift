@testable import DrinkShop
import DrinkShopCore
@testable import ShopREPL
import Testing

/// `online [on | off]`: the shared setting the customers' page at `/order` honours.
@Suite struct OnlineCommandTests {
    @Test func aManagerOpensAndClosesOnlineOrderingForEveryCounter() async throws {
        let counter = try await Counter()
        #expect(await counter.run("online") == [.succeeded])
        #expect(counter.output.text.contains("Online ordering is closed (網路點單關閉)"))
        #expect(await counter.run("online on") == [.succeeded])
        // Another counter on the same store reads it from the store.
        let other = Shop(store: counter.base)
        #expect(try await other.counter.isOnlineOrderingOpen())
        #expect(await counter.run("online") == [.succeeded])
        #expect(counter.output.text.contains("Online ordering is open (網路點單開放); `online off` closes it."))
        #expect(await counter.run("online off") == [.succeeded])
        #expect(try await other.counter.isOnlineOrderingOpen() == false)
        // Both changes are in the audit trail, with who made them.
        #expect(await counter.run("log") == [.succeeded])
        #expect(counter.output.text.contains("onlineOrdering"))
        #expect(counter.output.text.contains("unset -> on") && counter.output.text.contains("on -> off"))
    }

    @Test func onlyOnOrOffAreTaken() async throws {
        let counter = try await Counter()
        #expect(await counter.run("online maybe") == [.failed])
        #expect(counter.output.errors.contains("online takes on or off, not \"maybe\""))
        #expect(try CommandParser.parse(line: "online ON")?.command == .online(true))
        #expect(try CommandParser.parse(line: "網路點單 off")?.command == .online(false))
        #expect(try CommandParser.parse(line: "online")?.requiredAction == nil)
        #expect(try CommandParser.parse(line: "online on")?.requiredAction == .changeSetting)
    }
}
