import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The order workflow: place, list, edit, advance, cancel and delete, and sending the orders this
/// counter kept while the store could not be reached (`UnsentOrders.swift`). Where each write goes is
/// the `DeliveryPolicy`'s decision; what the records look like is `OrderRecords`'.
public final class OrderDesk: Sendable {
    let records: OrderRecords
    /// The order lookups, answered the way the store the shop runs on answers best.
    let queries: any OrderQueries
    let catalog: Catalog
    let pickupNumbers: PickupNumbers
    let delivery: DeliveryPolicy
    let clock: ShopClock
    let audit: AuditTrail
    let makeOrderRef: @Sendable () -> String

    init(queries: any OrderQueries, clock: ShopClock, catalog: Catalog, delivery: DeliveryPolicy, audit: AuditTrail,
         makeOrderRef: @escaping @Sendable () -> String) {
        self.audit = audit
        self.queries = queries
        records = queries.records
        let store = records.store
        pickupNumbers = PickupNumbers(store: store, notes: delivery.outbox, now: { clock.now() })
        self.catalog = catalog
        self.delivery = delivery
        self.clock = clock
        self.makeOrderRef = makeOrderRef
    }

    /// Lets this counter claim `count` pickup numbers at a time on a remote base and give them to its next
    /// orders without asking the store (a REPL that stays open: an order then costs one request, the claim
    /// of the next ten two more). The embedded store claims each number in the order's own commit anyway.
    func holdPickupNumbers(_ count: Int = 10) {
        pickupNumbers.hold(count)
    }

    /// Places an order: resolves the drinks, checks every rule, prices it with the best promotion, claims
    /// a pickup number and writes one record per line. When the store cannot be reached and there is an
    /// outbox, the order is kept there (unsent) and staff go on.
    /// - Parameter member: the member the order is for; kept with the order when it goes to the outbox (the
    ///   till makes it theirs when it is sent), else left to the caller (`Counter.place`).
    /// - Parameter orderRef: the key its records share, when the caller chose it beforehand (`newOrderRef()`) to
    ///   find the order again after a crash; a new one by default.
    func place(_ draft: OrderDraft, placedBy: String, member: MobileNumber? = nil, orderRef chosen: String? = nil)
        async throws(ShopError) -> StoredOrder
    {
        let (unnumbered, snapshot) = try await pricedWithMenu(draft, placedBy: placedBy)
        let now = unnumbered.createdAt
        let day = clock.businessDay(of: now)
        let orderRef = chosen ?? makeOrderRef()
        var order = unnumbered
        let outbox: Outbox
        if let waiting = delivery.outboxWithoutTrying(at: now) {
            outbox = waiting
        } else {
            do throws(ShopError) {
                // A new order carries the till's copy from the start (nothing paid), so the till never
                // needs the ledger to decide about it.
                let copy = OrderRecord.cells(of: TillCopy())
                // `order` is numbered as soon as its number is claimed: one whose write fails keeps it in the outbox.
                let written = try await records.commits.placeNumbered(
                    &order, orderRef: orderRef, day: day, menu: snapshot.menu, extra: copy, records: records,
                    queries: queries, numbers: pickupNumbers, numbered: numbered)
                delivery.storeAnswered()
                return StoredOrder(order: order, orderRef: orderRef, recordIDs: written.records.map(\.id), businessDay: day,
                                   isForeign: false, till: written.extraWritten ? TillCopy() : nil)
            } catch {
                guard let kept = delivery.outbox(after: error, at: now) else { throw error }
                outbox = kept
            }
        }
        return try await keepUnsent(order, orderRef: orderRef, day: day, menu: snapshot.menu, member: member, in: outbox)
    }

    /// Today's orders in pickup-number order (this counter's unsent ones last), then the orders of
    /// earlier days still open (placed, being made, ready), and notes on records that could not be read
    /// or a store that could not be reached.
    public func today() async throws(ShopError) -> (orders: [StoredOrder], problems: [String]) {
        let (orders, problems, _) = try await todaysOrders()
        return (orders, problems.map(\.text))
    }

