import Airtable
import DrinkShopCore
import Foundation

/// What happened to an order sent from the outbox.
public struct SentOrder: Sendable, Equatable {
    /// The number staff knew it by (`#A-P3`, or its pickup number when it already had one).
    public var queuedAs: OrderNumber
    public var pickupNumber: Int
    /// The business day it was placed on (`YYYY-MM-DD`).
    public var businessDay: BusinessDay
    /// The closed day it was taken on, when it went into `businessDay` (the open one) instead, marked late.
    public var lateFrom: BusinessDay?

    public init(queuedAs: OrderNumber, pickupNumber: Int, businessDay: BusinessDay, lateFrom: BusinessDay? = nil) {
        self.queuedAs = queuedAs
        self.pickupNumber = pickupNumber
        self.businessDay = businessDay
        self.lateFrom = lateFrom
    }

    /// The number it goes by now: its pickup number, with its day when that is not `today`.
    public func number(today: BusinessDay) -> OrderNumber {
        businessDay == today ? .pickup(pickupNumber) : .onDay(pickupNumber, day: businessDay.description)
    }
}

/// What one round of sending the outbox did.
public struct OutboxReport: Sendable {
    /// The orders that reached the store, oldest first.
    public var sent: [SentOrder] = []
    /// Orders the store refused (not unreachable: it answered no), with why; they stay in the outbox
    /// for staff to fix or delete, and the orders after them are still sent.
    public var refused: [(order: OrderNumber, reason: ShopError)] = []
}

extension OrderDesk {
    /// Keeps an order the store could not take: with its pickup number if one was claimed before the
    /// failure (the lines may even have arrived; sending again is harmless), else a provisional `P` number
    /// after this counter's letter (`A-P1`: `CounterLetters`).
    func keepUnsent(_ order: Order, orderRef: String, day: BusinessDay, menu: Menu, member: MobileNumber?,
                    in outbox: Outbox) async throws(ShopError) -> StoredOrder
    {
        var stored = StoredOrder(order: order, orderRef: orderRef, recordIDs: [], businessDay: day, isForeign: false)
        stored.isUnsent = true
        stored.keptMember = member
        if order.pickupNumber == 0 {
            stored.provisionalNumber = try await outbox.provisionalNumber(day: day)
            stored.provisionalCounter = await outbox.counterCode()
        }
        try await outbox.keep(stored, menu: menu, queuedAt: clock.now())
        return stored
    }

