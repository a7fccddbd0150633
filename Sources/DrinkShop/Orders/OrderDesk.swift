import Airtable
import DrinkShopCore
import Foundation

/// The order workflow: place, list, edit, advance, cancel and delete. Every write of order lines is an
/// upsert on the line's `ref`, so a request retried after a lost response never duplicates a line.
/// With an outbox, an order the store cannot take right now waits on this counter (see `OutboxDesk`).
extension Shop {
    /// Places an order: resolves the drinks, checks every rule, prices it with the best promotion, claims
    /// a pickup number and writes one record per line.
    public func placeOrder(_ draft: OrderDraft, placedBy: String) async throws(ShopError) -> StoredOrder {
        guard !draft.lines.isEmpty else { throw .order("an order needs at least one drink") }
        let catalog = try await catalog(refresh: false)
        var lines: [OrderLine] = []
        for (index, lineDraft) in draft.lines.enumerated() {
            let number = draft.lines.count > 1 ? index + 1 : nil
            lines.append(try orderLine(lineDraft, menu: catalog.menu, line: number))
        }
        let now = clock.now()
        let day = clock.businessDay(of: now)
        // Checks names and the rest before a pickup number is spent on a doomed order.
        let orderName = draft.orderName ?? placedBy
        var order: Order
        do {
            order = try Order.place(pickupNumber: 1, orderName: orderName, placedBy: placedBy, createdAt: now,
                                    lines: lines, promotions: catalog.promotions)
        } catch {
            throw .wrap(error)
        }
        let orderRef = makeOrderRef()
        var number = 0
        do throws(ShopError) {
            guard outbox == nil || connection.shouldTry(at: now) else { throw ShopError.store(.transport("offline")) }
            number = try await pickupNumbers.claim(day: day)
            order = try placed(order, number: number)
            let records = try await writeLines(of: order, orderRef: orderRef, day: day, menu: catalog.menu)
            connection.markOnline()
            return StoredOrder(order: order, orderRef: orderRef, recordIDs: records.map(\.id), businessDay: day,
                               isForeign: false)
        } catch where outbox != nil && ConnectionState.isUnreachable(error) {
            connection.markOffline(at: now)
            return try await keepForLater(order, number: number, orderRef: orderRef, day: day, menu: catalog.menu)
        }
    }

    /// Today's orders in pickup-number order (this counter's unsent ones last), and notes on records
    /// that could not be read or a store that could not be reached.
    public func todaysOrders() async throws(ShopError) -> (orders: [StoredOrder], problems: [String]) {
        let menu = try await catalog(refresh: false).menu
        var orders: [StoredOrder] = []
        var problems: [String] = []
        do throws(ShopError) {
            let records = try await todaysOrderRecords()
            (orders, problems) = OrderRecord.orders(from: records, menu: menu, clock: clock)
        } catch where outbox != nil && ConnectionState.isUnreachable(error) {
            connection.markOffline(at: clock.now())
            problems.append("the store cannot be reached (\(error)); showing only this counter's unsent orders")
        }
        if let outbox {
            let pending = try await outbox.pendingOrders(menu: menu, clock: clock)
            let pendingRefs = Set(pending.map(\.orderRef))
            // An order whose answer was lost may be in the store already; the outbox copy is the newer one.
            orders = orders.filter { !pendingRefs.contains($0.orderRef) } + pending
        }
        return (orders, problems)
    }

    /// The `OrderDrink` records created today (in the shop's time zone), for `orders --json`.
    public func todaysOrderRecords() async throws(ShopError) -> [Record] {
        let (start, end) = clock.dayBounds(of: clock.now())
        let created = FormulaExpression.call("CREATED_TIME", [])
        let formula = FormulaExpression.and([
            .not(.call("IS_BEFORE", [created, .date(start)])),
            .call("IS_BEFORE", [created, .date(end)]),
        ])
        do {
            return try await store.allRecords(in: ShopSchema.orderTable, query: ListQuery(filterByFormula: formula.description))
        } catch {
            throw .store(error)
        }
    }

    /// Today's order with this number.
    public func order(_ number: OrderNumber) async throws(ShopError) -> StoredOrder {
        let (orders, problems) = try await todaysOrders()
        guard let found = orders.first(where: { $0.number == number }) else {
            if let unreachable = problems.first(where: { $0.hasPrefix("the store cannot be reached") }) {
                throw .order("order \(number) is not among this counter's unsent orders, and \(unreachable.prefix(40))…")
            }
            throw .noSuchOrder(number)
        }
        return found
    }

