import Airtable
import DrinkShopCore
import Foundation

/// The order workflow: place, list, edit, advance, cancel and delete, and sending the orders this
/// counter kept while the store could not be reached (`UnsentOrders.swift`). Where each write goes is
/// the `DeliveryPolicy`'s decision; what the records look like is `OrderRecords`'.
public final class OrderDesk: Sendable {
    let records: OrderRecords
    let catalog: Catalog
    let pickupNumbers: PickupNumbers
    let delivery: DeliveryPolicy
    let clock: ShopClock
    let makeOrderRef: @Sendable () -> String

    init(store: any RecordStore, clock: ShopClock, catalog: Catalog, delivery: DeliveryPolicy,
         makeOrderRef: @escaping @Sendable () -> String) {
        records = OrderRecords(store: store, clock: clock)
        pickupNumbers = PickupNumbers(store: store, notes: delivery.outbox, now: { clock.now() })
        self.catalog = catalog
        self.delivery = delivery
        self.clock = clock
        self.makeOrderRef = makeOrderRef
    }

    /// Places an order: resolves the drinks, checks every rule, prices it with the best promotion, claims
    /// a pickup number and writes one record per line. When the store cannot be reached and there is an
    /// outbox, the order is kept there (unsent) and staff go on.
    public func place(_ draft: OrderDraft, placedBy: String) async throws(ShopError) -> StoredOrder {
        guard !draft.lines.isEmpty else { throw .order(.noLines) }
        let snapshot = try await catalog.snapshot(refresh: false)
        var lines: [OrderLine] = []
        for (index, lineDraft) in draft.lines.enumerated() {
            let number = draft.lines.count > 1 ? index + 1 : nil
            lines.append(try orderLine(lineDraft, menu: snapshot.menu, line: number))
        }
        let now = clock.now()
        let day = clock.businessDay(of: now)
        // Checks names and the rest before a pickup number is spent on a doomed order.
        let unnumbered: Order
        do {
            unnumbered = try Order.place(orderName: draft.orderName ?? placedBy, placedBy: placedBy, createdAt: now,
                                         lines: lines, promotions: snapshot.promotions)
        } catch {
            throw .wrap(error)
        }
        let orderRef = makeOrderRef()
        var order = unnumbered
        let outbox: Outbox
        if let waiting = delivery.outboxWithoutTrying(at: now) {
            outbox = waiting
        } else {
            do throws(ShopError) {
                order = try numbered(unnumbered, try await pickupNumbers.claim(day: day))
                let written = try await records.write(order, orderRef: orderRef, day: day, menu: snapshot.menu)
                delivery.storeAnswered()
                return StoredOrder(order: order, orderRef: orderRef, recordIDs: written.map(\.id), businessDay: day,
                                   isForeign: false)
            } catch {
                guard let kept = delivery.outbox(after: error, at: now) else { throw error }
                outbox = kept
            }
        }
        return try await keepUnsent(order, orderRef: orderRef, day: day, menu: snapshot.menu, in: outbox)
    }

    /// Today's orders in pickup-number order (this counter's unsent ones last), and notes on records
    /// that could not be read or a store that could not be reached.
    public func today() async throws(ShopError) -> (orders: [StoredOrder], problems: [String]) {
        let (orders, problems, _) = try await todaysOrders()
        return (orders, problems.map(\.text))
    }

    /// Today's `OrderDrink` records as JSON (`[{"id":…,"fields":{…}}]`), those of the orders `select`
    /// keeps; one read of the table serves both the orders and their records.
    public func todaysJSON(selecting select: @Sendable ([StoredOrder]) -> [StoredOrder]) async throws(ShopError)
        -> String
    {
        let (orders, _, stored) = try await todaysOrders()
        let wanted = Set(select(orders).flatMap(\.recordIDs))
        return RecordJSON.text(stored.filter { wanted.contains($0.id) })
    }