    /// Sends every order waiting in the outbox, oldest first: claims a pickup number for those that
    /// have none, upserts the lines on `ref` (so an order is never there twice), then forgets it
    /// locally. Stops at the first failure to reach the store; the rest wait for the next try. An order
    /// the store refuses is reported and stays for staff to fix; the others are still sent.
    /// - Parameters:
    ///   - force: try even within the probe interval after a failure.
    ///   - settle: what the till adds to an order once its lines are in the store (its member), run before
    ///     the order leaves the outbox, so a failure there sends it again (every step is an upsert) rather
    ///     than losing it.
    ///   - isClosed: whether an earlier business day is closed (its drawer counted). An order kept on a day
    ///     that closed before it could be sent never goes into it (the day's report stays as it was closed):
    ///     it goes into today's orders with a number of today, and an audit entry says it came late.
    @discardableResult
    func sendUnsent(force: Bool = false,
                           settle: (@Sendable (StoredOrder) async throws(ShopError) -> Void)? = nil,
                           isClosed: (@Sendable (BusinessDay) async throws(ShopError) -> Bool)? = nil)
        async throws(ShopError) -> OutboxReport
    {
        var report = OutboxReport()
        guard let outbox = delivery.outbox else { return report }
        let now = clock.now()
        let needsLetter = outbox.mayClaimLetter ? await outbox.counterLetter() == nil : false
        // Audit entries kept while offline go too, after the orders they are about.
        let hasAudit = try await !outbox.keptAudit().isEmpty
        let hasOrders = try await outbox.count() > 0
        guard needsLetter || hasOrders || hasAudit else { return report }
        guard force || delivery.shouldTryStore(at: now) else { return report }
        if needsLetter {
            // Nothing else to do: the menu is not read here (the command after reads it with the shared settings).
            guard await claimCounterLetter(in: outbox, at: now), hasOrders || hasAudit else { return report }
        }
        let menu = try await catalog.snapshot(refresh: false).menu
        let unsent = try await outbox.unsentOrders(menu: menu, clock: clock)
        for var stored in unsent {
            // Named by its P number while it has one, even when a number was claimed on an earlier try.
            guard let queuedAs = stored.keptNumber ?? stored.number else { continue }
            do throws(ShopError) {
                var lateFrom: BusinessDay?
                let today = clock.today
                if stored.businessDay < today, let isClosed, try await isClosed(stored.businessDay) {
                    lateFrom = stored.businessDay
                    try await moveLate(&stored, to: today, as: queuedAs, menu: menu, in: outbox)
                }
                if stored.order.pickupNumber == 0 {
                    stored.order = try numbered(stored.order, try await pickupNumbers.claim(day: stored.businessDay))
                    // Remember the real number before sending, so a failure now cannot claim another one (the
                    // P number stays beside it: the cup says P1).
                    try await outbox.keep(stored, menu: menu, queuedAt: now, sending: true)
                }
                // What was noted about it while it waited is sent after it, under its number now (`log`: edit
                // `#14 (was A-P1)`); renamed again harmlessly should this send be tried again.
                if case .provisional(let kept, let counter) = queuedAs {
                    let numbered = SentOrder(queuedAs: queuedAs, pickupNumber: stored.order.pickupNumber, businessDay: stored.businessDay)
                    try await outbox.renameAudit(queuedAs.description, to: "\(numbered.number(today: today)) (was "
                        + OrderNumber.keptText(kept, counter: counter) + ")")
                }
                // Nothing is paid on an unsent order: it arrives with the till's copy, like one placed online;
                // and with its kept number, for the pickup screen's `A-P1 → 47`.
                var extra = OrderRecord.cells(of: TillCopy())
                if let provisional = stored.provisionalNumber { extra[OrderField.provisionalNumber] = .int(provisional) }
                if let counter = stored.provisionalCounter { extra[OrderField.provisionalCounter] = .string(counter) }
                let written = try await records.write(stored.order, orderRef: stored.orderRef, day: stored.businessDay,
                                                      menu: menu, extra: extra)
                var sent = stored
                sent.isUnsent = false
                sent.recordIDs = written.records.map(\.id)
                sent.till = written.extraWritten ? TillCopy() : nil
                try await settle?(sent)
                try await outbox.remove(stored)
                report.sent.append(SentOrder(queuedAs: queuedAs, pickupNumber: stored.order.pickupNumber,
                                             businessDay: stored.businessDay, lateFrom: lateFrom))
            } catch {
                if delivery.outbox(after: error, at: now) != nil { return report }
                report.refused.append((queuedAs, error))
            }
        }
        // Read again: a late order's entry may have joined them in this round.
        if try await !outbox.keptAudit().isEmpty, try await audit.sendKept() == 0, delivery.isOffline { return report }
        delivery.storeAnswered()
        return report
    }

    /// Claims this counter's letter (`CounterLetters`), which it keeps in its outbox for good, so it is claimed
    /// once. A store that refuses the claim (a base `drinkshop setup` has not given the table) is not asked again
    /// by this process: its kept orders carry the counter's own code meanwhile.
    /// - Returns: false when the store could not be reached (the round stops there).
    private func claimCounterLetter(in outbox: Outbox, at now: Date) async -> Bool {
        do throws(ShopError) {
            guard let letter = try await CounterLetters(store: records.store).claim(for: outbox.location) else { return true }
            await outbox.setCounterLetter(letter)
            delivery.storeAnswered()
        } catch {
            if delivery.outbox(after: error, at: now) != nil { return false }
            outbox.stopClaimingLetter()
        }
        return true
    }

    /// Moves a kept order of a closed day into `today`: a number of today (whatever it held for the closed day
    /// is left as a gap there), kept so in the outbox before anything is written, with the audit entry that
    /// says it came late (written first, so a crash after it sends the order into today the next time).
    private func moveLate(_ stored: inout StoredOrder, to today: BusinessDay, as queuedAs: OrderNumber, menu: Menu,
                          in outbox: Outbox) async throws(ShopError)
    {
        let closedDay = stored.businessDay
        stored.businessDay = today
        stored.order = try numbered(stored.order, try await pickupNumbers.claim(day: today))
        try await outbox.keep(stored, menu: menu, queuedAt: clock.now(), sending: true)
        try await note([AuditEntry(at: clock.now(), by: stored.order.placedBy, action: .placeOrder,
                                   subject: "#\(stored.order.pickupNumber)",
                                   detail: "sent late: taken on \(closedDay) as \(queuedAs) while the store was away; "
                                       + "\(closedDay) was closed, so it is on \(today)'s orders")])
    }
}
