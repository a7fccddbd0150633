import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The `OrderDrink` formulas the lookups share, and the one listing they go through (the questions
/// themselves are `OrderQueries`).
extension OrderRecords {
    /// `withNumber`'s formula: one request on a remote base; on the embedded store an index of today's
    /// numbers and a partial index of open orders answer its two branches (LocalBase's `anyOf`). `today` is
    /// the cell's text (`prepareLookups` asks with one no day has).
    static func withNumberFormula(_ number: Int, today: String) -> FormulaExpression {
        FormulaExpression.and([
            .field(OrderField.pickupNumber) == .int(number),
            .or([.field(OrderField.businessDay) == .text(today), openFormula]),
        ])
    }

    /// The lines of open orders: neither picked up nor cancelled. On the embedded store the partial index
    /// `withNumberFormula`'s second branch makes holds exactly these rows, so the open orders are read
    /// through it (`EmbeddedOrderQueries.open`) and need no index of their own.
    static var openFormula: FormulaExpression {
        let status = FormulaExpression.field(OrderField.status)
        return .and([status != .text(OrderStatus.pickedUp.rawValue), status != .text(OrderStatus.cancelled.rawValue)])
    }

    /// The fields whose single-field indexes earlier versions made on the embedded store and no lookup reads
    /// through any more (a number with its day, or still open, has its own index; the open orders are read
    /// through the latter): each cost every order a page of its commit, so opening the store drops them.
    static let retiredIndexFields = [OrderField.pickupNumber.rawValue, OrderField.status.rawValue]

    /// The lines of the order a counter kept as `counter`-P`number` (`A-P1`) and has sent since, today's or still open.
    static func keptFormula(_ number: Int, counter: String, today: String) -> FormulaExpression {
        let status = FormulaExpression.field(OrderField.status)
        return FormulaExpression.and([
            .field(OrderField.provisionalNumber) == .int(number),
            .field(OrderField.provisionalCounter) == .text(counter),
            .or([
                .field(OrderField.businessDay) == .text(today),
                .and([status != .text(OrderStatus.pickedUp.rawValue), status != .text(OrderStatus.cancelled.rawValue)]),
            ]),
        ])
    }

    /// Lists once by each field the lookups filter on, so a store that builds an index on first use
    /// (LocalBase) builds them now, when the store is opened, not during a command that is then refused
    /// (a refused command must leave the file as it was); and drops the indexes no lookup reads any more.
    func prepareLookups() async throws(ShopError) {
        try await store.listOnce(in: ShopSchema.orderTable, by: [
            .field(OrderField.businessDay) == .text("0000-00-00"),
            Self.withNumberFormula(1, today: "0000-00-00"),
            EmbeddedOrderQueries.audited(onDay: "0000-00-00"),
        ])
        if let preparing = store.indexPreparing {
            do {
                try await preparing.retireIndexes(in: ShopSchema.orderTable, onFields: Self.retiredIndexFields)
                // No listing bounds the tickets by creation time (a claim reads them by key and by day).
                try await preparing.retireCreatedIndex(in: ShopSchema.ticketTable)
            } catch {
                throw .store(error)
            }
        }
        // The pickup claim on the embedded store looks its next ticket up by key.
        try await store.listOnce(in: ShopSchema.ticketTable, by: [.field(TicketField.key) == .text("0000-00-00#0")])
    }

    /// Every record `formula` keeps (with only the `fields` named, when given).
    func list(_ formula: FormulaExpression, fields: [String]? = nil) async throws(ShopError) -> [Record] {
        do {
            return try await store.allRecords(in: ShopSchema.orderTable,
                                              query: ListQuery(filterByFormula: formula.description, fields: fields))
        } catch {
            throw .store(error)
        }
    }
}

extension OrderDesk {
    /// The most days one `orders`/`report` range may span.
    public static let maximumDays = 366

    /// The business days `first` through `last`, or an error naming what is wrong.
    public func days(from first: BusinessDay, through last: BusinessDay) throws(ShopError) -> DayRange {
        guard let days = try? DayRange(first, through: last) else { throw .dayRange(first, last, "the first day is after the last") }
        guard days.count <= Self.maximumDays else { throw .dayRange(first, last, "at most \(Self.maximumDays) days at once") }
        return days
    }

    /// The orders of the business days `first` through `last` (this counter's unsent ones of those
    /// days too), in day and pickup-number order.
    public func orders(from first: BusinessDay, through last: BusinessDay) async throws(ShopError)
        -> (orders: [StoredOrder], problems: [String])
    {
        let days = try days(from: first, through: last)
        let menu = try await catalog.snapshot(refresh: false).menu
        var records: [Record] = []
        var failure: ShopError?
        do throws(ShopError) {
            for day in days { records += try await queries.onDay(day) }
        } catch {
            failure = error
        }
        let read = OrderRecord.orders(from: unique(records), menu: menu, clock: clock)
        return try await sales(read.orders, problems: read.problems, of: days, failure: failure, menu: menu)
    }

    /// The orders of `days` as `orders(from:through:)` answers, from the stored orders read of them (`queries.onDay`)
    /// and their problems: with this counter's unsent ones of those days, or, when the reading stopped at
    /// `failure`, an error unless there is an outbox to show instead.
    func sales(_ stored: [StoredOrder], problems readProblems: [String], of days: DayRange, failure: ShopError?, menu: Menu)
        async throws(ShopError) -> (orders: [StoredOrder], problems: [String])
    {
        var problems: [String] = []
        if let failure {
            guard delivery.outbox(after: failure, at: clock.now()) != nil else { throw failure }
            problems.append("the store cannot be reached (\(failure)); showing only this counter's unsent orders")
        }
        problems += readProblems
        var orders = stored
        if let outbox = delivery.outbox {
            let wanted = Set(days)
            let unsent = try await outbox.unsentOrders(menu: menu, clock: clock).filter { wanted.contains($0.businessDay) }
            let unsentRefs = Set(unsent.map(\.orderRef))
            orders = orders.filter { !unsentRefs.contains($0.orderRef) } + unsent
        }
        return (orders.sorted(by: Self.dayThenNumber), problems)
    }

    static func dayThenNumber(_ a: StoredOrder, _ b: StoredOrder) -> Bool {
        if a.businessDay != b.businessDay { return a.businessDay < b.businessDay }
        if a.isUnsent != b.isUnsent { return !a.isUnsent }
        if a.isForeign != b.isForeign { return !a.isForeign }
        if a.order.pickupNumber != b.order.pickupNumber { return a.order.pickupNumber < b.order.pickupNumber }
        return a.order.createdAt < b.order.createdAt
    }

    /// The day of `#6@2026-11-30`; a day that is not a date has no orders.
    private static func day(of number: OrderNumber, _ text: String) throws(ShopError) -> BusinessDay {
        do { return try BusinessDay(text) } catch { throw .noSuchOrder(number) }
    }

    func unique(_ records: [Record]) -> [Record] {
        var seen = Set<String>()
        return records.filter { seen.insert($0.id).inserted }
    }

    /// The order `number` names (see the rule above), from one filtered read of the store, or this
    /// counter's unsent orders.
    public func find(_ number: OrderNumber) async throws(ShopError) -> StoredOrder {
        let menu = try await catalog.snapshot(refresh: false).menu
        let today = clock.today
        let unsent = try await delivery.outbox?.unsentOrders(menu: menu, clock: clock) ?? []
        let candidates: [StoredOrder]
        switch number {
        case .provisional(let kept, let counter):
            return try await findKept(number, kept: kept, counter: counter, among: unsent, menu: menu, today: today)
        case .pickup(let pickup), .onDay(let pickup, _):
            // `#6@2026-11-30`: that day's #6.
            var onDay: BusinessDay?
            if case .onDay(_, let text) = number { onDay = try Self.day(of: number, text) }
            var stored: [StoredOrder] = []
            do throws(ShopError) {
                let records: [Record]
                if let onDay {
                    records = try await queries.number(pickup, onDay: onDay)
                } else {
                    records = try await queries.withNumber(pickup, today: today)
                }
                stored = OrderRecord.orders(from: records, menu: menu, clock: clock).orders
                delivery.storeAnswered()
            } catch {
                guard delivery.outbox(after: error, at: clock.now()) != nil, case .store(let failure) = error else { throw error }
                let mine = unsent.filter { $0.order.pickupNumber == pickup && $0.businessDay == today }
                guard let found = mine.first else { throw .notFoundWhileOffline(number, failure) }
                return found
            }
            let unsentRefs = Set(unsent.map(\.orderRef))
            let mine = unsent.filter { $0.order.pickupNumber == pickup }
            candidates = stored.filter { !unsentRefs.contains($0.orderRef) && !$0.isForeign } + mine
        }
        if case .onDay(_, let day) = number {
            guard let found = candidates.first(where: { $0.businessDay.description == day }) else { throw .noSuchOrder(number) }
            return found
        }
        if let todays = candidates.first(where: { $0.businessDay == today }) { return todays }
        let earlier = candidates.filter { $0.businessDay < today && !$0.order.status.isFinal }
        if earlier.count > 1 {
            throw .ambiguousOrder(number, choices: earlier.compactMap(\.numberWithDay).sorted { $0.description < $1.description })
        }
        guard let found = earlier.first else { throw .noSuchOrder(number) }
        return found
    }
}

extension OrderDesk {
    /// The order kept as `#A-P1` (`counter` A, `kept` 1): this counter's unsent one (today's first; without a
    /// letter, any of this counter's), else the one sent since, today's or still open, found by the kept number
    /// it carries in the store (only with a letter: `P1` alone was every counter's before letters).
    private func findKept(_ number: OrderNumber, kept: Int, counter: String?, among unsent: [StoredOrder], menu: Menu,
                          today: BusinessDay) async throws(ShopError) -> StoredOrder
    {
        let mine = unsent.filter { $0.provisionalNumber == kept && (counter == nil || $0.provisionalCounter == counter) }
        let todays = mine.filter { $0.businessDay == today }
        let candidates = todays.isEmpty ? mine : todays
        if candidates.count > 1 {
            throw .ambiguousOrder(number, choices: candidates.compactMap(\.keptNumber).sorted { $0.description < $1.description })
        }
        if let found = candidates.first { return found }
        guard let counter else { throw .noSuchOrder(number) }
        let records: [Record]
        do throws(ShopError) {
            records = try await queries.kept(kept, counter: counter, today: today)
            delivery.storeAnswered()
        } catch {
            guard delivery.outbox(after: error, at: clock.now()) != nil, case .store(let failure) = error else { throw error }
            throw .notFoundWhileOffline(number, failure)
        }
        let sent = OrderRecord.orders(from: records, menu: menu, clock: clock).orders.filter { !$0.isForeign }
        guard let found = sent.first(where: { $0.businessDay == today }) ?? sent.first else { throw .noSuchOrder(number) }
        return found
    }

    /// The `OrderDrink` records of the orders of `first` through `last` that `select` keeps, as JSON.
    public func ordersJSON(from first: BusinessDay, through last: BusinessDay,
                           selecting select: @Sendable ([StoredOrder]) -> [StoredOrder]) async throws(ShopError) -> String {
        var records: [Record] = []
        for day in try days(from: first, through: last) { records += try await queries.onDay(day) }
        let menu = try await catalog.snapshot(refresh: false).menu
        let orders = OrderRecord.orders(from: unique(records), menu: menu, clock: clock).orders
        let wanted = Set(select(orders).flatMap(\.recordIDs))
        return RecordJSON.text(unique(records).filter { wanted.contains($0.id) })
    }
}

extension RecordStore {
    /// Makes the indexes listings of `table` by each formula read through (see `OrderRecords.prepareLookups`):
    /// asked of a store that indexes on first use, else by listing at most one record by each formula.
    func listOnce(in table: String, by formulas: [FormulaExpression]) async throws(ShopError) {
        if let preparing = indexPreparing {
            do { return try await preparing.prepareIndexes(in: table, for: formulas.map(\.description)) } catch {
                throw .store(error)
            }
        }
        for formula in formulas {
            do {
                _ = try await listRecords(in: table, query: ListQuery(filterByFormula: formula.description,
                                                                      pageSize: 1, maxRecords: 1))
            } catch {
                throw .store(error)
            }
        }
    }
}
