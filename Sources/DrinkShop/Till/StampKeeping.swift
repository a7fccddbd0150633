import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The one place a member's card changes for an order once it is a member's (`StampRule` says by how much):
/// after every payment, cancel, void and delete. What the order holds on the card is kept beside it
/// (`OrderTill`'s stampsRedeemed and stampsAdded); settling reads it, the order's status, the stamp card and
/// the member, and moves the card by the difference between what the order holds and what the rule says it
/// should, writing the order's new share with it. Settling twice changes nothing, and the last settling
/// goes by the latest facts (a payment's settling that lands after a cancel's reads the order cancelled).
///
/// On the embedded store a settling is one commit (a payment's is inside the payment's own commit). Over the
/// API an order whose own records say it is no member's costs no read (`Facts.mayBeMembers`); a member's
/// order is settled by the member's write, then the order's share: two counters settling orders of one member at the same instant
/// can each read the card before the other's write (as a pass sale or an earlier version's stamps could).
struct StampKeeping: Sendable {
    let store: any RecordStore
    /// One commit for the settling's reads and writes, or the calls one after another.
    let commits: any CommitStrategy

    /// What the rule needs of the order beyond what the store holds.
    struct Facts: Sendable {
        var orderRef: String
        /// The order's first line record, to read whether it still stands; nil with `standing` given.
        var firstRecordID: String?
        var cups: Int
        /// Whether the order stands (not cancelled, voided or deleted); nil reads it from the store.
        var standing: Bool?
        var paidInFull: Bool
        /// False when the order's own records say it is no member's: the till's copy on it carries no bill
        /// (a member's order always carries one, `OrderExtras.bill`), so over the API nothing is read.
        var mayBeMembers: Bool

        /// The facts of `stored` with its money: a payment's settling reads whether it still stands.
        init(_ stored: StoredOrder, money: OrderPayments?, standing: Bool? = nil) {
            orderRef = stored.orderRef
            mayBeMembers = stored.till.map { $0.bill != nil } ?? true
            firstRecordID = stored.recordIDs.first
            cups = stored.order.cupCount
            self.standing = standing ?? (stored.order.status == .cancelled ? false : nil)
            paidInFull = money.map(StampRule.isPaidInFull) ?? false
        }
    }

    /// Settles the stamps of an order with the store's own commit strategy.
    /// - Returns: the member after it, when the order is a member's and the card changed.
    @discardableResult
    func settle(_ facts: Facts) async throws(TillError) -> Member? {
        do { return try await commits.run(Settling(facts: facts)) } catch { throw .shop(error) }
    }

    /// Settles inside a commit (a payment's, on the embedded store): every read and both writes in it.
    static func settle(_ facts: Facts, in transaction: any RecordTransaction) throws(AirtableError) -> Member? {
        try Settling(facts: facts).run(in: transaction)
    }

    /// A settling, the rule once: the order's share (`OrderTill`), whether the order stands (read only when the
    /// facts do not say), the stamp policy and the member, then the member and the order's new share.
    struct Settling: StorePlan {
        let facts: Facts
        private enum Stage: Sendable { case share, standing, policy, member }
        private var stage = Stage.share
        private var share: Record?
        private var mobile: MobileNumber?
        private var standing = false
        private var settings: [Record] = []

        init(facts: Facts) { self.facts = facts }

        /// Over the API an order whose own records say it is no member's costs no read.
        var outcomeWithoutReading: Member?? { facts.mayBeMembers ? nil : .some(nil) }

        mutating func start() -> PlanStep<Member?> {
            stage = .share
            return .list(table: ShopSchema.orderTillTable, StampKeeping.shareQuery(facts.orderRef))
        }

        mutating func next(after records: [Record]) -> PlanStep<Member?> {
            switch stage {
            case .share:
                guard let record = records.first, let member = OrderExtras.extra(from: record.fields).member else { return .done(nil) }
                (share, mobile) = (record, member)
                if let known = facts.standing {
                    standing = known
                } else if let id = facts.firstRecordID {
                    stage = .standing
                    return .get(table: ShopSchema.orderTable, id: id)
                } else {
                    standing = false
                }
                return policy()
            case .standing:
                standing = records.first?.fields[OrderField.status]?.stringValue != OrderStatus.cancelled.rawValue
                return policy()
            case .policy:
                settings = records
                stage = .member
                guard let mobile else { return .done(nil) }
                return .list(table: ShopSchema.memberTable, MemberRecords.query(mobile))
            case .member:
                guard let share, let mobile,
                      let (member, held) = StampKeeping.decide(facts, share: share.fields, standing: standing, mobile: mobile,
                                                               settings: settings, memberCells: records.first?.fields)
                else { return .done(nil) }
                return .write([.upsert(table: ShopSchema.memberTable, [MemberRecords.cells(of: member)], mergeOn: [MemberField.mobile.rawValue]),
                               .update(table: ShopSchema.orderTillTable, id: share.id, StampKeeping.cells(of: held))],
                              then: member)
            }
        }

        private mutating func policy() -> PlanStep<Member?> {
            stage = .policy
            return .list(table: ShopSchema.settingTable, StampKeeping.policyQuery)
        }
    }

    /// The member after the order's share moves to what the rule says, and that share; nil when it is already.
    fileprivate static func decide(_ facts: Facts, share: Fields, standing: Bool, mobile: MobileNumber, settings: [Record],
                               memberCells: Fields?) -> (Member, OrderStamps)?
    {
        let extra = OrderExtras.extra(from: share)
        var program: [String: String] = [:]
        for record in settings {
            if let key = record.fields[SettingField.key]?.stringValue { program[key] = record.fields[SettingField.value]?.stringValue }
        }
        let held = OrderStamps(redeemed: extra.stampsRedeemed, earned: extra.stampsAdded)
        let due = StampRule.due(held: held, cups: facts.cups, freeCups: extra.freeCups, standing: standing,
                                paidInFull: facts.paidInFull, policy: MemberProgram(settings: program).stampPolicy)
        guard due != held else { return nil }
        let member = MemberRecords.member(mobile, from: memberCells)
        let after = Member(mobile: mobile, card: StampCard(stamps: member.card.stamps + held.change(to: due)), pass: member.pass)
        return (after, due)
    }

    /// The order's share of the card as `OrderTill` cells.
    static func cells(of held: OrderStamps) -> Fields {
        Fields([OrderTillField.stampsRedeemed: .int(held.redeemed), .stampsAdded: .int(held.earned)])
    }

    fileprivate static func shareQuery(_ orderRef: String) -> ListQuery {
        ListQuery(filterByFormula: (FormulaExpression.field(OrderTillField.orderRef) == .text(orderRef)).description)
    }

    fileprivate static let policyQuery = ListQuery(
        filterByFormula: (FormulaExpression.field(SettingField.key) == .text(MemberProgram.stampCardKey)).description)
}
