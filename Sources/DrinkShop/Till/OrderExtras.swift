import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// What the till knows of one order beyond its lines: adjustments used (code and count) and invoice details.
public struct OrderExtra: Sendable, Equatable {
    public var adjustments: [String: Int] = [:]
    public var invoice: InvoiceDetails?
    /// The member the order is for, the free cups redeemed (of `rewardSize`), the stamps they cost and
    /// the stamps the order earned; the pass used and its benefit.
    public var member: MobileNumber?
    public var freeCups = 0
    public var rewardSize: CupSize?
    public var stampsRedeemed = 0
    public var stampsAdded = 0
    public var pass: (name: String, benefit: PassBenefit)?

    public static func == (a: OrderExtra, b: OrderExtra) -> Bool {
        a.adjustments == b.adjustments && a.invoice == b.invoice && a.member == b.member && a.freeCups == b.freeCups
            && a.rewardSize == b.rewardSize && a.stampsRedeemed == b.stampsRedeemed && a.stampsAdded == b.stampsAdded
            && a.pass?.name == b.pass?.name && a.pass?.benefit == b.pass?.benefit
    }

    public init(adjustments: [String: Int] = [:], invoice: InvoiceDetails? = nil) {
        self.adjustments = adjustments
        self.invoice = invoice
    }

    /// `cup:2,bag:1`, codes sorted.
    var adjustmentText: String { adjustments.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",") }

    static func adjustments(from text: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for item in text.split(separator: ",") {
            let parts = item.split(separator: ":")
            guard parts.count == 2, let count = Int(parts[1]) else { continue }
            result[String(parts[0])] = count
        }
        return result
    }
}

/// The `OrderTill` and `Adjustment` tables: the only code that knows their fields. Prices an order's bill.
public struct OrderExtras: Sendable {
    let store: any RecordStore
    /// How a group of writes is made durable on `store` (the shop's one choice).
    let commits: any CommitStrategy
    /// The orders' own records, where the bill is copied for the till (`TillCopy.bill`).
    var orderRecords: OrderRecords { OrderRecords(store: store, clock: ShopClock(), commits: commits) }

    /// The counter's adjustments, as seeded.
    public func adjustments() async throws(TillError) -> [Adjustment] {
        let records: [Record]
        do { records = try await store.allRecords(in: ShopSchema.adjustmentTable) } catch { throw .shop(.store(error)) }
        var result: [Adjustment] = []
        for record in records {
            var cells = record.fields
            for key in cells.keys where !AdjustmentRecord.keys.contains(key) { cells[key] = nil }
            do { result.append(try AdjustmentRecord.adjustment(from: cells)) } catch {
                throw .shop(.storedData("record \(record.id) in table Adjustment: \(error)"))
            }
        }
        return result.sorted { $0.code < $1.code }
    }

    /// Writes the seeded adjustments (upsert on code).
    func seed(_ adjustments: [Adjustment]) async throws(ShopError) {
        guard !adjustments.isEmpty else { return }
        do {
            _ = try await store.upsertRecords(in: ShopSchema.adjustmentTable,
                                              adjustments.map { UpsertRecord(fields: AdjustmentRecord.fields(of: $0)) },
                                              mergeOn: [AdjustmentField.code.rawValue], replace: false,
                                              options: WriteOptions(typecast: true))
        } catch {
            throw .store(error)
        }
    }

    /// The extra of one order (empty when the till has nothing on it).
    public func extra(of orderRef: String) async throws(TillError) -> OrderExtra {
        try await extras(formula: .field(OrderTillField.orderRef) == .text(orderRef))[orderRef] ?? OrderExtra()
    }