    /// The `OrderDrink` records of `today()`'s orders that `select` keeps, as JSON (`[{"id":…,"fields":{…}}]`).
    public func todaysJSON(selecting select: @Sendable ([StoredOrder]) -> [StoredOrder]) async throws(ShopError)
        -> String
    {
        let (orders, _, stored) = try await todaysOrders()
        let wanted = Set(select(orders).flatMap(\.recordIDs))
        return RecordJSON.text(stored.filter { wanted.contains($0.id) })
    }

    /// Changes one line of a placed order and reprices the whole order; the change goes to the audit trail.
    /// - Parameter line: 1-based; may be omitted when the order has one line.
    func edit(_ number: OrderNumber, line: Int?, change: LineChangeDraft, by staff: String = "staff")
        async throws(ShopError) -> StoredOrder
    {
        try await edit(try await find(number), as: number, line: line, change: change, by: staff)
    }

    /// `edit` of an order already found (`find`), named `number` in messages: no second lookup. The new
    /// lines and the audit entry are one write.
    func edit(_ found: StoredOrder, as number: OrderNumber, line: Int?, change: LineChangeDraft, by staff: String)
        async throws(ShopError) -> StoredOrder
    {
        var stored = found
        let before = stored.order
        let lineCount = stored.order.lines.count
        guard let lineNumber = line ?? (lineCount == 1 ? 1 : nil) else { throw .whichLine(number, lineCount: lineCount) }
        let snapshot = try await catalog.snapshot(refresh: false)
        guard stored.order.lines.indices.contains(lineNumber - 1) else {
            throw .noSuchLine(number, line: lineNumber, lineCount: lineCount)
        }
        let current = stored.order.lines[lineNumber - 1]
        let edit = lineEdit(change)
        if let typed = change.drink {
            // Another drink for the line: found as an order's line finds it, and checked as a new line.
            let drink: Drink
            do { drink = try snapshot.menu.resolve(typed) } catch { throw .drink(error, line: lineNumber) }
            do {
                try stored.order.swapLine(at: lineNumber - 1, to: drink, with: edit, promotions: snapshot.promotions)
            } catch let violation as OrderRuleViolation {
                throw .rule(violation, drink: drink.name, line: nil)
            } catch {
                throw .wrap(error)
            }
        } else {
            guard let drink = snapshot.menu.drink(named: current.drinkName) else {
                throw .drinkNoLongerOnMenu(current.drinkName)
            }
            do {
                try stored.order.editLine(at: lineNumber - 1, with: edit, drink: drink, promotions: snapshot.promotions)
            } catch let violation as OrderRuleViolation {
                throw .rule(violation, drink: drink.name, line: nil)
            } catch {
                throw .wrap(error)
            }
        }
        let old = before.lines[lineNumber - 1], new = stored.order.lines[lineNumber - 1]
        var detail = "drink \(lineNumber): \(Self.summary(old)) -> \(Self.summary(new))"
        if before.total != stored.order.total { detail += "; total $\(before.total) -> $\(stored.order.total)" }
        let entries = [entry(.editOrder, stored, by: staff, detail: detail)]
        if stored.isUnsent, let outbox = delivery.outbox {
            try await outbox.keep(stored, menu: snapshot.menu, queuedAt: clock.now())
            try await note(entries, about: stored)
            return stored
        }
        var extra = auditCells(entries, on: stored) ?? [:]
        // A bill the till's extras changed is priced from the old lines: the copy goes, and the till reads
        // OrderTill and the ledger again until it next writes the order (nothing is paid: edits need that).
        if stored.till?.bill != nil {
            extra.merge(OrderRecord.cells(of: nil)) { $1 }
            stored.till = nil
        }
        let written = try await records.write(stored.order, orderRef: stored.orderRef, day: stored.businessDay,
                                              menu: snapshot.menu, extra: extra)
        try await settle(entries, on: &stored, written: written.extraWritten && !extra.isEmpty)
        return stored
    }

