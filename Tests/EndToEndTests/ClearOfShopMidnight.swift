import Foundation
import Testing

/// Starts each test of a suite clear of the shop's midnight. These suites run real `drinkshop` processes on the real
/// clock, in Asia/Taipei, where the business day starts at midnight: a test that places an order and then looks for it
/// as today's fails if the day rolls over in between (a CI run crossing 16:00 UTC failed 16 checks in 6 suites that
/// way). A test that would start in the last `margin` before that midnight waits until just after it; each test takes
/// seconds (under the CI's stress runs, well under a minute), so none then spans the change of day.
struct ClearOfShopMidnight: SuiteTrait, TestTrait, TestScoping {
    /// How close to midnight a test may start.
    static let margin: TimeInterval = 90
    /// How long after midnight a waiting test starts.
    static let after: TimeInterval = 2

    var isRecursive: Bool { true }

    /// Each test case (not the suite as a whole) waits if it must.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> ClearOfShopMidnight? { testCase == nil ? nil : self }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void)
        async throws
    {
        if let wait = Self.wait(at: Date()) { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
        try await function()
    }

    /// How long a test starting at `now` waits: nil unless midnight in Asia/Taipei is less than `margin` away.
    static func wait(at now: Date) -> TimeInterval? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Taipei") ?? .gmt
        guard let midnight = calendar.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0, second: 0),
                                               matchingPolicy: .nextTime)
        else { return nil }
        let left = midnight.timeIntervalSince(now)
        return left < margin ? left + after : nil
    }
}

extension Trait where Self == ClearOfShopMidnight {
    /// `ClearOfShopMidnight`: each test starts clear of the shop's midnight.
    static var clearOfShopMidnight: Self { Self() }
}

@Suite struct ClearOfShopMidnightTests {
    @Test func aTestStartingInTheLastMinuteAndAHalfBeforeTaipeisMidnightWaitsUntilJustAfterIt() throws {
        // 2026-12-06 16:00:00 UTC is midnight in Asia/Taipei (UTC+8).
        let midnight = try #require(ISO8601DateFormatter().date(from: "2026-12-06T16:00:00Z"))
        #expect(ClearOfShopMidnight.wait(at: midnight.addingTimeInterval(-60)) == 62)
        #expect(ClearOfShopMidnight.wait(at: midnight.addingTimeInterval(-89)) == 91)
        #expect(ClearOfShopMidnight.wait(at: midnight.addingTimeInterval(-91)) == nil)
        #expect(ClearOfShopMidnight.wait(at: midnight) == nil)
        #expect(ClearOfShopMidnight.wait(at: midnight.addingTimeInterval(1)) == nil)
        #expect(ClearOfShopMidnight.wait(at: midnight.addingTimeInterval(-12 * 3600)) == nil)
    }
}
