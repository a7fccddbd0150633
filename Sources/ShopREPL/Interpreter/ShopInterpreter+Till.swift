import DrinkShop
import DrinkShopCore
import Foundation
import LineEditor

/// The till at the counter: payments, menu control, the drawer, the report and export (staff and PINs:
/// `ShopInterpreter+Staff.swift`).
extension ShopInterpreter {
    func runTill(_ command: TillCommand) async throws {
        switch command {
        case .pay(let number, let method, let amount): try await pay(number, method, amount)
        case .adjust(let number, let uses): try await adjust(number, uses)
        case .invoice(let number, let text): try await invoice(number, text)
        case .soldOut(let drink): try await changeMenu(drink, .soldOut)
        case .restock(let drink): try await changeMenu(drink, .restock)
        case .price(let drink, let size, let price): try await changeMenu(drink, .price(size, price))
        case .staffList: try await listStaff()
        case .staffAdd(let name, let role):
            let who = try await authorize(.staffChanges)
            let (account, isNew) = try await shop.staff.add(name, role: role)
            await audit(.staffChanges, by: who, subject: account.name, detail: isNew ? "added as \(role.rawValue)" : "role \(role.rawValue)")
            say("\(account.name) is \(isNew ? "now on the staff as" : "a") \(account.role.rawValue) (\(account.role.chineseLabel)).\n")
        case .staffPIN(let name): try await setPIN(for: name)
        case .staffNoPIN(let name):
            let who = try await authorize(.staffChanges)
            try await shop.staff.setPIN(nil, for: name)
            pinsEnabledCache = nil
            await audit(.staffChanges, by: who, subject: name, detail: "PIN removed")
            say("\(name) has no PIN now.\n")
        case .staffRemove(let name):
            let who = try await authorize(.staffChanges)
            let account = try await shop.staff.remove(name)
            pinsEnabledCache = nil
            await audit(.staffChanges, by: who, subject: account.name, detail: "removed from the staff")
            say("\(account.name) is no longer on the staff.\n")
        case .shiftShow:
            guard try await shop.drawer.current() != nil else {
                say("No shift is open. Open one with: shift open FLOAT\n")
                return
            }
            let (shift, expected) = try await shop.drawer.expected()
            say("Shift opened by \(shift.openedBy) at \(shop.till.calendar.minuteText(shift.openedAt)) with a float of $\(shift.float); "
                + "the drawer should hold $\(expected).\n")
        case .shiftOpen(let float):
            let who = try await authorize(.openShift)
            let shift = try await shop.drawer.open(float: float, by: who)
            say("Shift open: \(shift.openedBy), float $\(shift.float) in the drawer.\n")
        case .close(let counted, let archive):
            let who = try await authorize(.closeDay)
            let count = try await shop.drawer.close(counted: counted, by: who)
            await audit(.closeDay, by: who, subject: "drawer", detail: "expected \(count.expected), counted \(count.counted), \(count.summary)")
            say(TillView.drawer(count, style: style))
            let period = try shop.till.period(from: "today", to: "today")
            say(TillView.report(try await shop.till.report(period, audit: await auditEntries(period)), period: period,
                                counts: try await shop.drawer.counts(from: period.start, to: period.end), style: style, width: screenWidth))
            try await archiveAfterClose(asked: archive, by: who)
        case .archive(let request): try await runArchive(request)
        case .member(let text):
            let mobile = try mobileNumber(text)
            let member = try await shop.members.member(mobile)
            let program = try await shop.members.program()
            say(member.summary(at: shop.clock.now(), policy: program.stampPolicy, calendar: shop.till.calendar) + "\n")
        case .redeem(let number, let cups):
            let stored = try await shop.orders.find(number)
            guard let mobile = try await shop.extras.extra(of: stored.orderRef).member else {
                throw TillError.refused("order \(number) is not a member's; order `for 09XXXXXXXX` to make it one")
            }
            try await applyMember(stored, mobile: mobile, freeCups: cups)
        case .buyPass(let text, let name):
            let mobile = try mobileNumber(text)
            let who = try await authorize(.sellPass)
            let (member, product) = try await shop.members.buyPass(name, for: mobile)
            await audit(.sellPass, by: who, subject: mobile.masked, detail: "\(product.name) $\(product.price)")
            say("Sold \(product.name) to \(mobile.masked): collect $\(product.price) (pass sales are not order payments). "
                + member.summary(at: shop.clock.now(), policy: nil, calendar: shop.till.calendar) + "\n")
        case .export(let path, let from, let to):
            let period = try shop.till.period(from: from ?? "today", to: to ?? from ?? "today")
            // A day at a time into the files: a month's text is never held whole.
            let files = TillFileWriter(base: path)
            let written: [String]
            do {
                try await shop.till.export(period) { (orders, lines, payments) throws(TillError) in
                    try files.append(orders, lines, payments)
                }
                written = try files.finish()
            } catch {
                files.abandon()
                throw error
            }
            say("Exported \(period.label): " + written.joined(separator: ", ") + " (UTF-8 with BOM, opens in Excel)\n")
        }
    }

