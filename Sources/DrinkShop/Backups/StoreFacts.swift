import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// What a store holds, in the words a shop owner picks a backup by: its last order and its last close.
public struct StoreFacts: Sendable, Equatable {
    public struct LastOrder: Sendable, Equatable {
        public var number: Int
        public var day: String
        public var at: Date
    }

    public struct LastClose: Sendable, Equatable {
        public var day: String
        public var at: String
        public var by: String
        public var counted: Int?
    }

    public var lastOrder: LastOrder?
    public var lastClose: LastClose?

    public init(lastOrder: LastOrder? = nil, lastClose: LastClose? = nil) {
        self.lastOrder = lastOrder
        self.lastClose = lastClose
    }
}

extension Shop {
    /// The last order (highest pickup number of the latest business day) and the last drawer close. Two
    /// listings of one record each.
    public func storeFacts() async throws(ShopError) -> StoreFacts {
        do {
            var facts = StoreFacts()
            let orders = try await store.listRecords(in: ShopSchema.orderTable, query: ListQuery(
                filterByFormula: (FormulaExpression.field(OrderField.pickupNumber) != .call("BLANK", [])).description,
                sort: [SortKey(field: OrderField.businessDay.rawValue, direction: .descending),
                       SortKey(field: OrderField.pickupNumber.rawValue, direction: .descending)],
                fields: [OrderField.businessDay.rawValue, OrderField.pickupNumber.rawValue], pageSize: 1, maxRecords: 1))
            if let order = orders.records.first, let number = order.fields[OrderField.pickupNumber]?.intValue {
                facts.lastOrder = .init(number: number, day: order.fields[OrderField.businessDay]?.stringValue ?? "",
                                        at: order.createdTime)
            }
            let shifts = try await store.listRecords(in: ShopSchema.shiftTable, query: ListQuery(
                filterByFormula: (FormulaExpression.field(ShiftField.closedAt) != .call("BLANK", [])).description,
                sort: [SortKey(field: ShiftField.closedAt.rawValue, direction: .descending)], pageSize: 1, maxRecords: 1))
            if let shift = shifts.records.first {
                facts.lastClose = .init(day: shift.fields[ShiftField.businessDay]?.stringValue ?? "",
                                        at: shift.fields[ShiftField.closedAt]?.stringValue ?? "",
                                        by: shift.fields[ShiftField.closedBy]?.stringValue ?? "",
                                        counted: shift.fields[ShiftField.counted]?.intValue)
            }
            return facts
        } catch {
            throw .store(error)
        }
    }

    /// After a store was restored from a backup taken at `takenAt`: today's pickup numbers go on `skip`
    /// past the backup's highest, so no number a customer may hold from the lost hours is given again, and
    /// the audit trail says when the backup was taken, when it was restored and which numbers were skipped.
    /// - Returns: the numbers skipped today (nil when the backup holds no ticket of today: numbers start
    ///   at `skip` + 1 all the same).
    @discardableResult
    public func resumeAfterRestore(backupTakenAt takenAt: Date, skip: Int, by: String) async throws(ShopError)
        -> ClosedRange<Int>
    {
        let day = clock.today
        let highest: Int
        do {
            let tickets = try await store.listRecords(in: ShopSchema.ticketTable, query: ListQuery(
                filterByFormula: (FormulaExpression.field(TicketField.businessDay) == .text(day.description)).description,
                sort: [SortKey(field: TicketField.number.rawValue, direction: .descending)],
                fields: [TicketField.number.rawValue], pageSize: 1, maxRecords: 1))
            highest = tickets.records.first?.fields[TicketField.number]?.intValue ?? 0
            _ = try await store.createRecords(in: ShopSchema.ticketTable,
                                              [PickupNumbers.ticket(day: day, number: highest + skip)], options: WriteOptions())
        } catch {
            throw .store(error)
        }
        let skipped = (highest + 1)...(highest + skip)
        let taken = AirtableTimestamp.format(takenAt)
        try await audit.record(AuditEntry(at: clock.now(), by: by, action: .changeSetting, subject: "store",
                                          detail: "restored from the backup taken \(taken); orders after it are not in "
                                              + "this store; pickup numbers \(skipped.lowerBound)–\(skipped.upperBound) of \(day) skipped"))
        return skipped
    }
}
