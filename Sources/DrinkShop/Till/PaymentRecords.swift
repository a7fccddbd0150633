import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// A payment or a refund as the `TillPayment` table holds it, tied to its order.
struct MoneyRecord: Sendable {
    enum Kind: String, Sendable { case payment, refund }
    var orderRef: String
    var pickupNumber: Int
    /// Nil for a record whose cell is empty or not a date.
    var businessDay: BusinessDay?
    var entry: Entry
    /// The record's key; nil makes a new one. A refund's is its order's and method's, so a void retried
    /// after a failure records it once.
    var ref: String? = nil

    enum Entry: Sendable {
        case payment(Payment)
        case refund(Refund)
    }
}

/// The `TillPayment` table: the only code that knows its fields. Records are only ever added (upserted
/// on a client-made `ref`, so a retried write never takes money twice).
struct PaymentRecords: Sendable {
    let store: any RecordStore

    /// Writes payments and refunds in one request (all or nothing on every backend: one batch of at most 10).
    func add(_ records: [MoneyRecord]) async throws(ShopError) {
        guard !records.isEmpty else { return }
        do {
            _ = try await store.upsertRecords(in: ShopSchema.paymentTable, Self.upserts(records),
                                              mergeOn: [PaymentField.ref.rawValue], replace: false,
                                              options: WriteOptions(typecast: true))
        } catch {
            throw .store(error)
        }
    }

    /// The same write inside an atomic commit (the embedded store).
    static func add(_ records: [MoneyRecord], in transaction: any RecordTransaction) throws(AirtableError) {
        guard !records.isEmpty else { return }
        _ = try transaction.upsertRecords(in: ShopSchema.paymentTable, upserts(records), mergeOn: [PaymentField.ref.rawValue],
                                          replace: false, options: WriteOptions(typecast: true))
    }

    /// What the ledger holds for one order, paid less refunded, read inside an atomic commit.
    static func held(by orderRef: String, in transaction: any RecordTransaction) throws(AirtableError) -> Int {
        var query = ListQuery(filterByFormula: (FormulaExpression.field(PaymentField.orderRef) == .text(orderRef)).description,
                              fields: [PaymentField.kind.rawValue, PaymentField.amount.rawValue])
        var held = 0
        while true {
            let page = try transaction.listRecords(in: ShopSchema.paymentTable, query: query)
            for record in page.records {
                let amount = record.fields[PaymentField.amount]?.intValue ?? 0
                held += record.fields[PaymentField.kind]?.stringValue == MoneyRecord.Kind.refund.rawValue ? -amount : amount
            }
            guard let offset = page.offset else { return held }
            query.offset = offset
        }
    }

    private static func upserts(_ records: [MoneyRecord]) -> [UpsertRecord] {
        records.map { record -> UpsertRecord in
            var cells = orderCells(ref: record.ref ?? AirtableID.make("pay"), orderRef: record.orderRef,
                                   pickupNumber: record.pickupNumber, businessDay: record.businessDay)
            switch record.entry {
            case .payment(let payment):
                cells[PaymentField.kind] = .string(MoneyRecord.Kind.payment.rawValue)
                cells[PaymentField.method] = .string(payment.method.rawValue)
                cells[PaymentField.amount] = .int(payment.amount)
                cells[PaymentField.tendered] = .int(payment.tendered)
                cells[PaymentField.by] = .string(payment.takenBy)
                cells[PaymentField.at] = .string(AirtableTimestamp.format(payment.takenAt))
            case .refund(let refund):
                cells[PaymentField.kind] = .string(MoneyRecord.Kind.refund.rawValue)
                cells[PaymentField.method] = .string(refund.method.rawValue)
                cells[PaymentField.amount] = .int(refund.amount)
                cells[PaymentField.by] = .string(refund.refundedBy)
                cells[PaymentField.at] = .string(AirtableTimestamp.format(refund.refundedAt))
                cells[PaymentField.reason] = .string(refund.reason)
            }
            return UpsertRecord(fields: cells)
        }
    }

