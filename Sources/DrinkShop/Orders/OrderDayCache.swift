import Airtable
import DrinkShopCore
import Foundation
import Synchronization

/// This counter's copy of the day's order records on a remote base, so the order list costs one small
/// request (what changed since the last look) instead of the whole day again.
///
/// How it stays true:
/// - each look asks for the `OrderDrink` records modified since the previous look began, less a margin
///   for clocks that disagree (30 s until an order this counter placed has shown how far the base's clock
///   is from its own, then that distance plus 2 s), and merges them: a record that no longer belongs to
///   the list (finished on an earlier day) leaves it;
/// - a record removed by another counter cannot show up in "what changed", so the whole list is read
///   again at least every `fullReadInterval`, and at once when the business day turns;
/// - this counter's own deletions leave the copy at once.
///
/// The embedded store reads the whole day by its indexes every time (no request budget to save there).
public final class OrderDayCache: Sendable {
    struct State {
        var day: BusinessDay
        var records: [String: Record]
        /// When the last look began (this counter's clock), and when the whole list was last read.
        var lastLook: Date
        var lastFullRead: Date
    }

    private let state = Mutex<State?>(nil)
    /// How far back each look reaches before the previous one began, while nothing is known of how the
    /// base's clock and this counter's differ.
    static let clockMargin: TimeInterval = 30
    /// The least reach back once they are known: Airtable's times may be whole seconds.
    static let knownClockMargin: TimeInterval = 2
    /// How far the base's clock may be from this counter's, as last seen (nil: not yet seen).
    private let clockDifference = Mutex<TimeInterval?>(nil)

    /// Learns how the base's clock differs from this counter's from a record it created between `sent` and
    /// `answered` (this counter's clock): its creation time, by the base's clock, lies between them.
    func observe(created: Date, sent: Date, answered: Date) {
        let spread = max(abs(created.timeIntervalSince(sent)), abs(created.timeIntervalSince(answered)))
        clockDifference.withLock { $0 = spread }
    }

    /// How far back from the last look the next one reaches.
    var margin: TimeInterval {
        clockDifference.withLock { $0 }.map { min(Self.clockMargin, $0 + Self.knownClockMargin) } ?? Self.clockMargin
    }
    /// The longest a removal by another counter stays on this counter's list.
    static let fullReadInterval: TimeInterval = 60
    /// For tests that step past it.
    public static var fullReadIntervalForTests: TimeInterval { fullReadInterval }

    /// What the next look should ask for: everything (nil), or what changed since the returned moment.
    func changesSince(day: BusinessDay, now: Date) -> Date? {
        let margin = margin
        return state.withLock { state in
            guard let state, state.day == day, now.timeIntervalSince(state.lastFullRead) < Self.fullReadInterval,
                  now >= state.lastLook
            else { return nil }
            return state.lastLook.addingTimeInterval(-margin)
        }
    }

    /// Keeps the whole list read at `began`.
    func replace(day: BusinessDay, with records: [Record], began: Date) {
        state.withLock { state in
            state = State(day: day, records: Dictionary(records.map { ($0.id, $0) }) { $1 }, lastLook: began,
                          lastFullRead: began)
        }
    }

    /// Merges the records changed since the last look (begun at `began`): each kept when `belongs`,
    /// dropped otherwise. Returns the list after the merge, or nil when the copy is gone (the day turned).
    func merge(day: BusinessDay, changed: [Record], began: Date, belongs: (Record) -> Bool) -> [Record]? {
        state.withLock { state in
            guard var current = state, current.day == day else { return nil }
            for record in changed {
                current.records[record.id] = belongs(record) ? record : nil
            }
            current.lastLook = began
            state = current
            return Array(current.records.values)
        }
    }

    /// Keeps records this counter just wrote, as the store answered (the next look brings them again).
    func keep(_ records: [Record], day: BusinessDay) {
        state.withLock { state in
            guard state?.day == day else { return }
            for record in records { state?.records[record.id] = record }
        }
    }

    /// Forgets records this counter removed.
    func remove(_ ids: [String]) {
        state.withLock { state in
            for id in ids { state?.records[id] = nil }
        }
    }

    /// The last list read, without asking the base (nil before the first look, or on another day).
    func lastList(day: BusinessDay) -> [Record]? {
        state.withLock { state in
            guard let state, state.day == day else { return nil }
            return Array(state.records.values)
        }
    }
}
