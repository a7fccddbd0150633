import Foundation
import Testing
@testable import DrinkShopCore
import TestSupport

@Suite struct BannerRotatorTests {
    /// Any instant will do: every time below is this one plus a fixed offset.
    private let t0 = ContinuousClock.now

    private func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .seconds(seconds) }

    private func banners(_ ids: String...) -> [Banner] {
        ids.map { Banner(id: $0, text: "banner \($0)") }
    }

    private func ids(_ rotator: BannerRotator, at times: [Double]) -> [String] {
        times.map { rotator.current(at: at($0))?.id ?? "-" }
    }

    @Test func advancesEveryThreeSecondsAndWrapsSeamlessly() {
        let rotator = BannerRotator(banners: banners("A", "B", "C"), startingAt: t0)
        #expect(rotator.interval == .seconds(3))
        #expect(ids(rotator, at: [0, 2.999, 3, 5.9, 6, 8.9, 9, 12, 15, 3000]) == ["A", "A", "B", "B", "C", "C", "A", "B", "C", "B"])
    }

    @Test func theIntervalIsInjectable() {
        let rotator = BannerRotator(banners: banners("A", "B"), interval: .milliseconds(500), startingAt: t0)
        #expect(ids(rotator, at: [0, 0.5, 1, 1.49]) == ["A", "B", "A", "A"])
        #expect(rotator.timeUntilNextChange(at: at(1.25)) == .milliseconds(250))
    }

    @Test func anInstantBeforeTheStartShowsTheFirstBanner() {
        let rotator = BannerRotator(banners: banners("A", "B"), startingAt: t0)
        #expect(rotator.current(at: at(-10))?.id == "A")
    }

    @Test func nextAndPreviousMoveAndRestartTheInterval() {
        var rotator = BannerRotator(banners: banners("A", "B", "C"), startingAt: t0)
        #expect(rotator.next(at: at(2))?.id == "B")
        // B now has a full 3 s from t = 2.
        #expect(ids(rotator, at: [4.9, 5, 8]) == ["B", "C", "A"])
        #expect(rotator.previous(at: at(8.5))?.id == "C")
        #expect(rotator.previous(at: at(8.6))?.id == "B")
        #expect(rotator.previous(at: at(8.7))?.id == "A")
        #expect(rotator.previous(at: at(8.8))?.id == "C")
        #expect(rotator.next(at: at(8.9))?.id == "A")
        #expect(ids(rotator, at: [11.8, 11.9]) == ["A", "B"])
    }

    @Test func keepsShowingTheSameBannerWithItsRemainingTimeWhenItIsStillListed() {
        var rotator = BannerRotator(banners: banners("A", "B", "C"), startingAt: t0)
        // At 4 s B is showing (since 3 s). A promotion X is added before it and A expires.
        rotator.update(banners: banners("X", "B", "C", "D"), at: at(4))
        #expect(ids(rotator, at: [4, 5.9, 6, 9, 12, 15]) == ["B", "B", "C", "D", "X", "B"])
    }

    @Test func movesOnToTheFollowerWhenTheShownBannerDisappears() {
        var rotator = BannerRotator(banners: banners("A", "B", "C", "D"), startingAt: t0)
        // B shows from 3 s; at 4 s B and C both expire: D followed them, so D shows, for a full interval.
        rotator.update(banners: banners("A", "D"), at: at(4))
        #expect(ids(rotator, at: [4, 6.9, 7, 10]) == ["D", "D", "A", "D"])
    }

    @Test func theFollowerWrapsPastTheEndOfTheOldList() {
        var rotator = BannerRotator(banners: banners("A", "B", "C"), startingAt: t0)
        rotator.update(banners: banners("A", "B"), at: at(7))  // C was showing; A followed it.
        #expect(rotator.current(at: at(7))?.id == "A")
    }

    @Test func anEntirelyNewListStartsAtItsFirstBanner() {
        var rotator = BannerRotator(banners: banners("A", "B"), startingAt: t0)
        rotator.update(banners: banners("X", "Y"), at: at(4))
        #expect(ids(rotator, at: [4, 7]) == ["X", "Y"])
    }

    @Test func anEmptyListShowsNothingAndRecovers() {
        var rotator = BannerRotator(banners: [], startingAt: t0)
        #expect(rotator.current(at: at(100)) == nil)
        #expect(rotator.next(at: at(100)) == nil)
        #expect(rotator.previous(at: at(100)) == nil)
        #expect(rotator.timeUntilNextChange(at: at(100)) == nil)
        rotator.update(banners: banners("A", "B"), at: at(200))
        #expect(ids(rotator, at: [200, 203]) == ["A", "B"])
        rotator.update(banners: [], at: at(204))
        #expect(rotator.current(at: at(204)) == nil)
    }

    @Test func neverSkipsOrRepeatsAcrossManyRandomChanges() {
        // Random lists over the ids A...F in a fixed order. Between changes, whenever the shown
        // banner survives the change it stays; otherwise the next shown is its first surviving
        // follower in the old list.
        var generator = SplitMix64(seed: 42)
        let universe = ["A", "B", "C", "D", "E", "F"]
        var current = banners("A", "B", "C")
        var rotator = BannerRotator(banners: current, startingAt: t0)
        var time = 0.0
        for _ in 0..<2_000 {
            time += Double(generator.next() % 700) / 100
            let shown = rotator.current(at: at(time))?.id
            let next = universe.filter { _ in generator.next() % 2 == 0 }.map { Banner(id: $0, text: $0) }
            rotator.update(banners: next, at: at(time))
            let after = rotator.current(at: at(time))?.id
            if next.isEmpty {
                #expect(after == nil)
            } else if let shown, next.contains(where: { $0.id == shown }) {
                #expect(after == shown)
            } else if let shown, let index = current.firstIndex(where: { $0.id == shown }) {
                let followers = (1..<max(current.count, 1)).map { current[(index + $0) % current.count].id }
                let expected = followers.first { id in next.contains { $0.id == id } } ?? next[0].id
                #expect(after == expected)
            } else {
                #expect(after == next[0].id)
            }
            current = next
        }
    }

    @Test func oneBannerNeverChangesByItself() {
        let rotator = BannerRotator(banners: banners("A"), startingAt: t0)
        #expect(ids(rotator, at: [0, 3, 300]) == ["A", "A", "A"])
        #expect(rotator.timeUntilNextChange(at: at(1)) == nil)
    }

    @Test func aZeroIntervalMovesOnlyByHand() {
        var rotator = BannerRotator(banners: banners("A", "B"), interval: .zero, startingAt: t0)
        #expect(ids(rotator, at: [0, 1_000]) == ["A", "A"])
        #expect(rotator.next(at: at(1_000))?.id == "B")
    }
}

@Suite struct BannerContentTests {
    @Test func bannersAreTheRunningPromotionsThenTheAvailableSeasonalDrinks() throws {
        let noon = Fixtures.noon
        let promotions = [
            try Promotion(name: "第二杯半價", kind: .secondCupHalfPrice, scope: .category(.milkTea)),
            try Promotion(name: "已結束", kind: .buyOneGetOne, endsAt: noon),
        ]
        let built = Banner.banners(promotions: promotions, menu: try Fixtures.menu(), at: noon)
        #expect(built.map(\.id) == ["promotion:第二杯半價", "drink:金蘋春芽"])
        #expect(built[0].text == "第二杯半價: second cup half price on 歐蕾 Milk Tea")
        #expect(built[1].text == "季節限定 金蘋春芽 Golden Apple Green Tea 中 $60 / 大 $70")
    }
}

