import DrinkShopCore
import Foundation
import Synchronization

/// Who is acting at a front: the name orders and the audit trail record, and the role they proved (by
/// logging in, with their PIN when they have one); nil when nobody has logged in.
public struct Acting: Sendable, Hashable {
    public var name: String
    public var role: StaffRole?

    public init(_ name: String, role: StaffRole?) {
        self.name = name
        self.role = role
    }
}

/// The counter's rules, in one place: every front (the REPL, one-shot commands, tests) asks for a change
/// here, with the staff member acting, and the counter decides whether they may (`authorize`, from
/// `ShopAction`), whether the order's state and money allow it (`MoneyGuard`), makes the change through
/// the services, and writes its audit entry (on the order in the write of the change, or to the audit
/// trail; an entry that cannot be written is an error, never a warning). A front parses, asks questions
/// and renders; it holds no rule.
public final class Counter: Sendable {
    let orders: OrderDesk
    let till: Till
    let extras: OrderExtras
    let members: Members
    let menuControl: MenuControl
    let drawer: Drawer
    let staff: StaffDirectory
    let audit: AuditTrail
    let settings: ShopSettings
    let archiver: DayArchiver?
    let invoices: InvoiceDesk
    let seeder: Seeder
    let printing: PrintDesk
    let clock: ShopClock
    let delivery: DeliveryPolicy
    /// The shared settings and whether PINs are on, as last read (see `followSharedSettings`).
    var reading: SharedReading { settings.reading }

    /// How old the reading of the shared settings and PINs may get before a command reads them again.
    let sharedReadingAge: TimeInterval
    /// Orders this counter took full payment for whose invoice could not be issued then (the store went away between
    /// the payment and the invoice), by order ref: issued at its next payment (`issueOwedInvoices`).
    let owedInvoices = Mutex<[String: OrderNumber]>([:])

    init(orders: OrderDesk, till: Till, extras: OrderExtras, members: Members, menuControl: MenuControl, drawer: Drawer,
         staff: StaffDirectory, audit: AuditTrail, settings: ShopSettings, archiver: DayArchiver?, invoices: InvoiceDesk, seeder: Seeder,
         printing: PrintDesk, clock: ShopClock, delivery: DeliveryPolicy, sharedReadingAge: TimeInterval = Counter.defaultSharedReadingAge)
    {
        self.sharedReadingAge = sharedReadingAge
        self.orders = orders
        self.till = till
        self.extras = extras
        self.members = members
        self.menuControl = menuControl
        self.drawer = drawer
        self.staff = staff
        self.audit = audit
        self.settings = settings
        self.archiver = archiver
        self.invoices = invoices
        self.seeder = seeder
        self.printing = printing
        self.clock = clock
        self.delivery = delivery
    }

    // MARK: - Who may

    /// The name to record for `acting`, once they may perform `action`: without PINs anyone may do
    /// anything; with them, someone must be logged in, with a manager's role for a manager's action.
    /// - Throws: `TillError.access`.
    @discardableResult
    public func authorize(_ action: ShopAction, _ acting: Acting) async throws(TillError) -> String {
        let policy = AccessPolicy(pinsEnabled: try await pinsEnabled())
        do { try policy.check(action, role: acting.role) } catch { throw .access(error) }
        return acting.name
    }

    /// Whether PINs are on (roles enforced): as read less than `sharedReadingAge` ago, else read again (the
    /// first time, a note of this machine's last 30 s will do: a one-shot command spends no request on it).
    /// While the store cannot be reached it is never read: the last known answer holds, however old (kept
    /// in the outbox's notes), so the counter takes orders into the outbox at once.
    /// - Throws: `TillError` when the store cannot answer and nothing is known, or refuses.
    public func pinsEnabled() async throws(TillError) -> Bool {
        let now = clock.now()
        let known = reading.current
        if let pins = known.pins, !SharedReading.isStale(known.pinsAt, now: now, age: sharedReadingAge) { return pins }
        if delivery.isOffline, let pins = await lastKnownPins() { return pins }
        do {
            let pins = known.pins == nil ? try await staff.pinsEnabledLately() : try await staff.pinsEnabled()
            reading.read(pins: pins, at: now)
            return pins
        } catch {
            if case .shop(let failure) = error, delivery.outbox(after: failure, at: now) != nil, let pins = await lastKnownPins() {
                return pins
            }
            throw error
        }
    }

