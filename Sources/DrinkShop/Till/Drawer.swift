import Airtable
import DrinkShopCore
import Foundation

/// The cash drawer (交班): a shift opens with a float; closing counts the drawer against the float plus
/// cash taken less cash refunded since the shift opened, and records over/short.
public struct Drawer: Sendable {
    let shifts: ShiftRecords
    let payments: PaymentRecords
    let clock: ShopClock
    /// How a close and its entry are written together.
    let commits: any CommitStrategy

    init(store: any RecordStore, clock: ShopClock, commits: any CommitStrategy) {
        self.commits = commits
        shifts = ShiftRecords(store: store)
        payments = PaymentRecords(store: store)
        self.clock = clock
    }

    /// The open shift, if any.
    public func current() async throws(TillError) -> Shift? { try await shifts.open()?.shift }

    /// Opens a shift with `float` NT$ in the drawer.
    func open(float: Int, by staff: String) async throws(TillError) -> Shift {
        let current = try await shifts.open()?.shift
        let now = clock.now()
        let shift: Shift
        do { shift = try Shift.open(current: current, by: staff, at: now, float: float) } catch { throw .drawer(error) }
        try await shifts.add(shift, day: clock.businessDay(of: now))
        return shift
    }

    /// Cash the drawer should hold now.
    public func expected() async throws(TillError) -> (Shift, Int) {
        guard let stored = try await shifts.open() else { throw .drawer(.noOpenShift) }
        let money: [MoneyRecord]
        do { money = try await payments.since(stored.shift.openedAt) } catch { throw .shop(error) }
        return (stored.shift, stored.shift.expectedCash(payments: money.payments, refunds: money.refunds))
    }

    /// Closes the open shift against `counted` NT$ and records the count.
    func close(counted: Int, by staff: String) async throws(TillError) -> DrawerCount {
        try await close(counted: counted, by: staff, trail: nil) { _ in nil }
    }

    /// `close`, with the audit entry `entry` makes of the count. On the embedded store one commit: the open
    /// shift, the cash since it opened, the close and its entry (an entry that cannot be written leaves the
    /// shift open). Over the API the close, then the entry; an entry that cannot be written opens the shift
    /// again (its close cells emptied: `ShopError.auditNotWrittenNothingChanged`), or, when that fails too, is
    /// the command's error with the drawer closed (`ShopError.auditNotWritten`).
    func close(counted: Int, by staff: String, trail: AuditTrail?,
               entry: @escaping @Sendable (DrawerCount) -> AuditEntry?) async throws(TillError) -> DrawerCount {
        guard counted >= 0 else { throw .drawer(.negativeAmount(field: "counted", counted)) }
        let (store, shifts, payments, clock) = (shifts.store, shifts, payments, clock)
        let change = AuditedChange<Result<ClosedShift, TillError>>(inCommit: { (transaction) throws(AirtableError) in
            // One commit: the open shift, the cash since it opened and the close, so a cash payment another
            // counter takes at the same moment is either counted here or refused for want of a shift.
            guard let stored = try ShiftRecords.open(in: transaction) else { return .failure(.drawer(.noOpenShift)) }
            let money = try PaymentRecords.since(stored.shift.openedAt, in: transaction)
            guard let count = try? stored.shift.close(counted: counted, payments: money.payments, refunds: money.refunds,
                                                      closedBy: staff, at: clock.now())
            else { return .failure(.drawer(.noOpenShift)) }
            _ = try RecordWrite.update(table: ShopSchema.shiftTable, id: stored.id, ShiftRecords.closing(count)).apply(in: transaction)
            return .success(ClosedShift(count: count, recordID: stored.id))
        }, overTheAPI: { () throws(ShopError) in
            let stored: ShiftRecords.Stored
            let money: [MoneyRecord]
            do throws(TillError) {
                guard let open = try await shifts.open() else { return .failure(.drawer(.noOpenShift)) }
                stored = open
                do throws(ShopError) { money = try await payments.since(stored.shift.openedAt) } catch { throw .shop(error) }
            } catch {
                if case .shop(let failure) = error { throw failure }
                return .failure(error)
            }
            let count: DrawerCount
            do throws(DrawerError) {
                count = try stored.shift.close(counted: counted, payments: money.payments, refunds: money.refunds,
                                               closedBy: staff, at: clock.now())
            } catch {
                return .failure(.drawer(error))
            }
            _ = try await RecordWrite.apply([.update(table: ShopSchema.shiftTable, id: stored.id, ShiftRecords.closing(count))], to: store)
            return .success(ClosedShift(count: count, recordID: stored.id))
        }, undo: { (closed) async throws(ShopError) in
            guard case .success(let shift) = closed else { return }
            _ = try await RecordWrite.apply([.update(table: ShopSchema.shiftTable, id: shift.recordID, ShiftRecords.reopening)], to: store)
        })
        let closed: Result<ClosedShift, TillError>
        do throws(ShopError) {
            closed = try await change.write(with: commits, trail: trail) { closed in
                guard case .success(let shift) = closed, let made = entry(shift.count) else { return [] }
                return [made]
            }
        } catch {
            throw .shop(error)
        }
        if case .failure(.drawer(.noOpenShift)) = closed, let last = try await closedToday() {
            // Most likely this very close, tried again after its answer was lost: say what the store holds.
            throw .drawer(.alreadyClosed(at: clock.calendar.timeText(last.closedAt), by: last.closedBy, counted: last.counted,
                                         summary: last.summary))
        }
        return try closed.get().count
    }

    /// The latest close of the current business day, if any.
    private func closedToday() async throws(TillError) -> DrawerCount? {
        let now = clock.now()
        let start = clock.dayBounds(of: now).start
        return try await shifts.closed(from: start, to: now.addingTimeInterval(1)).last
    }

    /// Whether the business day is closed: no shift is open and one was closed (`close`) during today's business
    /// day. A shift opened after the close opens the day again; the next business day starts open.
    public func isDayClosed() async throws(TillError) -> Bool {
        guard try await shifts.open() == nil else { return false }
        let today = clock.bounds(of: clock.today)
        return try await !shifts.closed(from: today.start, to: today.end).isEmpty
    }

    /// Drawer counts closed in `start..<end`.
    public func counts(from start: Date, to end: Date) async throws(TillError) -> [DrawerCount] {
        try await shifts.closed(from: start, to: end)
    }
}

/// A close as written: the count and the shift's record (which an undo opens again).
struct ClosedShift: Sendable {
    let count: DrawerCount
    let recordID: String
}