    /// Writes the extra of one order (upsert on orderRef).
    func save(_ extra: OrderExtra, of stored: StoredOrder) async throws(TillError) {
        let cells = Fields([
            OrderTillField.orderRef: .string(stored.orderRef),
            .businessDay: .string(stored.businessDay.description),
            .adjustments: extra.adjustments.isEmpty ? .null : .string(extra.adjustmentText),
            .invoiceKind: extra.invoice.map { .string($0.kindCode) } ?? .null,
            .invoiceValue: extra.invoice.map { .string($0.value) } ?? .null,
            .member: extra.member.map { .string($0.digits) } ?? .null,
            .freeCups: .int(extra.freeCups), .stampsRedeemed: .int(extra.stampsRedeemed), .stampsAdded: .int(extra.stampsAdded),
            .rewardSize: extra.rewardSize.map { .string($0.rawValue) } ?? .null,
            .pass: extra.pass.map { .string("\($0.name)|\(MemberRecords.text(of: $0.benefit))") } ?? .null,
        ])
        do {
            _ = try await store.upsertRecords(in: ShopSchema.orderTillTable, [UpsertRecord(fields: cells)],
                                              mergeOn: [OrderTillField.orderRef.rawValue], replace: false,
                                              options: WriteOptions(typecast: true))
        } catch {
            throw .shop(.store(error))
        }
    }

    /// Applies adjustment codes with counts to an order (a count of 0 removes one), checked by pricing
    /// the bill before anything is written.
    /// - Returns: the order's new bill.
    /// - Parameter known: the seeded adjustments when the caller has read them (no second read).
    func adjust(_ stored: StoredOrder, uses: [String: Int], known: [Adjustment]? = nil) async throws(TillError)
        -> OrderCharges
    {
        var extra = try await extra(of: stored.orderRef)
        for (code, count) in uses { extra.adjustments[code] = count > 0 ? count : nil }
        let known = if let known { known } else { try await adjustments() }
        for code in extra.adjustments.keys.sorted() where !known.contains(where: { $0.code == code }) {
            throw .unknownAdjustment(code, known: known.map { "\($0.code) (\($0.name))" })
        }
        let charges = try Self.price(stored.order, extra: extra, adjustments: known)
        try await save(extra, of: stored)
        try await copyBill(charges, extra: extra, to: stored)
        return charges
    }

    /// The bill the till's copy carries: the total when member benefits or adjustments change it, or when the
    /// order is a member's (so a payment over the API knows from the order's own read that its stamps settle
    /// with it: `StampKeeping`), else nil.
    static func bill(of charges: OrderCharges, extra: OrderExtra) -> Int? {
        charges.memberDiscounts.isEmpty && charges.adjustments.isEmpty && extra.member == nil ? nil : charges.total
    }

    /// The bill of one order and what its copy carries of it (one read of `OrderTill`, and of the adjustments
    /// when it uses some).
    func billed(_ stored: StoredOrder) async throws(TillError) -> (charges: OrderCharges, bill: Int?) {
        let (charges, extra) = try await priced(stored)
        return (charges, Self.bill(of: charges, extra: extra))
    }

    /// The bill of one order with the till's extra it was priced from (one read of `OrderTill`, and of the
    /// adjustments when it uses some).
    func priced(_ stored: StoredOrder) async throws(TillError) -> (charges: OrderCharges, extra: OrderExtra) {
        let extra = try await extra(of: stored.orderRef)
        return (try Self.price(stored.order, extra: extra, adjustments: extra.adjustments.isEmpty ? [] : try await adjustments()), extra)
    }

    /// Copies the bill onto the order's own records, once the extras that priced it (`extra`) are saved. Called
    /// only before any payment (adjustments and members refuse a paid order), so the rest of the copy is known.
    func copyBill(_ charges: OrderCharges, extra: OrderExtra, to stored: StoredOrder) async throws(TillError) {
        var copy = stored.till ?? TillCopy()
        copy.bill = Self.bill(of: charges, extra: extra)
        guard copy != stored.till else { return }
        do { _ = try await orderRecords.writeCells(of: stored, [:], extra: OrderRecord.cells(of: copy)) } catch {
            throw .shop(error)
        }
    }

    /// Records (or with nil clears) an order's invoice details, already checked.
    func setInvoice(_ details: InvoiceDetails?, of stored: StoredOrder) async throws(TillError) {
        var extra = try await extra(of: stored.orderRef)
        extra.invoice = details
        try await save(extra, of: stored)
    }

    /// The bill of one order.
    public func charges(of stored: StoredOrder) async throws(TillError) -> OrderCharges {
        try await priced(stored).charges
    }