    /// Whether PINs are on as this counter, or a process of this machine, last knew it.
    private func lastKnownPins() async -> Bool? {
        if let pins = reading.current.pins { return pins }
        guard let kept = await delivery.outbox?.keptPinsEnabled(at: clock.now(), within: .infinity) else { return nil }
        reading.read(pins: kept, at: nil)
        return kept
    }

    /// A PIN was set or removed here: whether PINs are on is read again (from the note the change left, when
    /// there is one), so the change is not taken for another counter's.
    func pinsChangedHere() async {
        reading.pinsChangedHere()
        if let pins = try? await staff.pinsEnabledLately() { reading.read(pins: pins, at: clock.now()) }
    }

    // MARK: - Orders

    /// What placing an order did: the order, and the member it was made for (`for 09XXXXXXXX`).
    public struct Placed: Sendable {
        public let order: StoredOrder
        public let mobile: MobileNumber?
    }

    /// Places an order. A `for` name that looks like a mobile number is the member's (the receipt names
    /// them masked; a mistyped number is refused, never taken as a name); apply it with `applyMember`
    /// once the order is printed.
    public func place(_ draft: OrderDraft, by acting: Acting) async throws(TillError) -> Placed {
        var draft = draft
        var mobile: MobileNumber?
        if let name = draft.orderName, MobileNumber.looksLikeOne(name) {
            do { mobile = try MobileNumber(parsing: name) } catch { throw .member(error) }
        }
        if let mobile { draft.orderName = mobile.masked }
        let who = try await authorize(.placeOrder, acting)
        do { return Placed(order: try await orders.place(draft, placedBy: who, member: mobile), mobile: mobile) } catch {
            throw .shop(error)
        }
    }

    /// Changes a line of order `number`; refused once money was taken (`MoneyGuard`).
    public func edit(_ number: OrderNumber, line: Int?, change: LineChangeDraft, by acting: Acting) async throws(TillError)
        -> StoredOrder
    {
        let who = try await authorize(.editOrder, acting)
        let stored = try await find(number)
        try await guarding(.edit, stored, as: number)
        do { return try await orders.edit(stored, as: number, line: line, change: change, by: who) } catch { throw .shop(error) }
    }

    /// Moves order `number` on (placed → preparing → ready → picked up). Handing over a ready order with
    /// money due is refused (`ShopError.dueAtHandover`, nothing written) unless `unpaid` says it goes
    /// unpaid; then who did it and what was due go to the audit trail and the report lists it.
    public func advance(_ number: OrderNumber, unpaid: Bool = false, by acting: Acting) async throws(TillError) -> StoredOrder {
        let who = try await authorize(.advanceOrder, acting)
        do { return try await handOver(number, unpaid: unpaid, by: who) } catch { throw .shop(error) }
    }

    /// What cancelling gave back: the order, and the refunds of what was paid.
    public struct Cancellation: Sendable {
        public let order: StoredOrder
        public let refunds: [Refund]
        /// The invoices voided (F0501) or settled by an allowance (G0401) because their money went back.
        public var invoices: [InvoiceDesk.Settled] = []
        /// Why an invoice could not be settled (the cancel stands; `check --books` names the invoice).
        public var invoiceProblem: String? = nil
    }

    /// Cancels order `number`: a paid one is a void (a manager's action once PINs are set), and everything
    /// paid goes back by the method it came by, recorded with the reason.
    public func cancel(_ number: OrderNumber, reason: String?, by acting: Acting) async throws(TillError) -> Cancellation {
        try await authorize(.cancelOrder, acting)
        let stored = try await findToChange(number)
        try await refusingIfPaidWhileAway(stored, as: number)
        let money = stored.isUnsent ? nil : try await till.moneyForChange(of: stored)
        let kind = MoneyGuard.cancelKind(money: money)
        let who = try await authorize(kind.action, acting)
        let (order, refunds) = try await till.cancel(stored, reason: reason, voiding: false, by: who, money: money)
        return await settlingInvoices(Cancellation(order: order, refunds: refunds), reason: reason ?? "取消", by: who)
    }

