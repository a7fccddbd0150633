import Synchronization
import DrinkShopCore

extension Counter {
    /// Moves order `number` on (placed → preparing → ready → picked up). Handing over a ready order that
    /// still has money due is refused (`dueAtHandover`, nothing written) unless `unpaid` says it goes
    /// unpaid; then the handover is written to the audit trail (who, how much was due), and the report lists
    /// it. An order with no money record costs no extra read: its money is read only when it is ready.
    func handOver(_ number: OrderNumber, unpaid: Bool, by staff: String) async throws(ShopError) -> StoredOrder {
        let till = till
        let owed = Owed()
        let moved = try await orders.advance(number) { (stored) throws(ShopError) in
            guard stored.order.status == .ready, !stored.isUnsent, stored.order.pickupNumber > 0 else { return }
            let due: Int
            do throws(TillError) { due = try await till.money(of: stored).due } catch {
                if case .shop(let failure) = error { throw failure }
                throw .storedData("order \(number): \(error)")
            }
            guard due > 0 else { return }
            guard unpaid else { throw .dueAtHandover(stored.number ?? number, due: due) }
            owed.set(due)
        }
        if let due = owed.value {
            let entry = AuditEntry(at: clock.now(), by: staff, action: .advanceOrder,
                                   subject: "#\(moved.order.pickupNumber)", detail: "\(AuditEntry.unpaidHandover) $\(due) due")
            do throws(ShopError) { try await audit.record(entry) } catch { throw .auditNotWritten(entry, error) }
        }
        return moved
    }
}

/// The amount due found by the check, handed out of its closure.
private final class Owed: Sendable {
    private let due = Mutex<Int?>(nil)
    func set(_ value: Int) { due.withLock { $0 = value } }
    var value: Int? { due.withLock { $0 } }
}