    // MARK: - Members

    /// Places an order; one `for 09XXXXXXXX` is the member's (the receipt names them masked).
    func placeOrder(_ draft: OrderDraft) async throws {
        var draft = draft
        var mobile: MobileNumber?
        if let name = draft.orderName, MobileNumber.looksLikeOne(name) {
            // Meant as a member's number: a mistyped one is said, not silently taken as a name.
            do { mobile = try MobileNumber(parsing: name) } catch { throw TillError.member(error) }
        }
        if let mobile { draft.orderName = mobile.masked }
        let who = try await authorize(.placeOrder)
        let stored = try await shop.orders.place(draft, placedBy: who)
        say(OrderView.receipt(stored, title: "Order placed", style: style, reason: shop.delivery.offlineReason, width: screenWidth))
        await printLabels(forNewOrder: stored)
        if let mobile, !stored.isUnsent {
            try await applyMember(stored, mobile: mobile, freeCups: 0)
        }
    }

    private func applyMember(_ stored: StoredOrder, mobile: MobileNumber, freeCups: Int) async throws {
        let paid = try await shop.till.money(of: stored).paid
        let (member, charges, note) = try await shop.members.apply(to: stored, mobile: mobile, freeCups: freeCups, paid: paid)
        let program = try await shop.members.program()
        say(style.paint("會員 " + member.summary(at: shop.clock.now(), policy: program.stampPolicy, calendar: shop.till.calendar), .cyan) + "\n")
        if let note { say(style.paint(note, .yellow) + "\n") }
        if let policy = program.stampPolicy, member.card.rewardsAvailable(policy) > 0, freeCups == 0 {
            say("\(member.card.rewardsAvailable(policy)) free \(policy.rewardSize.rawValue) available: redeem #\(stored.order.pickupNumber)\n")
        }
        if charges.total != stored.order.total || freeCups > 0 {
            say(TillView.bill(stored, charges: charges, style: style))
        }
    }

    private func mobileNumber(_ text: String) throws -> MobileNumber {
        do { return try MobileNumber(parsing: text) } catch { throw TillError.member(error) }
    }

    // MARK: - Money

    /// The bills and payments of `orders` for the order list; empty (no Paid column) when the store
    /// cannot say (offline), with a warning.
    func tillMoney(_ orders: [StoredOrder]) async -> [String: OrderPayments] {
        let sent = orders.filter { !$0.isUnsent && !$0.isForeign }
        guard !sent.isEmpty else { return [:] }
        do {
            return try await shop.till.money(of: sent, days: Array(Set(sent.map(\.businessDay))))
        } catch {
            warn("payments could not be read: \(error)")
            return [:]
        }
    }

    /// The till's report (日結) of `period`, after the day's sales.
    func showTill(_ period: Till.Period) async {
        do {
            let report = try await shop.till.report(period, audit: await auditEntries(period))
            say("\n" + TillView.report(report, period: period, counts: try await shop.drawer.counts(from: period.start, to: period.end),
                                       style: style, width: screenWidth))
        } catch {
            warn("the till report could not be made: \(error)")
        }
    }