    /// Moves an order to its next status. On a remote base, an order of today this counter has a copy of
    /// is moved with one write (`advanceCopy`); otherwise it is found first (one filtered read).
    ///
    /// - Parameter mayMove: asked with the order as found, before anything is written; it refuses by throwing
    ///   (the till's rule that an order with money due is not handed over unasked), or returns the audit
    ///   entries of the move (an unpaid handover's), written on the order in the write of the move itself
    ///   (for an order of an earlier day to the AuditLog table, as a cancellation's: in the same commit on the
    ///   embedded store, after the move over the API). An order with
    ///   entries is read afresh first, never moved from this counter's copy: its audit cell is rewritten.
    func advance(_ number: OrderNumber,
                        mayMove: (@Sendable (StoredOrder) async throws(ShopError) -> [AuditEntry])? = nil)
        async throws(ShopError) -> StoredOrder
    {
        if let copy = try await todaysCopy(number) {
            if try await mayMove?(copy).isEmpty ?? true, let moved = try await advanceCopy(copy) { return moved }
        }
        var stored = try await find(number)
        let entries = try await mayMove?(stored) ?? []
        do { try stored.order.advance() } catch { throw .status(error) }
        try await saveStatus(&stored, entries: entries)
        return stored
    }

    /// Cancels a placed or preparing order, keeping it (with the reason) for the day's report. Nothing is
    /// refunded here: the product cancels through `Counter.cancel`, which refunds what was paid.
    func cancel(_ number: OrderNumber, reason: String?, by staff: String = "staff") async throws(ShopError)
        -> StoredOrder
    {
        let found = try await find(number)
        return try await saveCancellation(try cancelled(found, reason: reason), from: found, by: staff)
    }

    /// Voids an order being made, ready or picked up: kept (cancelled, with who and why), no longer
    /// revenue, shown in the report; the void goes to the audit trail. Nothing is refunded here: the product
    /// voids through `Counter.void`.
    func void(_ number: OrderNumber, reason: String, by staff: String) async throws(ShopError) -> StoredOrder {
        let found = try await find(number)
        return try await saveCancellation(try voided(found, reason: reason, by: staff), from: found, by: staff)
    }

    /// Deletes a placed order's records for good (an unsent one never reaches the store), with an audit
    /// entry. An order being made or handed over is voided instead, so nothing sold vanishes.
    func delete(_ number: OrderNumber, by staff: String = "staff") async throws(ShopError) -> StoredOrder {
        try await delete(try await find(number), as: number, by: staff)
    }

    /// `delete` of an order already found (`find`), named `number` in messages: no second lookup.
    func delete(_ stored: StoredOrder, as number: OrderNumber, by staff: String) async throws(ShopError) -> StoredOrder {
        guard stored.order.status == .placed else {
            let named = stored.businessDay == clock.today ? stored.number : stored.numberWithDay
            throw .notDeletable(named ?? number, status: stored.order.status)
        }
        let lines = stored.order.lines.map(Self.summary).joined(separator: ", ")
        // The records go: the entry goes to the AuditLog table.
        let deleted = entry(.deleteOrder, stored, by: staff, detail: "\(stored.order.orderName): \(lines), $\(stored.order.total)")
        if stored.isUnsent, let outbox = delivery.outbox {
            try await outbox.remove(stored)
            try await note([deleted], about: stored)
        } else {
            // On the embedded store the delete and its entry are one commit; over the API the delete, then the
            // entry (a deleted order is not put back: `auditNotWritten` says it is gone without its entry).
            let change = AuditedChange([.delete(table: ShopSchema.orderTable, ids: stored.recordIDs)], to: records.store)
            _ = try await change.write(with: records.commits, trail: audit) { _ in [deleted] }
            queries.forget(stored.recordIDs)
        }
        return stored
    }

    static func summary(_ line: OrderLine) -> String {
        var words = [line.drinkName, line.size.rawValue, line.sugar.rawValue, line.ice.rawValue] + line.addOns.map(\.rawValue)
        if line.quantity > 1 { words.append("x\(line.quantity)") }
        return words.joined(separator: " ")
    }

