import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// An order as the store holds it: the domain order plus what ties it to its records.
public struct StoredOrder: Sendable {
    public var order: Order
    /// Shared by the order's line records; nil for a line the KEBUKE app created on its own.
    public var orderRef: String
    /// The record of each line, in line order.
    public var recordIDs: [String]
    /// The business day the order belongs to.
    public var businessDay: BusinessDay
    /// Whether the lines came from another client without the shop's fields (no pickup number).
    public var isForeign: Bool
    /// Whether the order waits in this counter's outbox, not yet sent to the store.
    public var isUnsent = false
    /// The provisional number of an order taken offline before it could get a pickup number: its only
    /// number while unsent; once sent, the number its cup and slip were printed with, beside its pickup number.
    public var provisionalNumber: Int?
    /// The letter of the counter that kept it (`A` of `A-P1`); nil for an order an earlier version kept (`P1`).
    public var provisionalCounter: String?
    /// The member an unsent order is for (`for 09XXXXXXXX` while the store could not be reached): kept
    /// with it in the outbox, and made the order's (stamps, pass, the bill) when it is sent.
    public var keptMember: MobileNumber?
    /// The invoice details given for an unsent order (`invoice #A-P1 /ABC1234`): kept with it in the outbox, its
    /// invoice issued by them when it is paid while the store is away, and recorded on the order when it is sent.
    public var keptInvoiceDetails: InvoiceDetails?
    /// The kept order's line records as read from the outbox (`Outbox.fingerprint`): a payment while the store is away
    /// holds only if they are still so in its commit, so an edit at another counter of the machine meanwhile is seen.
    var keptFingerprint: String?
    /// What the till needs to decide about the order, as its records carry it; nil for an order an earlier
    /// version placed (the till then reads the ledger).
    public var till: TillCopy?
    /// The order's `audit` cell as read (its entries are appended to it).
    var auditText: String?
    /// When the order became ready, as its `readyAt` cell says; nil when it is not ready yet, or the base
    /// predates the step fields. The pickup screen calls the most recent one out.
    public var readyAt: Date?

    /// The audit entries kept on the order itself (edits, cancels, voids), oldest first.
    public var auditEntries: [AuditEntry] { OrderAuditCell.entries(auditText) }

    /// How staff name the order: `#12`, or `#A-P3` while it has only a provisional number.
    public var number: OrderNumber? {
        if order.pickupNumber > 0 { return .pickup(order.pickupNumber) }
        return keptNumber
    }

    /// The number it was kept under while the store was away (`#A-P3`), also once it has its pickup number.
    public var keptNumber: OrderNumber? {
        provisionalNumber.map { .provisional($0, counter: provisionalCounter) }
    }

    /// The number with its business day (`#6@2026-11-30`): how an order of an earlier day is named
    /// when today has an order with the same number.
    public var numberWithDay: OrderNumber? {
        order.pickupNumber > 0 ? .onDay(order.pickupNumber, day: businessDay.description) : number
    }
}

/// How orders map to `OrderDrink` records: one record per line, the order's own fields repeated on each.
enum OrderRecord {
    /// The line's key for upserts: stable across retries and edits.
    static func lineRef(orderRef: String, line: Int) -> String { "\(orderRef)-\(line)" }

    /// The cells of every line of `order`.
    static func fields(of order: Order, orderRef: String, businessDay: BusinessDay, menu: Menu) -> [Fields] {
        order.lines.enumerated().map { index, line in
            // A lasting address only: Airtable's copies expire (the drink's name finds the image again).
            let image = menu.drink(named: line.drinkName)?.imageURLs.first { !AttachmentCells.isExpiring($0) }
            let cells: KeyValuePairs<OrderField, JSONValue> = [
                .drinkName: .string(line.drinkName),
                .size: .string(line.size.rawValue),
                .ice: .string(line.ice.rawValue),
                .sugar: .string(line.sugar.rawValue),
                .addOns: .array(line.addOns.map { .string($0.rawValue) }),
                .price: .int(line.lineTotal),
                .orderName: .string(order.orderName),
                .numberOfCups: .int(line.quantity),
                .imageUrl: image.map(JSONValue.string) ?? .null,
                .status: .string(order.status.rawValue),
                .pickupNumber: .int(order.pickupNumber),
                .businessDay: .string(businessDay.description),
                .orderRef: .string(orderRef),
                .ref: .string(lineRef(orderRef: orderRef, line: index + 1)),
                .line: .int(index + 1),
                .unitPrice: .int(line.unitPrice),
                .discount: .int(order.discount(forLine: index)),
                .promotion: order.promotion.map { .string($0.name) } ?? .null,
                .note: line.note.map(JSONValue.string) ?? .null,
                .placedBy: .string(order.placedBy),
                .cancelReason: order.cancelReason.map(JSONValue.string) ?? .null,
            ]
            var fields = Fields(cells)
            // Only when voided: a remote base not yet given the field by `setup` still takes other orders.
            if let voidedBy = order.voidedBy { fields[OrderField.voidedBy] = .string(voidedBy) }
            return fields
        }
    }