    /// The cells every record of the ledger has: its key and the order it belongs to.
    private static func orderCells(ref: String, orderRef: String, pickupNumber: Int, businessDay: BusinessDay?) -> Fields {
        Fields([PaymentField.ref: .string(ref), .orderRef: .string(orderRef), .pickupNumber: .int(pickupNumber),
                .businessDay: .string(businessDay?.description ?? "")])
    }

    /// The payments and refunds of the orders of these business days.
    func forDays(_ days: [BusinessDay]) async throws(ShopError) -> [MoneyRecord] {
        guard !days.isEmpty else { return [] }
        let formula = FormulaExpression.or(days.map { .field(PaymentField.businessDay) == .text($0.description) })
        return try await list(formula)
    }

    /// The payments and refunds of one order.
    func forOrder(_ orderRef: String) async throws(ShopError) -> [MoneyRecord] {
        try await list(.field(PaymentField.orderRef) == .text(orderRef))
    }

    /// One order's ledger in the ledger's own order (creation time, then record id: every counter sees the
    /// same order), for the claim rule of a payment over the API (`Till.payOverTheAPI`).
    func entries(ofOrder orderRef: String) async throws(ShopError) -> [LedgerEntry] {
        let records: [Record]
        do {
            records = try await store.allRecords(in: ShopSchema.paymentTable, query: ListQuery(
                filterByFormula: (FormulaExpression.field(PaymentField.orderRef) == .text(orderRef)).description))
        } catch {
            throw .store(error)
        }
        var entries: [LedgerEntry] = []
        for record in records {
            let item: LedgerEntry.Item = Self.isCancelMark(record) ? .cancelMark : .money(try Self.read(record))
            entries.append(LedgerEntry(id: record.id, createdTime: record.createdTime, item: item))
        }
        return entries.sorted { ($0.createdTime, $0.id) < ($1.createdTime, $1.id) }
    }

    /// Marks order `orderRef` cancelled in its ledger (`Till.cancel` over the API where no server refuses a payment
    /// for a cancelled order: `CommitStrategy.marksCancelsInLedger`). A paying counter reads its payment back in the
    /// ledger: a mark written before the canceller reads the ledger is seen there, so of a payment and a cancel at
    /// one instant either the canceller sees the payment or the payer sees the mark, with no read of the order's
    /// status after each payment. The mark is a record of kind `refund` for NT$0 under the key
    /// `<orderRef>-cancelled` (the kind field keeps its two options; a refund of money is never below NT$1), with
    /// who and why; it is no money: every reader but the payer's read-back leaves it out (`list`).
    func markCancelled(_ orderRef: String, pickupNumber: Int, businessDay: BusinessDay?, reason: String, by staff: String,
                       at date: Date) async throws(ShopError) {
        var cells = Self.orderCells(ref: orderRef + Self.cancelMarkSuffix, orderRef: orderRef, pickupNumber: pickupNumber,
                                    businessDay: businessDay)
        cells[PaymentField.kind] = .string(MoneyRecord.Kind.refund.rawValue)
        cells[PaymentField.amount] = .int(0)
        cells[PaymentField.by] = .string(staff)
        cells[PaymentField.at] = .string(AirtableTimestamp.format(date))
        cells[PaymentField.reason] = .string("cancel mark, no money (for a counter paying at this moment): \(reason)")
        do {
            _ = try await store.upsertRecords(in: ShopSchema.paymentTable, [UpsertRecord(fields: cells)],
                                              mergeOn: [PaymentField.ref.rawValue], replace: false,
                                              options: WriteOptions(typecast: true))
        } catch {
            throw .store(error)
        }
    }

    static let cancelMarkSuffix = "-cancelled"

    /// Whether `record` is a cancel mark (`markCancelled`), not money.
    static func isCancelMark(_ record: Record) -> Bool {
        record.fields[PaymentField.kind]?.stringValue == MoneyRecord.Kind.refund.rawValue
            && record.fields[PaymentField.amount]?.intValue == 0
            && record.fields[PaymentField.ref]?.stringValue?.hasSuffix(cancelMarkSuffix) == true
    }