    /// Voids order `number` (being made, ready or picked up): kept, not revenue, with who and why;
    /// whatever was paid goes back by the method it came by.
    public func void(_ number: OrderNumber, reason: String, by acting: Acting) async throws(TillError) -> Cancellation {
        let who = try await authorize(.void, acting)
        let stored = try await findToChange(number)
        try await refusingIfPaidWhileAway(stored, as: number)
        let money = stored.isUnsent ? nil : try await till.moneyForChange(of: stored)
        let (order, refunds) = try await till.cancel(stored, reason: reason, voiding: true, by: who, money: money)
        return await settlingInvoices(Cancellation(order: order, refunds: refunds), reason: reason, by: who)
    }

    /// The cancellation with its order's live invoice voided or settled by an allowance, once its money went back.
    private func settlingInvoices(_ cancellation: Cancellation, reason: String, by who: String) async -> Cancellation {
        guard !cancellation.refunds.isEmpty else { return cancellation }
        var result = cancellation
        do { result.invoices = try await invoices.settleReturn(of: cancellation.order, reason: reason, by: who) } catch {
            result.invoiceProblem = error.description
        }
        return result
    }

    /// Order `number`, once it may be deleted: a placed order with no money on record. The front asks
    /// staff to confirm, then calls `delete(_:as:by:)`.
    public func deletable(_ number: OrderNumber, by acting: Acting) async throws(TillError) -> StoredOrder {
        try await authorize(.deleteOrder, acting)
        let stored = try await find(number)
        try await guarding(.delete, stored, as: number)
        guard stored.order.status == .placed else {
            let named = stored.businessDay == clock.today ? stored.number : stored.numberWithDay
            throw .shop(.notDeletable(named ?? number, status: stored.order.status))
        }
        return stored
    }

    /// Deletes an order found by `deletable` for good; `again` looks it up again first (time passed while
    /// staff were asked, and another counter may have started making it or taken money).
    public func delete(_ stored: StoredOrder, as number: OrderNumber, lookingAgain again: Bool, by acting: Acting)
        async throws(TillError) -> StoredOrder
    {
        let who = try await authorize(.deleteOrder, acting)
        let current = again ? try await deletable(number, by: acting) : stored
        let deleted: StoredOrder
        do { deleted = try await orders.delete(current, as: number, by: who) } catch { throw .shop(error) }
        // Stamps a member's order spent on free cups go back to the card.
        try await till.stamps.settle(StampKeeping.Facts(deleted, money: nil, standing: false))
        return deleted
    }

    // MARK: - Money

    /// Takes a payment for order `number`; `tendered` nil takes what is due. Cash needs an open shift
    /// (`DrawerError.noShiftForCash`: open one with `openShift`, then pay again).
    public func pay(_ number: OrderNumber, method: PaymentMethod, tendered: Int?, by acting: Acting) async throws(TillError)
        -> Till.PaymentReceipt
    {
        let who = try await authorize(.takePayment, acting)
        let late = await issueOwedInvoices(by: who)
        // On a remote base, today's order as this counter's copy of the day has it (no read), when it carries the
        // till's copy: the payment's first write answers whether the order is still so (`Till.payOverTheAPI`).
        let stored: StoredOrder
        do {
            if let copy = try await orders.todaysCopy(number), copy.till != nil { stored = copy } else { stored = try await orders.find(number) }
        } catch {
            throw .shop(error)
        }
        if stored.isUnsent { return try await payKept(stored, as: number, method: method, tendered: tendered, acting: acting, who: who) }
        // No money is taken for an invoice that could not be numbered.
        try await invoices.checkNumbersLeft()
        var receipt: Till.PaymentReceipt
        do {
            receipt = try await till.pay(stored, as: number, method: method, tendered: tendered, by: who)
            if method == .cash { await delivery.outbox?.keepShiftOpen(true, at: clock.now()) }
        } catch {
            if case .drawer(.noShiftForCash) = error { await delivery.outbox?.keepShiftOpen(false, at: clock.now()) }
            // Paid already: by this counter a moment ago, when its answer was lost (a server killed mid-payment), so
            // the invoice may never have been issued. It is issued now, from the order as the store has it (the
            // copy may be older than the payment); the refusal stands.
            if case .payment(.alreadyPaid) = error { await issueMissedInvoice(of: (try? await find(number)) ?? stored, by: who) }
            throw error
        }
        receipt.lateInvoices = late
        guard receipt.money.due == 0 else { return receipt }
        do {
            switch try await invoices.issue(for: receipt.order, money: receipt.money, by: who) {
            case .issued(let invoice), .existing(let invoice): receipt.invoice = invoice
            case .none: break
            }
        } catch {
            receipt.invoiceProblem = error.description
            let order = receipt.order
            owedInvoices.withLock { $0[order.orderRef] = .onDay(order.order.pickupNumber, day: order.businessDay.description) }
        }
        return receipt
    }

