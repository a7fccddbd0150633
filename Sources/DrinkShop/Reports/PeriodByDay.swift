import DrinkShopCore
import Foundation

/// A period's orders a business day at a time, for the report and the export of a month: holding every
/// order of 30 days (13,500 lines, their records, bills and CSV rows) took a process from 38 MB to
/// 78 MB, and one listing of a month's payments as an OR of 30 days cost more than 30 one-day reads.
extension Till {
    /// Calls `body` with each business day's orders of `period` in turn, oldest day first, each day's as
    /// `orders(in:)` gives them for that day alone (lines created in the day, with bills and money).
    ///
    /// An order edited on a later day so that a line was created then (an order still open from an
    /// earlier day) is handed over once, on its first day, with the lines created by then: the lines
    /// added later are left out of a multi-day report, where `orders(in:)` over the whole period has
    /// them. Its payments are counted once either way.
    public func eachDay(of period: Period, _ body: ([TillOrder]) throws(TillError) -> Void) async throws(TillError) {
        try await eachStoredDay(of: period) { (_, stored) throws(TillError) in try body(try await tillOrders(stored)) }
    }

    /// `eachDay` before the till's views: each business day's piece of `period` and the orders first seen in it.
    func eachStoredDay(of period: Period, _ body: (Period, [StoredOrder]) async throws(TillError) -> Void) async throws(TillError) {
        var handed = Set<String>()
        for piece in dayPieces(of: period) {
            let stored = try await storedOrders(in: piece).filter { handed.insert($0.orderRef).inserted }
            try await body(piece, stored)
        }
    }

    /// Each business day's piece of `period`, oldest first.
    func dayPieces(of period: Period) -> [Period] {
        var pieces: [Period] = []
        var start = period.start
        while start < period.end {
            let end = min(clock.dayBounds(of: start).end, period.end)
            // A day's bounds always move on; should a clock ever give an empty day, the rest is one piece.
            let pieceEnd = end > start ? end : period.end
            pieces.append(Period(days: DayRange(clock.businessDay(of: start)), start: start, end: pieceEnd))
            start = pieceEnd
        }
        return pieces
    }

    /// The orders, lines and payments CSV tables of `period`, handed to `write` a business day at a time
    /// (each with the header; the caller writes it once).
    public func export(_ period: Period, into write: (_ orders: CSVTable, _ lines: CSVTable, _ payments: CSVTable) throws(TillError) -> Void)
        async throws(TillError)
    {
        let calendar = calendar
        try await eachDay(of: period) { (orders) throws(TillError) in
            try write(TillExport.orders(orders, calendar: calendar), TillExport.lines(orders),
                      TillExport.payments(orders, calendar: calendar))
        }
    }
}