    /// The bills of many orders, by orderRef, with two reads.
    public func charges(of stored: [StoredOrder]) async throws(TillError) -> [String: OrderCharges] {
        try await charges(of: stored, extras: try await extras(days: Set(stored.map(\.businessDay)).sorted()))
    }

    /// The bills of many orders, by orderRef, from their days' extras (`extras(days:)`) already read.
    func charges(of stored: [StoredOrder], extras: [String: OrderExtra]) async throws(TillError) -> [String: OrderCharges] {
        let known = extras.values.contains { !$0.adjustments.isEmpty } ? try await adjustments() : []
        var result: [String: OrderCharges] = [:]
        for order in stored {
            result[order.orderRef] = try Self.price(order.order, extra: extras[order.orderRef] ?? OrderExtra(), adjustments: known)
        }
        return result
    }

    /// The extras of orders of these days, by orderRef.
    public func extras(days: [BusinessDay]) async throws(TillError) -> [String: OrderExtra] {
        guard !days.isEmpty else { return [:] }
        return try await extras(formula: .or(days.map { .field(OrderTillField.businessDay) == .text($0.description) }))
    }

    static func price(_ order: Order, extra: OrderExtra, adjustments: [Adjustment]) throws(TillError) -> OrderCharges {
        var uses: [AdjustmentUse] = []
        for (code, count) in extra.adjustments.sorted(by: { $0.key < $1.key }) {
            guard let adjustment = adjustments.first(where: { $0.code == code }) else { continue }
            uses.append(AdjustmentUse(adjustment, count: count))
        }
        var member: MemberBenefits?
        if extra.freeCups > 0 || extra.pass != nil {
            do {
                let policy = try extra.rewardSize.map { (size) throws(MemberError) in try StampPolicy(stampsPerReward: 2, rewardSize: size) }
                // The pass was checked when it was applied (a pass that cannot be is refused all the same).
                let pass = try extra.pass.map { (used) throws(MemberError) in
                    try MemberPass(name: used.name, expiresAt: order.createdAt.addingTimeInterval(1), benefit: used.benefit)
                }
                member = MemberBenefits(freeCups: extra.freeCups, stampPolicy: policy,
                                        passUsed: pass.map { (name: $0.name, benefit: $0.benefit) })
            } catch {
                throw .member(error)
            }
        }
        do { return try OrderCharges.price(order, adjustments: uses, member: member) } catch { throw .charge(error) }
    }

    private func extras(formula: FormulaExpression) async throws(TillError) -> [String: OrderExtra] {
        let records: [Record]
        do {
            records = try await store.allRecords(in: ShopSchema.orderTillTable,
                                                 query: ListQuery(filterByFormula: formula.description))
        } catch {
            throw .shop(.store(error))
        }
        var result: [String: OrderExtra] = [:]
        for record in records {
            guard let ref = record.fields[OrderTillField.orderRef]?.stringValue else { continue }
            result[ref] = Self.extra(from: record.fields)
        }
        return result
    }

    /// The extra an `OrderTill` record's cells hold.
    static func extra(from cells: Fields) -> OrderExtra {
        var extra = OrderExtra()
        extra.adjustments = OrderExtra.adjustments(from: cells[OrderTillField.adjustments]?.stringValue ?? "")
        if let kind = cells[OrderTillField.invoiceKind]?.stringValue, let value = cells[OrderTillField.invoiceValue]?.stringValue {
            extra.invoice = try? InvoiceDetails(kindCode: kind, value: value)
        }
        extra.member = cells[OrderTillField.member]?.stringValue.flatMap { try? MobileNumber(parsing: $0) }
        extra.freeCups = cells[OrderTillField.freeCups]?.intValue ?? 0
        extra.stampsRedeemed = cells[OrderTillField.stampsRedeemed]?.intValue ?? 0
        extra.stampsAdded = cells[OrderTillField.stampsAdded]?.intValue ?? 0
        extra.rewardSize = cells[OrderTillField.rewardSize]?.stringValue.flatMap(CupSize.init(rawValue:))
        if let text = cells[OrderTillField.pass]?.stringValue, let bar = text.firstIndex(of: "|"),
           let benefit = MemberRecords.benefit(from: String(text[text.index(after: bar)...])) {
            extra.pass = (String(text[..<bar]), benefit)
        }
        return extra
    }
}