    // MARK: - Pieces

    /// A note on today's list: a record that could not be read, or the store that could not be reached.
    struct Problem {
        var text: String
        var unreachable: AirtableError?
    }

    private func todaysOrders() async throws(ShopError) -> (orders: [StoredOrder], problems: [Problem], records: [Record]) {
        let menu = try await catalog.snapshot(refresh: false).menu
        let today = clock.today
        var orders: [StoredOrder] = []
        var problems: [Problem] = []
        var stored: [Record] = []
        do throws(ShopError) {
            stored = try await queries.todaysRecords(today)
            let read = OrderRecord.orders(from: stored, menu: menu, clock: clock)
            orders = read.orders
            problems = read.problems.map { Problem(text: $0) }
        } catch {
            guard delivery.outbox(after: error, at: clock.now()) != nil, case .store(let failure) = error else { throw error }
            problems.append(Problem(text: "the store cannot be reached (\(error)); showing only this counter's unsent orders",
                                    unreachable: failure))
        }
        if let outbox = delivery.outbox {
            let unsent = try await outbox.unsentOrders(menu: menu, clock: clock)
            let unsentRefs = Set(unsent.map(\.orderRef))
            // An order whose answer was lost may be in the store already; the outbox copy is the newer one.
            orders = orders.filter { !unsentRefs.contains($0.orderRef) } + unsent
        }
        // Today's first, then the earlier days' still open.
        let todays = orders.filter { $0.businessDay >= today }
        let earlier = orders.filter { $0.businessDay < today }.sorted(by: Self.dayThenNumber)
        return (todays.sorted(by: Self.todayOrder) + earlier, problems, stored)
    }

    /// Today's orders as last read, without asking the store (a remote base); nil before the first look.
    /// For hints that may be a moment old, such as Tab's list of open order numbers.
    public func lastKnownToday() async throws(ShopError) -> [StoredOrder]? {
        let list: [Record]
        switch queries.copyOfToday(clock.today) {
        case .readAgain: return try await today().orders
        case .notYet: return nil
        case .kept(let kept): list = kept
        }
        let menu = try await catalog.snapshot(refresh: false).menu
        return OrderRecord.orders(from: list.sorted { ($0.createdTime, $0.id) < ($1.createdTime, $1.id) }, menu: menu,
                                  clock: clock).orders
    }

    /// Pickup-number order, lines from other clients by time after them, unsent orders last.
    private static func todayOrder(_ a: StoredOrder, _ b: StoredOrder) -> Bool {
        if a.isUnsent != b.isUnsent { return !a.isUnsent }
        if a.isUnsent { return a.order.createdAt < b.order.createdAt }
        if a.isForeign != b.isForeign { return !a.isForeign }
        if a.isForeign { return a.order.createdAt < b.order.createdAt }
        return a.order.pickupNumber < b.order.pickupNumber
    }

    /// The same order under a real pickup number.
    /// The order `draft` makes now, every rule checked and priced with the best promotion, without a pickup
    /// number and without writing anything: what the order would be (its cups, its total).
    public func priced(_ draft: OrderDraft, placedBy: String) async throws(ShopError) -> Order {
        try await pricedWithMenu(draft, placedBy: placedBy).order
    }

    private func pricedWithMenu(_ draft: OrderDraft, placedBy: String) async throws(ShopError) -> (order: Order, snapshot: Catalog.Snapshot) {
        guard !draft.lines.isEmpty else { throw .order(.noLines) }
        var snapshot = try await catalog.snapshot(refresh: false)
        let lines: [OrderLine]
        do {
            lines = try orderLines(draft, menu: snapshot.menu)
        } catch {
            // Restocked, or given a large size, at another counter since this copy was read: the menu is read
            // again before the order is refused (only then, so a refusal costs no read when the copy is new).
            guard case .rule(let rule, _, _) = error, rule.mayBeAStaleMenu,
                  clock.now().timeIntervalSince(snapshot.loadedAt) >= 1 else { throw error }
            snapshot = try await catalog.snapshot(refresh: true)
            lines = try orderLines(draft, menu: snapshot.menu)
        }
        // Checks names and the rest before a pickup number is spent on a doomed order.
        do {
            return (try Order.place(orderName: draft.orderName ?? placedBy, placedBy: placedBy, createdAt: clock.now(),
                                    lines: lines, promotions: snapshot.promotions), snapshot)
        } catch {
            throw .wrap(error)
        }
    }