    /// Adds one payment or refund; returns its record's id.
    func addOne(_ record: MoneyRecord) async throws(ShopError) -> String {
        let result: UpsertResult
        do {
            result = try await store.upsertRecords(in: ShopSchema.paymentTable, Self.upserts([record]),
                                                   mergeOn: [PaymentField.ref.rawValue], replace: false,
                                                   options: WriteOptions(typecast: true))
        } catch {
            throw .store(error)
        }
        guard let id = result.records.first?.id else { throw .storedData("the store wrote no TillPayment record") }
        return id
    }

    /// Whether the store keeps payments' keys unique (`drinkshop serve` says so: `ShopSchema.keptUnique`), so a
    /// payment can be made by `create(_:)` under a key that names what it was worked out from.
    var keepsKeysUnique: Bool { store.keepsUnique(PaymentField.ref.rawValue, in: ShopSchema.paymentTable) }

    /// Whether the store refuses a payment for a cancelled order in the payment's own commit (`drinkshop serve` says
    /// so: `CancelledOrderGuard`), so a payer needs no read of the order's status after its payment.
    var refusesCancelledOrders: Bool { store.holdsCreateGuard(named: CancelledOrderGuard.guardName) }

    /// What a create under a key came to (`create(_:)`).
    enum KeyedCreate: Sendable, Equatable {
        /// Written: the record's id.
        case created(String)
        /// Refused: another record holds the key.
        case keyTaken
        /// Refused: the order is cancelled (`CancelledOrderGuard`); nothing was written.
        case orderCancelled
    }

    /// Creates one payment or refund under its key (`record.ref`) on a store that keeps keys unique.
    func create(_ record: MoneyRecord) async throws(ShopError) -> KeyedCreate {
        let records: [Record]
        do {
            records = try await store.createRecords(in: ShopSchema.paymentTable, Self.upserts([record]).map(\.fields),
                                                    options: WriteOptions(typecast: true))
        } catch where error.isDuplicateKey {
            return .keyTaken
        } catch where error.apiError?.type == CancelledOrderGuard.refusalType {
            return .orderCancelled
        } catch {
            throw .store(error)
        }
        guard let id = records.first?.id else { throw .storedData("the store wrote no TillPayment record") }
        return .created(id)
    }

    /// Keeps one record of each key `keys` names in the order's ledger: the earliest (creation time, then record
    /// id, as every counter sees them), the others removed. An upsert over the API is not atomic (Airtable's are
    /// not trusted): two counters settling one order at once may both create its refund under the same key, and
    /// whoever reads the ledger last sees both. - Returns: how many were removed.
    @discardableResult
    func keepEarliest(ofKeys keys: Set<String>, inOrder orderRef: String) async throws(ShopError) -> Int {
        var seen: Set<String> = []
        var extra: [String] = []
        for entry in try await entries(ofOrder: orderRef) {
            guard let key = entry.money?.ref, keys.contains(key) else { continue }
            if !seen.insert(key).inserted { extra.append(entry.id) }
        }
        try await remove(extra)
        return extra.count
    }

    /// Removes the records under refund key `key` of order `orderRef` (a refund that counted only payments taken back
    /// since: `Till.balanceRefunds`).
    func removeRefund(ofOrder orderRef: String, key: String) async throws(ShopError) {
        try await remove(try await entries(ofOrder: orderRef).filter { $0.money?.ref == key }.map(\.id))
    }

    /// Deletes records `ids`, one a request; one another counter removed first (404) is gone by the same rule.
    private func remove(_ ids: [String]) async throws(ShopError) {
        for id in ids {
            do { _ = try await store.deleteRecords(in: ShopSchema.paymentTable, ids: [id]) } catch {
                if case .api(let answer) = error, answer.status == 404 { continue }
                throw .store(error)
            }
        }
    }

    /// Takes back a payment that lost its claim (written a moment ago, relied on by nobody).
    func withdraw(_ id: String) async throws(ShopError) {
        do { _ = try await store.deleteRecords(in: ShopSchema.paymentTable, ids: [id]) } catch { throw .store(error) }
    }

    /// Those taken or given at or after `date`.
    func since(_ date: Date) async throws(ShopError) -> [MoneyRecord] {
        try await list(.notBefore(.field(PaymentField.at), date))
    }

