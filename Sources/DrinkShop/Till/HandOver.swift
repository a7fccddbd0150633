import DrinkShopCore

extension Counter {
    /// Moves order `number` on (placed → preparing → ready → picked up). Handing over a ready order that
    /// still has money due is refused (`dueAtHandover`, nothing written) unless `unpaid` says it goes
    /// unpaid; then the handover's audit entry (who, how much was due) is written on the order in the write
    /// of the move (`OrderDesk.advance`: both or neither, on either store; an earlier day's order has it
    /// written to the AuditLog table after the move), and the report lists it. An order with no money
    /// record costs no extra read: its money is read only when it is ready.
    func handOver(_ number: OrderNumber, unpaid: Bool, by staff: String) async throws(ShopError) -> StoredOrder {
        let till = till
        let clock = clock
        return try await orders.advance(number) { (stored) throws(ShopError) -> [AuditEntry] in
            guard stored.order.status == .ready, !stored.isUnsent, stored.order.pickupNumber > 0 else { return [] }
            let due: Int
            do throws(TillError) { due = try await till.money(of: stored).due } catch {
                if case .shop(let failure) = error { throw failure }
                throw .storedData("order \(number): \(error)")
            }
            guard due > 0 else { return [] }
            guard unpaid else { throw .dueAtHandover(stored.number ?? number, due: due) }
            return [AuditEntry(at: clock.now(), by: staff, action: .advanceOrder,
                               subject: "#\(stored.order.pickupNumber)", detail: "\(AuditEntry.unpaidHandover) $\(due) due")]
        }
    }
}
