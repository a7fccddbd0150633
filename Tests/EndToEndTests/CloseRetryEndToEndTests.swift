import Foundation
import Testing

/// A close whose answer was lost, tried again: the counter says what the store holds, not that no shift is open.
@Suite(.clearOfShopMidnight) struct CloseRetryEndToEndTests {
    @Test func aCloseTriedAgainSaysWhenWhoAndWhatWasCounted() async throws {
        let shop = try Drinkshop()
        let first = try await shop.run(["--staff", "Amy"], input: """
            shift open 3000
            order 熟成紅茶 M 無糖 去冰
            pay #1 cash
            close 3920
            """)
        #expect(first.status == 0, "\(first.stderr)")
        let again = try await shop.run(["--staff", "Amy", "close", "3920"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("the drawer was closed at "), "\(again.stderr)")
        #expect(again.stderr.contains(" by Amy, counted 3920, "), "\(again.stderr)")
        #expect(!again.stderr.contains("no shift is open"), "\(again.stderr)")
    }
}