    func numbered(_ order: Order, _ number: Int) throws(ShopError) -> Order {
        do { return try order.numbered(number) } catch { throw .order(error) }
    }

    private func orderLines(_ draft: OrderDraft, menu: Menu) throws(ShopError) -> [OrderLine] {
        var lines: [OrderLine] = []
        for (index, lineDraft) in draft.lines.enumerated() {
            lines.append(try orderLine(lineDraft, menu: menu, line: draft.lines.count > 1 ? index + 1 : nil))
        }
        return lines
    }

    private func orderLine(_ draft: LineDraft, menu: Menu, line: Int?) throws(ShopError) -> OrderLine {
        let drink: Drink
        do { drink = try menu.resolve(draft.drink) } catch {
            // "熟成紅茶 加珍珠": a drink followed (or preceded) by words that are no option: name those words.
            let words = draft.drink.split(separator: " ").map(String.init)
            if case .unknownDrink = error, words.count > 1 {
                for count in stride(from: words.count - 1, through: 1, by: -1) {
                    for (named, rest) in [(words.prefix(count), words.dropFirst(count)), (words.suffix(count), words.dropLast(count))] {
                        if let found = try? menu.resolve(named.joined(separator: " ")) {
                            throw .notUnderstood(Array(rest), drink: found.name, line: line)
                        }
                    }
                }
            }
            throw .drink(error, line: line)
        }
        var choices = DrinkChoices(quantity: draft.quantity ?? 1, note: draft.note)
        do {
            for option in draft.options { try choices.choose(option) }
            return try OrderLine(drink: drink, choices: choices)
        } catch {
            throw .rule(error, drink: drink.name, line: line)
        }
    }

    private func lineEdit(_ change: LineChangeDraft) -> LineEdit {
        var edit = LineEdit(quantity: change.quantity, note: change.note)
        var addOns: [AddOn] = []
        for option in change.options {
            switch option {
            case .size(let size): edit.size = size
            case .ice(let ice): edit.ice = ice
            case .sugar(let sugar): edit.sugar = sugar
            case .addOn(let addOn): addOns.append(addOn)
            }
        }
        if !addOns.isEmpty || change.clearAddOns { edit.addOns = addOns }
        return edit
    }

    /// Writes an edited order: to the outbox while it waits there, else to the store.
    func save(_ stored: StoredOrder, menu: Menu) async throws(ShopError) {
        if stored.isUnsent, let outbox = delivery.outbox {
            try await outbox.keep(stored, menu: menu, queuedAt: clock.now())
        } else {
            _ = try await records.write(stored.order, orderRef: stored.orderRef, day: stored.businessDay, menu: menu)
        }
    }

    /// Writes a new status on every line record of an order (or rewrites it in the outbox).
    private func saveStatus(_ stored: inout StoredOrder, entries: [AuditEntry]) async throws(ShopError) {
        if stored.isUnsent {
            try await save(stored, menu: try await catalog.snapshot(refresh: false).menu)
            try await note(entries, about: stored)
        } else {
            let onTheOrder = entries.isEmpty ? nil : auditCells(entries, on: stored)
            let extra = onTheOrder ?? [:]
            // An earlier day's order: its entries go to AuditLog, in the same commit on the embedded store.
            let logging = onTheOrder == nil ? entries : []
            let (_, written, logged) = try await records.writeStatus(of: stored, extra: extra, logging: logging, trail: audit)
            if !logged { try await settle(entries, on: &stored, written: written && !extra.isEmpty) }
        }
    }
}