    /// Today's order with this number.
    public func find(_ number: OrderNumber) async throws(ShopError) -> StoredOrder {
        let (orders, problems, _) = try await todaysOrders()
        guard let found = orders.first(where: { $0.number == number }) else {
            if let unreachable = problems.lazy.compactMap(\.unreachable).first {
                throw .notFoundWhileOffline(number, unreachable)
            }
            throw .noSuchOrder(number)
        }
        return found
    }

    /// Changes one line of a placed order and reprices the whole order.
    /// - Parameter line: 1-based; may be omitted when the order has one line.
    public func edit(_ number: OrderNumber, line: Int?, change: LineChangeDraft) async throws(ShopError) -> StoredOrder {
        var stored = try await find(number)
        let lineCount = stored.order.lines.count
        guard let lineNumber = line ?? (lineCount == 1 ? 1 : nil) else { throw .whichLine(number, lineCount: lineCount) }
        let snapshot = try await catalog.snapshot(refresh: false)
        guard stored.order.lines.indices.contains(lineNumber - 1) else {
            throw .noSuchLine(number, line: lineNumber, lineCount: lineCount)
        }
        let current = stored.order.lines[lineNumber - 1]
        guard let drink = snapshot.menu.drink(named: current.drinkName) else {
            throw .drinkNoLongerOnMenu(current.drinkName)
        }
        let edit = lineEdit(change)
        do {
            try stored.order.editLine(at: lineNumber - 1, with: edit, drink: drink, promotions: snapshot.promotions)
        } catch let violation as OrderRuleViolation {
            throw .rule(violation, drink: drink.name, line: nil)
        } catch {
            throw .wrap(error)
        }
        try await save(stored, menu: snapshot.menu)
        return stored
    }

    /// Moves an order to its next status.
    public func advance(_ number: OrderNumber) async throws(ShopError) -> StoredOrder {
        var stored = try await find(number)
        do { try stored.order.advance() } catch { throw .status(error) }
        try await saveStatus(stored)
        return stored
    }

    /// Cancels a placed or preparing order, keeping it (with the reason) for the day's report.
    public func cancel(_ number: OrderNumber, reason: String?) async throws(ShopError) -> StoredOrder {
        var stored = try await find(number)
        do { try stored.order.cancel(reason: reason ?? "cancelled at the counter") } catch { throw .status(error) }
        try await saveStatus(stored)
        return stored
    }

    /// Deletes an order's records for good (an unsent one never reaches the store).
    public func delete(_ number: OrderNumber) async throws(ShopError) -> StoredOrder {
        let stored = try await find(number)
        if stored.isUnsent, let outbox = delivery.outbox {
            try await outbox.remove(stored)
        } else {
            try await records.delete(stored)
        }
        return stored
    }

    // MARK: - Pieces

    /// A note on today's list: a record that could not be read, or the store that could not be reached.
    struct Problem {
        var text: String
        var unreachable: AirtableError?
    }

    private func todaysOrders() async throws(ShopError) -> (orders: [StoredOrder], problems: [Problem], records: [Record]) {
        let menu = try await catalog.snapshot(refresh: false).menu
        var orders: [StoredOrder] = []
        var problems: [Problem] = []
        var stored: [Record] = []
        do throws(ShopError) {
            stored = try await records.createdOnDay(of: clock.now())
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
        return (orders, problems, stored)
    }

    /// The same order under a real pickup number.
    func numbered(_ order: Order, _ number: Int) throws(ShopError) -> Order {
        do { return try order.numbered(number) } catch { throw .order(error) }
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
    private func save(_ stored: StoredOrder, menu: Menu) async throws(ShopError) {
        if stored.isUnsent, let outbox = delivery.outbox {
            try await outbox.keep(stored, menu: menu, queuedAt: clock.now())
        } else {
            _ = try await records.write(stored.order, orderRef: stored.orderRef, day: stored.businessDay, menu: menu)
        }
    }

    /// Writes a new status on every line record of an order (or rewrites it in the outbox).
    private func saveStatus(_ stored: StoredOrder) async throws(ShopError) {
        if stored.isUnsent {
            try await save(stored, menu: try await catalog.snapshot(refresh: false).menu)
        } else {
            try await records.writeStatus(of: stored)
        }
    }
}