    private func list(_ formula: FormulaExpression) async throws(ShopError) -> [MoneyRecord] {
        let records: [Record]
        do {
            records = try await store.allRecords(in: ShopSchema.paymentTable,
                                                 query: ListQuery(filterByFormula: formula.description))
        } catch {
            throw .store(error)
        }
        var result: [MoneyRecord] = []
        for record in records where !Self.isCancelMark(record) { result.append(try Self.read(record)) }
        return result
    }

    /// The payments and refunds taken or given at or after `date`, read inside an atomic commit (a record
    /// that cannot be read is left out here; the report names it).
    static func since(_ date: Date, in transaction: any RecordTransaction) throws(AirtableError) -> [MoneyRecord] {
        var query = ListQuery(filterByFormula: FormulaExpression.notBefore(.field(PaymentField.at), date).description)
        var found: [MoneyRecord] = []
        while true {
            let page = try transaction.listRecords(in: ShopSchema.paymentTable, query: query)
            found += page.records.compactMap { isCancelMark($0) ? nil : try? read($0) }
            guard let offset = page.offset else { return found }
            query.offset = offset
        }
    }

    static func read(_ record: Record) throws(ShopError) -> MoneyRecord {
        let cells = record.fields
        func fail(_ problem: String) -> ShopError { .storedData("record \(record.id) in table TillPayment \(problem)") }
        guard let orderRef = cells[PaymentField.orderRef]?.stringValue else { throw fail("has no orderRef") }
        guard let methodCode = cells[PaymentField.method]?.stringValue,
              let method = PaymentMethod(rawValue: methodCode) else { throw fail("has no known method") }
        guard let amount = cells[PaymentField.amount]?.intValue else { throw fail("has no whole-number amount") }
        guard let atText = cells[PaymentField.at]?.stringValue, let at = AirtableTimestamp.parse(atText) else {
            throw fail("has no time in field at")
        }
        let by = cells[PaymentField.by]?.stringValue ?? ""
        let entry: MoneyRecord.Entry
        guard let kind = cells[PaymentField.kind]?.stringValue.flatMap(MoneyRecord.Kind.init(rawValue:)) else {
            throw fail("has no kind (payment or refund)")
        }
        do throws(PaymentError) {
            switch kind {
            case .payment:
                entry = .payment(try Payment(method: method, amount: amount, tendered: cells[PaymentField.tendered]?.intValue,
                                             takenBy: by, takenAt: at))
            case .refund:
                entry = .refund(try Refund(method: method, amount: amount, refundedBy: by, refundedAt: at,
                                           reason: cells[PaymentField.reason]?.stringValue ?? ""))
            }
        } catch {
            throw fail(": \(error)")
        }
        return MoneyRecord(orderRef: orderRef, pickupNumber: cells[PaymentField.pickupNumber]?.intValue ?? 0,
                           businessDay: cells[PaymentField.businessDay]?.stringValue.flatMap { try? BusinessDay($0) },
                           entry: entry, ref: cells[PaymentField.ref]?.stringValue)
    }
}

/// A record of the ledger with its place in the ledger's order.
struct LedgerEntry: Sendable {
    let id: String
    let createdTime: Date
    let item: Item

    enum Item: Sendable {
        /// A payment or a refund.
        case money(MoneyRecord)
        /// The order was cancelled (`PaymentRecords.markCancelled`): no money.
        case cancelMark
    }

    /// The payment or refund; nil for a cancel mark.
    var money: MoneyRecord? { if case .money(let money) = item { money } else { nil } }
    var isCancelMark: Bool { if case .cancelMark = item { true } else { false } }
    var isPayment: Bool { if case .payment = money?.entry { true } else { false } }
}

extension Array where Element == LedgerEntry {
    /// The payments' total (refunds and cancel marks left out).
    var paid: Int {
        reduce(0) { total, entry in if case .payment(let payment) = entry.money?.entry { total + payment.amount } else { total } }
    }
}

extension Array where Element == MoneyRecord {
    var payments: [Payment] { compactMap { if case .payment(let p) = $0.entry { p } else { nil } } }
    var refunds: [Refund] { compactMap { if case .refund(let r) = $0.entry { r } else { nil } } }
}
