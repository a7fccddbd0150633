import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The stamp card and the passes on sale, as seeded (kept in the `Setting` table under `stampCard` and
/// `passes`, so every counter shares them).
public struct MemberProgram: Sendable, Equatable {
    public var stampPolicy: StampPolicy?
    public var passes: [PassProduct] = []

    static let stampCardKey = "stampCard"
    static let passesKey = "passes"

    /// `10|中杯` and `月卡|30|299|percentOff:10;…`.
    var settings: [String: String] {
        var result: [String: String] = [:]
        if let policy = stampPolicy { result[Self.stampCardKey] = "\(policy.stampsPerReward)|\(policy.rewardSize.rawValue)" }
        if !passes.isEmpty {
            result[Self.passesKey] = passes.map { "\($0.name)|\($0.days)|\($0.price)|\(MemberRecords.text(of: $0.benefit))" }
                .joined(separator: ";")
        }
        return result
    }

    init(settings: [String: String]) {
        if let text = settings[Self.stampCardKey] {
            let parts = text.split(separator: "|").map(String.init)
            if parts.count == 2, let count = Int(parts[0]), let size = CupSize(rawValue: parts[1]) {
                stampPolicy = try? StampPolicy(stampsPerReward: count, rewardSize: size)
            }
        }
        for item in (settings[Self.passesKey] ?? "").split(separator: ";") {
            let parts = item.split(separator: "|").map(String.init)
            guard parts.count == 4, let days = Int(parts[1]), let price = Int(parts[2]),
                  let benefit = MemberRecords.benefit(from: parts[3]),
                  let product = try? PassProduct(name: parts[0], days: days, price: price, benefit: benefit) else { continue }
            passes.append(product)
        }
    }

    init(stampPolicy: StampPolicy?, passes: [PassProduct]) {
        self.stampPolicy = stampPolicy
        self.passes = passes
    }
}

/// Members (a customer known by a mobile number): the stamp card (a stamp per cup paid for, earned once the
/// order is paid and taken back when it is voided: `StampRule`, settled by `StampKeeping`; N stamps redeem a
/// free cup of the reward size) and passes with an expiry. An order `for 09…` is the member's: it earns
/// stamps once paid, uses an active pass, and may redeem free cups.
public struct Members: Sendable {
    let records: MemberRecords
    let settings: SettingRecords
    let extras: OrderExtras
    let clock: ShopClock
    /// How a pass sale and its entry are written together.
    let commits: any CommitStrategy

    init(store: any RecordStore, extras: OrderExtras, clock: ShopClock, commits: any CommitStrategy) {
        self.commits = commits
        records = MemberRecords(store: store)
        settings = SettingRecords(store: store)
        self.extras = extras
        self.clock = clock
    }

    /// The program as seeded.
    public func program() async throws(TillError) -> MemberProgram {
        do { return MemberProgram(settings: try await settings.all()) } catch { throw .shop(error) }
    }

    /// The member with this number (a new one has an empty card and no pass).
    public func member(_ mobile: MobileNumber) async throws(TillError) -> Member {
        try await records.find(mobile)
    }

    /// Makes `stored` the member's order: undoes what the order did to a card before (so applying twice
    /// is harmless), redeems `freeCups` (their stamps are spent now), and uses the pass when it is active.
    /// The order earns its stamps only once it is paid (`StampRule`, settled by the till with the payment).
    /// Everything is checked and the bill priced before anything is written.
    /// - Returns: the member after the order, the order's bill, and a note when a pass could not be used.
    /// - Parameter money: the order's money as the till read it (`Counter` reads it; the guard is `MoneyGuard`).
    /// - Parameter usePass: whether the member's active pass takes its discount (not from the ordering page,
    ///   which proves nobody's number).
    func apply(to stored: StoredOrder, mobile: MobileNumber, freeCups: Int, money: OrderPayments?, usePass: Bool = true)
        async throws(TillError)
        -> (member: Member, charges: OrderCharges, note: String?)
    {
        let number = OrderNumber.pickup(stored.order.pickupNumber)
        do { try MoneyGuard.check(.member, number, status: stored.order.status, money: money) } catch { throw .order(error) }
        guard freeCups >= 0 else { throw .member(.nothingToRedeem) }
        var extra = try await extras.extra(of: stored.orderRef)
        if let other = extra.member, other != mobile {
            throw .order(.anotherMembers(number, masked: other.masked))
        }
        let program = try await program()
        var member = try await records.find(mobile)
        if extra.member == mobile {
            // The card without this order's share (an earlier version's stamps for it, unpaid, go too).
            let held = OrderStamps(redeemed: extra.stampsRedeemed, earned: extra.stampsAdded)
            member = Member(mobile: mobile, card: StampCard(stamps: member.card.stamps + held.change(to: OrderStamps())),
                            pass: member.pass)
        }
        let now = clock.now()
        var note: String?
        var pass: (String, PassBenefit)?
        if usePass, let held = member.pass {
            switch held.status(at: now) {
            case .active: pass = (held.name, held.benefit)
            default: note = "\(held.status(at: now).sentence(calendar: calendar)): no pass discount"
            }
        }
        var after = member
        if let policy = program.stampPolicy {
            do { after = try member.redeeming(freeCups: freeCups, policy: policy) } catch { throw .member(error) }
            extra.rewardSize = freeCups > 0 ? policy.rewardSize : nil
            extra.stampsRedeemed = freeCups * policy.stampsPerReward
            extra.stampsAdded = 0
        } else if freeCups > 0 {
            throw .noStampCard
        } else {
            extra.stampsAdded = 0
            extra.stampsRedeemed = 0
        }
        extra.member = mobile
        extra.freeCups = freeCups
        extra.pass = pass
        let charges = try OrderExtras.price(stored.order, extra: extra,
                                            adjustments: extra.adjustments.isEmpty ? [] : try await extras.adjustments())
        try await records.save(after)
        try await extras.save(extra, of: stored)
        try await extras.copyBill(charges, extra: extra, to: stored)
        return (after, charges, note)
    }

    /// Sells the pass `name` to the member: refused while their pass is still active.
    func buyPass(_ name: String, for mobile: MobileNumber) async throws(TillError) -> (Member, PassProduct) {
        try await buyPass(name, for: mobile, trail: nil) { _ in nil }
    }

    /// `buyPass`, with the audit entry `entry` makes of the pass sold. On the embedded store the member's
    /// pass and the entry are one commit (an entry that cannot be written sells nothing). Over the API the
    /// pass, then the entry: an entry that cannot be written puts the member's cells back as they were
    /// (`ShopError.auditNotWrittenNothingChanged`), or, when that fails too, is the command's error with the
    /// pass sold (`ShopError.auditNotWritten`).
    func buyPass(_ name: String, for mobile: MobileNumber, trail: AuditTrail?,
                 entry: @escaping @Sendable (PassProduct) -> AuditEntry?) async throws(TillError) -> (Member, PassProduct) {
        let program = try await program()
        guard let product = program.passes.first(where: { $0.name == name || $0.name.lowercased() == name.lowercased() }) else {
            throw .noSuchPass(name, known: program.passes.map(\.name))
        }
        let member = try await records.find(mobile)
        let pass: MemberPass
        do { pass = try product.purchase(held: member.pass, at: clock.now(), calendar: clock.calendar) } catch { throw .member(error) }
        let after = Member(mobile: mobile, card: member.card, pass: pass)
        do {
            _ = try await AuditedChange([records.write(of: after)], to: records.store, undo: { [records] _ in [records.write(of: member)] })
                .write(with: commits, trail: trail) { _ in entry(product).map { [$0] } ?? [] }
        } catch {
            throw .shop(error)
        }
        return (after, product)
    }

    var calendar: ShopCalendar { clock.calendar }
}
