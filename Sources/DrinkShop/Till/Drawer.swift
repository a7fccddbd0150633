import Airtable
import DrinkShopCore
import Foundation

/// The cash drawer (交班): a shift opens with a float; closing counts the drawer against the float plus
/// cash taken less cash refunded since the shift opened, and records over/short.
public struct Drawer: Sendable {
    let shifts: ShiftRecords
    let payments: PaymentRecords
    let clock: ShopClock

    init(store: any RecordStore, clock: ShopClock) {
        shifts = ShiftRecords(store: store)
        payments = PaymentRecords(store: store)
        self.clock = clock
    }

    /// The open shift, if any.
    public func current() async throws(TillError) -> Shift? { try await shifts.open()?.shift }

    /// Opens a shift with `float` NT$ in the drawer.
    public func open(float: Int, by staff: String) async throws(TillError) -> Shift {
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
    public func close(counted: Int, by staff: String) async throws(TillError) -> DrawerCount {
        guard let stored = try await shifts.open() else { throw .drawer(.noOpenShift) }
        let money: [MoneyRecord]
        do { money = try await payments.since(stored.shift.openedAt) } catch { throw .shop(error) }
        let count: DrawerCount
        do {
            count = try stored.shift.close(counted: counted, payments: money.payments, refunds: money.refunds,
                                           closedBy: staff, at: clock.now())
        } catch {
            throw .drawer(error)
        }
        try await shifts.close(stored.id, with: count)
        return count
    }

    /// Drawer counts closed in `start..<end`.
    public func counts(from start: Date, to end: Date) async throws(TillError) -> [DrawerCount] {
        try await shifts.closed(from: start, to: end)
    }
}
