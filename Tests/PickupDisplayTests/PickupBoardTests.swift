import Foundation
import PickupDisplay
import Testing

/// The board model: what the TV shows, decided from the orders' tickets before any page lays it out.
@Suite struct PickupBoardTests {
    private let today = "2026-12-03"

    private func ticket(_ number: Int, _ stage: PickupTicket.Stage, day: String? = nil, readyAt seconds: Double? = nil)
        -> PickupTicket
    {
        PickupTicket(number: number, businessDay: day ?? today, stage: stage,
                     readyAt: seconds.map { Date(timeIntervalSince1970: 1_800_000_000 + $0) })
    }

    @Test func numbersAreInNumericOrderNotPlacementOrder() {
        // The issue's evening: #32 and #33 were placed before #22 was, and the panel read …21, 32, 22, 33….
        let placed = [20, 21, 32, 22, 33, 36, 9, 100]
        let board = PickupBoard(tickets: placed.map { ticket($0, .preparing) } + [36, 4, 12].map { ticket($0 + 200, .ready) },
                                today: today)
        #expect(board.preparing == [9, 20, 21, 22, 32, 33, 36, 100])
        #expect(board.ready == [204, 212, 236])
    }

    @Test func theNewestReadyIsTheLastToBecomeReadyNotTheHighest() {
        let board = PickupBoard(tickets: [ticket(3, .ready, readyAt: 10), ticket(40, .ready, readyAt: 20),
                                          ticket(17, .ready, readyAt: 30), ticket(41, .preparing)], today: today)
        #expect(board.newestReady == 17)
        #expect(board.ready == [3, 17, 40])
    }

    @Test func withoutReadyTimesTheNewestReadyIsTheLastListedAndATimedOneWins() {
        // A base older than the step fields has no readyAt: the last of the oldest-first tickets.
        #expect(PickupBoard(tickets: [ticket(5, .ready), ticket(2, .ready)], today: today).newestReady == 2)
        #expect(PickupBoard(tickets: [ticket(5, .ready, readyAt: 1), ticket(2, .ready)], today: today).newestReady == 5)
        #expect(PickupBoard(tickets: [ticket(5, .preparing)], today: today).newestReady == nil)
    }

    @Test func yesterdaysUncollectedNumberIsShownApartWithItsDayNeverAsABareNumber() {
        // The issue's panel read `4 3 4 5`: yesterday's ready #4 beside today's, while today's #4 was being made.
        let board = PickupBoard(tickets: [ticket(4, .ready, day: "2026-12-02", readyAt: 99), ticket(3, .ready, readyAt: 1),
                                          ticket(4, .preparing), ticket(5, .ready, readyAt: 2)], today: today)
        #expect(board.ready == [3, 5])
        #expect(board.preparing == [4])
        #expect(board.newestReady == 5)   // yesterday's later timestamp does not make it today's newest
        #expect(board.earlier == [.init(number: 4, day: "2026-12-02")])
        #expect(board.earlier.map(\.dayLabel) == ["12/02"])
    }

    @Test func earlierDaysAreOldestDayFirstThenByNumberAndAnEarlierDayStillBeingMadeIsLeftToTheCounter() {
        let board = PickupBoard(tickets: [ticket(9, .ready, day: "2026-12-02"), ticket(12, .ready, day: "2026-11-30"),
                                          ticket(2, .ready, day: "2026-12-02"), ticket(7, .preparing, day: "2026-12-02")],
                                today: today)
        #expect(board.earlier.map(\.number) == [12, 2, 9])
        #expect(board.earlier.map(\.dayLabel) == ["11/30", "12/02", "12/02"])
        #expect(board.preparing.isEmpty && board.ready.isEmpty && board.newestReady == nil)
    }

    @Test("a number first given out as P1 while the store was away shows P1 beside it; an earlier day's does not")
    func aProvisionalNumberIsShownBesideItsPickupNumber() {
        var sent = ticket(47, .ready, readyAt: 5)
        sent.formerNumber = "P1"
        var making = ticket(48, .preparing)
        making.formerNumber = "P2"
        var yesterdays = ticket(3, .ready, day: "2026-12-02")
        yesterdays.formerNumber = "P1"
        let board = PickupBoard(tickets: [sent, making, yesterdays, ticket(46, .ready, readyAt: 1)], today: today)
        #expect(board.formerNumbers == [47: "P1", 48: "P2"])
        #expect(board.json.hasSuffix(#","formerly":[{"number":47,"was":"P1"},{"number":48,"was":"P2"}]}"#), "\(board.json)")
        #expect(!PickupBoard(tickets: [ticket(46, .ready)], today: today).json.contains("formerly"))
    }

    @Test func aDayAfterTodayCountsAsTodayAndOddDaysKeepTheirText() {
        // The day can turn between reading the day and the orders: the new day's orders are not "earlier".
        #expect(PickupBoard(tickets: [ticket(1, .ready, day: "2026-12-04")], today: today).ready == [1])
        #expect(PickupBoard.Leftover(number: 1, day: "12/2").dayLabel == "12/2")
    }

    @Test func eachNumberOnceAndReadyWinsOverPreparing() {
        let board = PickupBoard(tickets: [ticket(8, .preparing), ticket(8, .preparing), ticket(6, .ready),
                                          ticket(6, .preparing), ticket(0, .preparing)], today: today)
        #expect(board.preparing == [8])
        #expect(board.ready == [6])
    }

    @Test func aDayWithQuotesIsEscapedInTheJSON() {
        let board = PickupBoard(earlier: [.init(number: 1, day: "x\"</script>\n")])
        #expect(board.json.contains(#""day":"x\"\u003c/script>\u000a""#))
    }
}
