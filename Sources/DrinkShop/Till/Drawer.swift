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
        if let atomic = shifts.store.atomicStore {
            // One commit: the open shift, the cash since it opened and the close, so a cash payment another
            // counter takes at the same moment is either counted here or refused for want of a shift.
            guard counted >= 0 else { throw .drawer(.negativeAmount(field: "counted", counted)) }
            let clock = clock
            let closed: DrawerCount?
            do {
                closed = try await atomic.atomically { (transaction) throws(AirtableError) -> DrawerCount? in
                    guard let stored = try ShiftRecords.open(in: transaction) else { return nil }
                    let money = try PaymentRecords.since(stored.shift.openedAt, in: transaction)
                    guard let count = try? stored.shift.close(counted: counted, payments: money.payments, refunds: money.refunds,
                                                              closedBy: staff, at: clock.now())
                    else { return nil }
                    _ = try transaction.updateRecords(in: ShopSchema.shiftTable,
                                                      [RecordUpdate(id: stored.id, fields: ShiftRecords.closing(count))],
                                                      replace: false, options: WriteOptions(typecast: true))
                    return count
                }
            } catch {
                throw .shop(.store(error))
            }
            guard let closed else { throw .drawer(.noOpenShift) }
            return closed
        }
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