    /// Groups line records into orders, in pickup-number order (foreign lines last, by time).
    /// Records that cannot be read are returned as problems, so one bad record hides nothing else.
    static func orders(from records: [Record], menu: Menu, clock: ShopClock) -> (orders: [StoredOrder], problems: [String]) {
        var groups: [String: [Record]] = [:]
        var order: [String] = []
        for record in records {
            let key = record.fields[OrderField.orderRef]?.stringValue ?? record.id
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(record)
        }
        var result: [StoredOrder] = []
        var problems: [String] = []
        for key in order {
            guard let lines = groups[key] else { continue }
            do {
                result.append(try storedOrder(key: key, records: lines, menu: menu, clock: clock))
            } catch {
                problems.append("\(error)")
            }
        }
        result.sort { a, b in
            switch (a.isForeign, b.isForeign) {
            case (false, false): return a.order.pickupNumber < b.order.pickupNumber
            case (true, true): return a.order.createdAt < b.order.createdAt
            case (false, true): return true
            case (true, false): return false
            }
        }
        return (result, problems)
    }

    private static func storedOrder(key: String, records: [Record], menu: Menu, clock: ShopClock) throws(ShopError)
        -> StoredOrder
    {
        let sorted = records.sorted { ($0.fields[OrderField.line]?.intValue ?? 0, $0.createdTime) < ($1.fields[OrderField.line]?.intValue ?? 0, $1.createdTime) }
        guard let first = sorted.first else { throw .storedData("an order without lines (\(key))") }
        let cells = first.fields
        let createdAt = sorted.map(\.createdTime).min() ?? first.createdTime
        var lines: [OrderLine] = []
        var discounts: [Int] = []
        for record in sorted {
            lines.append(try line(from: record, menu: menu))
            discounts.append(record.fields[OrderField.discount]?.intValue ?? 0)
        }
        let statusText = cells[OrderField.status]?.stringValue ?? OrderStatus.placed.rawValue
        guard let status = OrderStatus(rawValue: statusText) else {
            throw .storedData("record \(first.id) in OrderDrink has an unknown status \"\(statusText)\"")
        }
        let promotion = cells[OrderField.promotion]?.stringValue.map { AppliedPromotion(name: $0, lineDiscounts: discounts) }
        let pickup = cells[OrderField.pickupNumber]?.intValue
        let order: Order
        do {
            order = try Order(
            pickupNumber: pickup ?? 0, orderName: cells[OrderField.orderName]?.stringValue ?? "",
            placedBy: cells[OrderField.placedBy]?.stringValue ?? "", status: status,
            cancelReason: cells[OrderField.cancelReason]?.stringValue, createdAt: createdAt, lines: lines, promotion: promotion,
            voidedBy: cells[OrderField.voidedBy]?.stringValue)
        } catch {
            throw .storedData("order \(key) in OrderDrink: \(error)")
        }
        return StoredOrder(order: order, orderRef: key, recordIDs: sorted.map(\.id),
                           businessDay: cells[OrderField.businessDay]?.stringValue.flatMap { try? BusinessDay($0) }
                               ?? clock.businessDay(of: createdAt),
                           isForeign: pickup == nil || cells[OrderField.orderRef] == nil,
                           provisionalNumber: pickup == nil ? nil : cells[OrderField.provisionalNumber]?.intValue,
                           provisionalCounter: pickup == nil ? nil : CounterLetters.code(cells[OrderField.provisionalCounter]?.stringValue),
                           till: tillCopy(from: cells), auditText: cells[OrderField.audit]?.stringValue,
                           readyAt: cells[OrderField.readyAt]?.stringValue.flatMap(AirtableTimestamp.parse))
    }

    private static func line(from record: Record, menu: Menu) throws(ShopError) -> OrderLine {
        let cells = record.fields
        func need<T>(_ field: OrderField, _ parse: (String) -> T?) throws(ShopError) -> T {
            guard let text = cells[field]?.stringValue, let value = parse(text) else {
                let shown = cells[field].map { JSONWriter.string($0) } ?? "nothing"
                throw .storedData("record \(record.id) in OrderDrink: \(field.rawValue) is \(shown)")
            }
            return value
        }
        let name = try need(.drinkName) { $0.isEmpty ? nil : $0 }
        let size = try need(.size, CupSize.init(rawValue:))
        let ice = try need(.ice, IceLevel.init(rawValue:))
        let sugar = try need(.sugar, SugarLevel.init(rawValue:))
        var addOns: [AddOn] = []
        for value in cells[OrderField.addOns]?.arrayValue ?? [] {
            guard let text = value.stringValue, let addOn = AddOn(rawValue: text) else {
                throw .storedData("record \(record.id) in OrderDrink: unknown add-on \(JSONWriter.string(value))")
            }
            addOns.append(addOn)
        }
        let cups = max(1, cells[OrderField.numberOfCups]?.intValue ?? 1)
        // The KEBUKE app stores only the line total; recover the unit price from it as the app does.
        let unit = cells[OrderField.unitPrice]?.intValue ?? (cells[OrderField.price]?.intValue ?? 0) / cups
        // A line whose drink has left the menu keeps its stored prices and discount; its category only
        // matters when the order is repriced, and repricing needs the drink on the menu anyway.
        let category = menu.drink(named: name)?.category ?? .classicTea
        do {
            return try OrderLine(drinkName: name, category: category, size: size, ice: ice, sugar: sugar, addOns: addOns,
                                 quantity: cups, unitPrice: unit, note: cells[OrderField.note]?.stringValue)
        } catch {
            throw .storedData("record \(record.id) in OrderDrink: \(error)")
        }
    }
}