    private func pay(_ number: OrderNumber, _ method: PaymentMethod, _ amount: Int?) async throws {
        let who = try await authorize(.takePayment)
        let stored = try await shop.orders.find(number)
        let receipt: Till.PaymentReceipt
        do {
            receipt = try await shop.till.pay(stored, as: number, method: method, tendered: amount, by: who)
        } catch TillError.drawer(.noShiftForCash) {
            // At a terminal the cash payment opens the shift, with the float staff give; elsewhere the
            // refusal says what to do.
            try await openShiftForCash()
            receipt = try await shop.till.pay(stored, as: number, method: method, tendered: amount, by: who)
        }
        say(TillView.payment(receipt, style: style))
    }

    /// No shift is open and cash is being taken: asks the float and opens one (refused where nobody can be
    /// asked, or when no float is given).
    private func openShiftForCash() async throws {
        guard let ask else { throw TillError.drawer(.noShiftForCash) }
        let answer = await ask("No shift is open (未開班). Cash float in the drawer to open one (Enter: take no cash): $")
        let text = (answer ?? "").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw TillError.drawer(.noShiftForCash) }
        guard let float = Int(text), float >= 0 else { throw TillError.drawer(.negativeAmount(field: "float", Int(text) ?? -1)) }
        let who = try await authorize(.openShift)
        let shift = try await shop.drawer.open(float: float, by: who)
        say("Shift opened by \(shift.openedBy) with a float of $\(shift.float) (開班).\n")
    }

    /// `edit #N`: one lookup; an order with money taken is not edited (its total would no longer match what
    /// was paid): void it and place it again. The till decides from what the order carries.
    func edit(_ number: OrderNumber, line: Int?, change: LineChangeDraft) async throws {
        _ = try await authorize(.editOrder)
        let stored = try await shop.orders.find(number)
        if !stored.isUnsent {
            let paid = try await shop.till.money(of: stored).paid
            guard paid == 0 else {
                throw TillError.refused(OrderSuggestions.paidEditRefusal(number, status: stored.order.status, paid: paid))
            }
        }
        let edited = try await shop.orders.edit(stored, as: number, line: line, change: change, by: staff ?? defaultStaff)
        say(OrderView.receipt(edited, title: "Order \(number) changed", style: style, width: screenWidth))
    }

    /// Deleting an order that holds money would lose it from the till: such an order is voided instead.
    func refuseDeletingPaid(_ stored: StoredOrder) async throws {
        guard !stored.isUnsent, let number = stored.number else { return }
        let money = try await shop.till.money(of: stored)
        guard money.paid - money.refunded <= 0 else {
            throw TillError.refused("order \(number) holds $\(money.paid - money.refunded) paid; void it instead (cancel \(number) REASON refunds it)")
        }
        guard money.payments.isEmpty else {
            throw TillError.refused("order \(number) has payments and refunds on record; it stays for the report")
        }
    }

    /// Cancels an order; a paid one is a void: it needs a manager (once PINs are set) and everything paid
    /// goes back by the method it came by, recorded with the reason. One lookup; the till decides from what
    /// the order carries.
    func cancel(_ number: OrderNumber, reason: String?) async throws {
        let before = try await shop.orders.find(number)
        let money = before.isUnsent ? nil : try await shop.till.money(of: before)
        let isVoid = (money?.paid ?? 0) > 0
        let who = try await authorize(isVoid ? .void : .cancelOrder)
        let (stored, refunds) = try await shop.till.cancel(before, reason: reason, voiding: false, by: who, money: money)
        say("\(Self.name(stored, today: shop.clock.today) ?? number.description) cancelled: \(stored.order.cancelReason ?? "")\n")
        sayRefunds(refunds)
    }

    /// `void #N REASON`: an order being made, ready or picked up is kept, not counted as revenue, with who
    /// voided it and why; whatever was paid for it goes back by the method it came by.
    func void(_ number: OrderNumber, reason: String) async throws {
        let who = try await authorize(.void)
        let found = try await shop.orders.find(number)
        let (stored, refunds) = try await shop.till.cancel(found, reason: reason, voiding: true, by: who)
        say("\(Self.name(stored, today: shop.clock.today) ?? number.description) voided by \(stored.order.voidedBy ?? who) "
            + "($\(stored.order.total), not revenue): \(stored.order.cancelReason ?? "")\n")
        sayRefunds(refunds)
    }

    /// The refund side of a void, said at the counter (the till wrote it to the ledger and the audit trail).
    private func sayRefunds(_ refunds: [Refund]) {
        for refund in refunds {
            say(style.paint("Refund $\(refund.amount) by \(refund.method.label) — 退款", .yellow, .bold) + "\n")
        }
    }

    private func adjust(_ number: OrderNumber, _ uses: [String: Int]) async throws {
        let stored = try await shop.orders.find(number)
        let known = try await shop.extras.adjustments()
        for code in uses.keys.sorted() where !known.contains(where: { $0.code == code }) {
            let list = known.map { "\($0.code) (\($0.name))" }.joined(separator: ", ")
            throw TillError.refused("no adjustment \"\(code)\"; " + (known.isEmpty ? "none are seeded (seed a file with \"adjustments\")" : "use \(list)"))
        }
        let needsManager = known.contains { uses[$0.code].map { $0 > 0 } == true && $0.needsManager }
        _ = try await authorize(needsManager ? .managerAdjustment : .editOrder)
        let paid = try await shop.till.money(of: stored).paid
        guard paid == 0 else {
            throw TillError.refused("order \(number) has payments ($\(paid)); adjust before taking payment")
        }
        let charges = try await shop.extras.adjust(stored, uses: uses, known: known)
        say(TillView.bill(stored, charges: charges, style: style))
    }

    private func invoice(_ number: OrderNumber, _ text: String?) async throws {
        let stored = try await shop.orders.find(number)
        var details: InvoiceDetails?
        if let text {
            do { details = try InvoiceDetails(parsing: text) } catch { throw TillError.invoice(error) }
        }
        try await shop.extras.setInvoice(details, of: stored)
        say(details.map { "Order \(number): \($0.description)\n" } ?? "Order \(number): no invoice details.\n")
    }

    // MARK: - Menu

    private func changeMenu(_ drink: String, _ request: MenuControl.Request) async throws {
        let action: ShopAction
        switch request {
        case .soldOut: action = .soldOut
        case .restock: action = .restock
        case .price: action = .changePrice
        }
        let who = try await authorize(action)
        let (change, changed) = try await shop.menuControl.change(drink, request)
        await record(change.auditEntry(by: who, at: shop.clock.now()))
        switch change {
        case .soldOut: say(style.paint("\(changed.name) is sold out (售完) on every counter.", .yellow) + "\n")
        case .restock: say(style.paint("\(changed.name) is back on sale.", .green) + "\n")
        case .price(_, let size, let from, let to):
            say("\(changed.name) \(size.rawValue) \(size.englishLabel): $\(from) → $\(to)\n")
        }
    }

    // MARK: - Audit

    /// Records an audited action in the shop's audit trail.
    func audit(_ action: ShopAction, by who: String, subject: String, detail: String) async {
        await record(AuditEntry(at: shop.clock.now(), by: who, action: action, subject: subject, detail: detail))
    }

    /// Writes `entry` to the audit trail. The change itself is already made, so a trail that cannot be
    /// written is said loudly rather than undoing it.
    func record(_ entry: AuditEntry) async {
        do { try await shop.audit.record(entry) } catch {
            warn("the audit trail could not record \(AuditView.label(entry.action)) \(entry.subject): \(error)")
        }
    }

    /// The audit trail of a report's period (none, with a warning, when it cannot be read).
    func auditEntries(_ period: Till.Period) async -> [AuditEntry] {
        do { return try await shop.audit.entries(fromDay: period.from, throughDay: period.to) } catch {
            warn("the audit trail could not be read: \(error)")
            return []
        }
    }
}