    /// Applies adjustment codes with counts to order `number` before any payment; a manager's adjustment
    /// needs a manager.
    public func adjust(_ number: OrderNumber, uses: [String: Int], by acting: Acting) async throws(TillError)
        -> (order: StoredOrder, charges: OrderCharges)
    {
        try await authorize(.editOrder, acting)
        let stored = try await find(number)
        let known = try await extras.adjustments()
        for code in uses.keys.sorted() where !known.contains(where: { $0.code == code }) {
            throw .unknownAdjustment(code, known: known.map { "\($0.code) (\($0.name))" })
        }
        if known.contains(where: { uses[$0.code].map { $0 > 0 } == true && $0.needsManager }) {
            try await authorize(.managerAdjustment, acting)
        }
        try await guarding(.adjust, stored, as: number)
        return (stored, try await extras.adjust(stored, uses: uses, known: known))
    }

    /// Records (or with nil clears) the invoice details of order `number`.
    public func invoice(_ number: OrderNumber, _ details: InvoiceDetails?, by acting: Acting) async throws(TillError) {
        try await authorize(.editOrder, acting)
        let stored = try await findToChange(number)
        if stored.isUnsent { return try await keepInvoiceDetails(details, of: stored, as: number) }
        // The invoice is issued by the details as they were: changing them now would leave the order saying one thing
        // and its invoice another.
        if try await invoices.setup() != nil, let live = try await invoicesOf(stored).last(where: \.isLive) {
            throw .einvoice(.detailsAfterInvoice(order: number.description, number: live.number.printed))
        }
        try await extras.setInvoice(details, of: stored)
    }

    // MARK: - Members

    /// What making an order a member's did.
    public struct MemberApplied: Sendable {
        public let member: Member
        public let charges: OrderCharges
        /// Why a pass could not be used, when it could not.
        public let note: String?
    }

    /// Makes `stored` the member's order (stamps, the pass) before any payment.
    public func applyMember(_ mobile: MobileNumber, to stored: StoredOrder, by acting: Acting) async throws(TillError)
        -> MemberApplied
    {
        try await authorize(.placeOrder, acting)
        return try await applying(mobile, to: stored, freeCups: 0)
    }

    /// Redeems `cups` free drinks on member order `number`, before any payment.
    public func redeem(_ number: OrderNumber, cups: Int, by acting: Acting) async throws(TillError)
        -> (order: StoredOrder, applied: MemberApplied)
    {
        try await authorize(.redeemStamps, acting)
        let stored = try await find(number)
        guard let mobile = try await extras.extra(of: stored.orderRef).member else { throw .order(.notAMembersOrder(number)) }
        return (stored, try await applying(mobile, to: stored, freeCups: cups))
    }

    private func applying(_ mobile: MobileNumber, to stored: StoredOrder, freeCups: Int) async throws(TillError) -> MemberApplied {
        let money = stored.isUnsent ? nil : try await till.money(of: stored)
        let (member, charges, note) = try await members.apply(to: stored, mobile: mobile, freeCups: freeCups, money: money)
        return MemberApplied(member: member, charges: charges, note: note)
    }

    /// Sells the pass `name` to a member (collected apart from order payments), with its audit entry (in the
    /// same commit on the embedded store; see `Members.buyPass(_:for:trail:entry:)`).
    public func sellPass(_ name: String, to mobile: MobileNumber, by acting: Acting) async throws(TillError)
        -> (member: Member, pass: PassProduct)
    {
        let who = try await authorize(.sellPass, acting)
        let clock = clock
        return try await members.buyPass(name, for: mobile, trail: audit) { product in
            AuditEntry(at: clock.now(), by: who, action: .sellPass, subject: mobile.masked, detail: "\(product.name) $\(product.price)")
        }
    }

    // MARK: - The menu

    /// What `text` names for `request` on the menu as the store has it now: one thing, or the choices a front
    /// asks staff to pick from (a terminal) or lists in its refusal (one-shot, piped). Never a guess.
    public func menuTarget(_ text: String, for request: MenuControl.Request) async throws(TillError) -> StockLookup {
        try await menuControl.lookup(text, for: request)
    }