    /// Changes one line of a placed order and reprices the whole order.
    /// - Parameter line: 1-based; may be omitted when the order has one line.
    public func editOrder(_ number: OrderNumber, line: Int?, change: LineChangeDraft) async throws(ShopError) -> StoredOrder {
        var stored = try await order(number)
        let lineCount = stored.order.lines.count
        guard let lineNumber = line ?? (lineCount == 1 ? 1 : nil) else {
            throw .order("order \(number) has \(lineCount) drinks; say which: edit \(number) <1-\(lineCount)> …")
        }
        let catalog = try await catalog(refresh: false)
        guard stored.order.lines.indices.contains(lineNumber - 1) else {
            throw .order("order \(number) has \(lineCount) drink\(lineCount == 1 ? "" : "s"); there is no drink \(lineNumber)")
        }
        let current = stored.order.lines[lineNumber - 1]
        guard let drink = catalog.menu.drink(named: current.drinkName) else {
            throw .order("\(current.drinkName) is no longer on the menu, so its line cannot be repriced")
        }
        let edit = try lineEdit(change)
        do {
            try stored.order.editLine(at: lineNumber - 1, with: edit, drink: drink, promotions: catalog.promotions)
        } catch let violation as OrderRuleViolation {
            throw .rule(violation, drink: drink.name, line: nil)
        } catch {
            throw .wrap(error)
        }
        try await save(stored, menu: catalog.menu)
        return stored
    }

    /// Moves an order to its next status.
    public func advanceOrder(_ number: OrderNumber) async throws(ShopError) -> StoredOrder {
        var stored = try await order(number)
        do { try stored.order.advance() } catch { throw .status(error) }
        try await saveStatus(stored, ["status": .string(stored.order.status.rawValue)])
        return stored
    }

    /// Cancels a placed or preparing order, keeping it (with the reason) for the day's report.
    public func cancelOrder(_ number: OrderNumber, reason: String?) async throws(ShopError) -> StoredOrder {
        var stored = try await order(number)
        do { try stored.order.cancel(reason: reason ?? "cancelled at the counter") } catch { throw .status(error) }
        try await saveStatus(stored, ["status": .string(stored.order.status.rawValue),
                                      "cancelReason": stored.order.cancelReason.map(JSONValue.string) ?? .null])
        return stored
    }

    /// Deletes an order's records for good (an unsent one never reaches the store).
    public func deleteOrder(_ number: OrderNumber) async throws(ShopError) -> StoredOrder {
        let stored = try await order(number)
        if stored.isPending, let outbox {
            try await outbox.remove(stored)
            return stored
        }
        do {
            _ = try await store.deleteRecords(in: ShopSchema.orderTable, ids: stored.recordIDs)
        } catch {
            throw .store(error)
        }
        return stored
    }

    // MARK: - Pieces

    /// The same order under another pickup number (0: none yet), its pricing untouched.
    func placed(_ order: Order, number: Int) throws(ShopError) -> Order {
        do {
            return try Order(pickupNumber: number, orderName: order.orderName, placedBy: order.placedBy,
                             status: order.status, cancelReason: order.cancelReason, createdAt: order.createdAt,
                             lines: order.lines, promotion: order.promotion)
        } catch {
            throw .wrap(error)
        }
    }

    private func orderLine(_ draft: LineDraft, menu: Menu, line: Int?) throws(ShopError) -> OrderLine {
        let drink: Drink
        do { drink = try menu.resolve(draft.drink) } catch { throw .drink(error, line: line) }
        var choices = DrinkChoices(quantity: draft.quantity ?? 1, note: draft.note)
        do {
            for option in draft.options { try choices.choose(option) }
            return try OrderLine(drink: drink, choices: choices)
        } catch {
            throw .rule(error, drink: drink.name, line: line)
        }
    }

    private func lineEdit(_ change: LineChangeDraft) throws(ShopError) -> LineEdit {
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
    private func save(_ stored: StoredOrder, menu: Menu) async throws(ShopError) {
        if stored.isPending, let outbox {
            try await outbox.keep(stored, menu: menu, queuedAt: clock.now())
        } else {
            _ = try await writeLines(of: stored.order, orderRef: stored.orderRef, day: stored.businessDay, menu: menu)
        }
    }

    /// Sets the same cells on every line record of an order (or rewrites it in the outbox).
    private func saveStatus(_ stored: StoredOrder, _ fields: Fields) async throws(ShopError) {
        if stored.isPending {
            try await save(stored, menu: try await catalog(refresh: false).menu)
            return
        }
        do {
            _ = try await store.updateRecords(in: ShopSchema.orderTable,
                                              stored.recordIDs.map { RecordUpdate(id: $0, fields: fields) },
                                              replace: false, options: WriteOptions(typecast: true))
        } catch {
            throw .store(error)
        }
    }

    /// Upserts every line of `order` on its `ref`.
    func writeLines(of order: Order, orderRef: String, day: String, menu: Menu) async throws(ShopError) -> [Record] {
        let fields = OrderRecord.fields(of: order, orderRef: orderRef, businessDay: day, menu: menu)
        do {
            let result = try await store.upsertRecords(in: ShopSchema.orderTable, fields.map { UpsertRecord(fields: $0) },
                                                       mergeOn: ["ref"], replace: false, options: WriteOptions(typecast: true))
            return result.records
        } catch {
            throw .store(error)
        }
    }
}