    /// Marks a drink, add-on, ingredient or size sold out or back on sale, or changes a drink size's price, on
    /// every counter, the customers' page and the make line, with its audit entry (in the same commit on the
    /// embedded store). `item` is what staff named without doubt (`menuTarget`).
    public func changeMenu(_ item: StockItem, _ request: MenuControl.Request, by acting: Acting) async throws(TillError)
        -> MenuControl.Made
    {
        let action: ShopAction = switch request {
        case .soldOut: .soldOut
        case .restock: .restock
        case .price: .changePrice
        }
        let who = try await authorize(action, acting)
        let clock = clock
        let made = try await menuControl.change(item, request, audit: audit, settings: settings) { $0.auditEntry(by: who, at: clock.now()) }
        if made.drink != nil { await settings.noteMenuChanged() }
        return made
    }

    /// `changeMenu` of what `name` names, only when it names exactly one thing (`StockLookup.found`); anything
    /// else is refused with the choices (`TillError.stock`), nothing changed.
    public func changeMenu(_ name: String, _ request: MenuControl.Request, by acting: Acting) async throws(TillError)
        -> MenuControl.Made
    {
        switch try await menuTarget(name, for: request) {
        case .found(let item): return try await changeMenu(item, request, by: acting)
        case .choose(let items, let exact): throw .stock(.notOneThing(name.trimmingCharacters(in: .whitespaces), choices: items, exact: exact))
        case .notFound(let suggestions): throw .stock(.nothingCalled(name.trimmingCharacters(in: .whitespaces), suggestions: suggestions))
        }
    }

    // MARK: - The drawer

    /// Opens a shift with `float` NT$ in the drawer.
    public func openShift(float: Int, by acting: Acting) async throws(TillError) -> Shift {
        let who = try await authorize(.openShift, acting)
        let shift = try await drawer.open(float: float, by: who)
        await delivery.outbox?.keepShiftOpen(true, at: clock.now())
        return shift
    }

    /// Closes the open shift against the cash counted, with its audit entry (in the same commit on the
    /// embedded store; see `Drawer.close(counted:by:trail:entry:)`).
    public func closeDrawer(counted: Int, by acting: Acting) async throws(TillError) -> DrawerCount {
        let who = try await authorize(.closeDay, acting)
        let clock = clock
        let count = try await drawer.close(counted: counted, by: who, trail: audit) { count in
            AuditEntry(at: clock.now(), by: who, action: .closeDay, subject: "drawer",
                       detail: "expected \(count.expected), counted \(count.counted), \(count.summary)")
        }
        await delivery.outbox?.keepShiftOpen(false, at: clock.now())
        return count
    }

    // MARK: - Audit

    /// Writes an audit entry of a change just made. One policy for every change: an entry that cannot be
    /// written is the command's error (`ShopError.auditNotWritten`, naming what changed), never a warning
    /// that scrolls away. Order changes carry theirs on the order, in the write of the change itself; the
    /// services' changes write theirs with the change (`AuditedChange`); only what cannot share a commit
    /// with its entry (an archived day) comes here after it.
    public func record(_ entry: AuditEntry) async throws(TillError) {
        do { try await audit.record(entry) } catch { throw .shop(.auditNotWritten(entry, error)) }
    }

    func record(_ action: ShopAction, by who: String, subject: String, detail: String) async throws(TillError) {
        try await record(entry(action, by: who, subject: subject, detail: detail))
    }

    /// An audit entry of a change made now.
    func entry(_ action: ShopAction, by who: String, subject: String, detail: String) -> AuditEntry {
        AuditEntry(at: clock.now(), by: who, action: action, subject: subject, detail: detail)
    }

    // MARK: - Helpers

    func find(_ number: OrderNumber) async throws(TillError) -> StoredOrder {
        do { return try await orders.find(number) } catch { throw .shop(error) }
    }

    /// Checks `change` against the order's state and its money (read only for an order the store holds).
    /// The copy on the order decides (over the API it is written ahead of the ledger: it refuses, never lets
    /// through, a change to a paid order).
    private func guarding(_ change: MoneyGuard.Change, _ stored: StoredOrder, as number: OrderNumber) async throws(TillError) {
        let money = stored.isUnsent ? try await keptMoney(of: stored) : try await till.money(of: stored)
        do { try MoneyGuard.check(change, number, status: stored.order.status, money: money) } catch { throw .order(error) }
    }
}
