import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import LineEditor

/// The till at the counter: payments, menu control, the drawer, the report and export (staff and PINs:
/// `ShopInterpreter+Staff.swift`).
extension ShopInterpreter {
    func addStaff(_ name: String, role: StaffRole) async throws {
        let (account, isNew) = try await shop.counter.addStaff(name, role: role, by: try await acting())
        say("\(account.name) is \(isNew ? "now on the staff as" : "a") \(account.role.rawValue) (\(account.role.chineseLabel)).\n")
    }

    func removePIN(for name: String) async throws {
        let account = try await shop.counter.setPIN(nil, for: name, by: try await acting())
        say("\(account.name) has no PIN now.\n")
    }

    func removeStaff(_ name: String) async throws {
        let account = try await shop.counter.removeStaff(name, by: try await acting())
        say("\(account.name) is no longer on the staff.\n")
    }

    func showShift() async throws {
        guard try await shop.drawer.current() != nil else {
            say("No shift is open. Open one with: shift open FLOAT\n")
            return
        }
        let (shift, expected) = try await shop.drawer.expected()
        say("Shift opened by \(shift.openedBy) at \(shop.till.calendar.minuteText(shift.openedAt)) with a float of $\(shift.float); "
            + "the drawer should hold $\(expected).\n")
    }

    func openShift(float: Int) async throws {
        let shift = try await shop.counter.openShift(float: float, by: try await acting())
        say("Shift open: \(shift.openedBy), float $\(shift.float) in the drawer.\n")
    }

    /// `close COUNTED`: the drawer's count and the day's till report; then the archive and the backup, if set.
    func closeDrawer(counted: Int, archive: Bool) async throws {
        let acting = try await acting()
        let count = try await shop.counter.closeDrawer(counted: counted, by: acting)
        say(TillView.drawer(count, style: style))
        let period = try shop.till.period(from: "today", to: "today")
        say(TillView.report(try await shop.till.report(period, audit: await auditEntries(period)), period: period,
                            counts: try await shop.drawer.counts(from: period.start, to: period.end), style: style, width: screenWidth))
        try await archiveAfterClose(asked: archive, by: acting)
        if let afterClose, let line = await afterClose() { say(line + "\n") }
    }

    func showMember(_ text: String) async throws {
        let mobile = try mobileNumber(text)
        let member = try await shop.members.member(mobile)
        let program = try await shop.members.program()
        say(member.summary(at: shop.clock.now(), policy: program.stampPolicy, calendar: shop.till.calendar) + "\n")
    }

    func redeem(_ number: OrderNumber, cups: Int) async throws {
        let (stored, applied) = try await shop.counter.redeem(number, cups: cups, by: try await acting())
        try await sayMember(applied, of: stored, freeCups: cups)
    }

    func sellPass(_ name: String, to text: String) async throws {
        let mobile = try mobileNumber(text)
        let (member, product) = try await shop.counter.sellPass(name, to: mobile, by: try await acting())
        say("Sold \(product.name) to \(mobile.masked): collect $\(product.price) (pass sales are not order payments). "
            + member.summary(at: shop.clock.now(), policy: nil, calendar: shop.till.calendar, showingStamps: false) + "\n")
    }

    func export(path: String, from: String?, to: String?) async throws {
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

    // MARK: - Members

    /// Places an order; one `for 09XXXXXXXX` is the member's (the receipt names them masked).
    func placeOrder(_ draft: OrderDraft) async throws {
        let acting = try await acting()
        let placed = try await shop.counter.place(draft, by: acting)
        let stored = placed.order
        say(OrderView.receipt(stored, title: "Order placed", style: style, reason: shop.delivery.offlineReason, width: screenWidth))
        await printLabels(forNewOrder: stored)
        guard let mobile = placed.mobile else { return }
        if stored.isUnsent {
            say(style.paint("會員 \(mobile.masked): kept with the order; stamps and passes apply once it is sent "
                + "(送出後累點)", .cyan) + "\n")
        } else {
            try await sayMember(try await shop.counter.applyMember(mobile, to: stored, by: acting), of: stored, freeCups: 0)
        }
    }

    /// What making an order a member's did, said at the counter.
    private func sayMember(_ applied: Counter.MemberApplied, of stored: StoredOrder, freeCups: Int) async throws {
        let member = applied.member
        let program = try await shop.members.program()
        say(style.paint("會員 " + member.summary(at: shop.clock.now(), policy: program.stampPolicy, calendar: shop.till.calendar), .cyan) + "\n")
        if let note = applied.note { say(style.paint(note, .yellow) + "\n") }
        if let policy = program.stampPolicy, member.card.rewardsAvailable(policy) > 0, freeCups == 0 {
            say("\(member.card.rewardsAvailable(policy)) free \(policy.rewardSize.rawValue) available: redeem #\(stored.order.pickupNumber)\n")
        }
        if applied.charges.total != stored.order.total || freeCups > 0 {
            say(TillView.bill(stored, charges: applied.charges, style: style))
        }
    }

    private func mobileNumber(_ text: String) throws -> MobileNumber {
        do { return try MobileNumber(parsing: text) } catch { throw TillError.member(error) }
    }

    // MARK: - Money

    /// The bills and payments of `orders` for the order list; empty (no Paid column) when the store
    /// cannot say (offline), with a warning.
    func tillMoney(_ orders: [StoredOrder]) async -> [String: OrderPayments] {
        // Kept orders paid while the store was away: from the outbox.
        var kept: [String: OrderPayments] = [:]
        for order in orders where order.isUnsent {
            if let money = try? await shop.counter.keptMoney(of: order) { kept[order.orderRef] = money }
        }
        let sent = orders.filter { !$0.isUnsent && !$0.isForeign }
        guard !sent.isEmpty else { return kept }
        do {
            return try await shop.till.money(of: sent, days: Array(Set(sent.map(\.businessDay)))).merging(kept) { $1 }
        } catch {
            warn("payments could not be read: \(error)")
            return [:]
        }
    }

    /// The till's report (日結) of `period`, after the day's sales.
    func showTill(_ period: Till.Period, report known: TillReport? = nil) async {
        do {
            let report = if let known { known } else { try await shop.till.report(period, audit: await auditEntries(period)) }
            say("\n" + TillView.report(report, period: period, counts: try await shop.drawer.counts(from: period.start, to: period.end),
                                       style: style, width: screenWidth))
        } catch {
            warn("the till report could not be made: \(error)")
        }
    }

    func pay(_ number: OrderNumber, _ method: PaymentMethod, _ amount: Int?) async throws {
        let acting = try await acting()
        let receipt: Till.PaymentReceipt
        do {
            receipt = try await shop.counter.pay(number, method: method, tendered: amount, by: acting)
        } catch TillError.drawer(.noShiftForCash) {
            // At a terminal the cash payment opens the shift, with the float staff give; elsewhere the
            // refusal says what to do.
            try await openShiftForCash(by: acting)
            receipt = try await shop.counter.pay(number, method: method, tendered: amount, by: acting)
        }
        say(TillView.payment(receipt, style: style))
        if let invoice = receipt.invoice { await warnIfInvoiceNumbersLow(after: invoice) }
    }

    /// No shift is open and cash is being taken: asks the float and opens one (refused where nobody can be
    /// asked, or when no float is given).
    private func openShiftForCash(by acting: Acting) async throws {
        guard let ask = prompter.ask else { throw TillError.drawer(.noShiftForCash) }
        let answer = await ask("No shift is open (未開班). Cash float in the drawer to open one (Enter: take no cash): $")
        let text = (answer ?? "").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw TillError.drawer(.noShiftForCash) }
        guard let float = Int(text), float >= 0 else { throw TillError.drawer(.negativeAmount(field: "float", Int(text) ?? -1)) }
        let shift = try await shop.counter.openShift(float: float, by: acting)
        say("Shift opened by \(shift.openedBy) with a float of $\(shift.float) (開班).\n")
    }

    /// `edit #N`: refused once money was taken (the counter's `MoneyGuard` says what to do instead).
    func edit(_ number: OrderNumber, line: Int?, change: LineChangeDraft) async throws {
        let edited = try await shop.counter.edit(number, line: line, change: change, by: try await acting())
        say(OrderView.receipt(edited, title: "Order \(number) changed", style: style, width: screenWidth))
    }

    /// Cancels an order; a paid one is a void (a manager's once PINs are set) and everything paid goes back
    /// by the method it came by.
    func cancel(_ number: OrderNumber, reason: String?) async throws {
        let done = try await shop.counter.cancel(number, reason: reason, by: try await acting())
        say("\(Self.name(done.order, today: shop.clock.today) ?? number.description) cancelled: \(done.order.order.cancelReason ?? "")\n")
        sayRefunds(done.refunds)
        sayInvoices(done)
    }

    /// `void #N REASON`: an order being made, ready or picked up is kept, not counted as revenue, with who
    /// voided it and why; whatever was paid for it goes back by the method it came by.
    func void(_ number: OrderNumber, reason: String) async throws {
        let acting = try await acting()
        let done = try await shop.counter.void(number, reason: reason, by: acting)
        let stored = done.order
        say("\(Self.name(stored, today: shop.clock.today) ?? number.description) voided by \(stored.order.voidedBy ?? acting.name) "
            + "($\(stored.order.total), not revenue): \(stored.order.cancelReason ?? "")\n")
        sayRefunds(done.refunds)
        sayInvoices(done)
    }

    /// What became of the order's invoice when its money went back.
    private func sayInvoices(_ done: Counter.Cancellation) {
        for settled in done.invoices {
            switch settled.settlement {
            case .void:
                say("Invoice \(settled.invoice.number.printed) voided (發票作廢, F0501).\n")
            case .allowance:
                say("Invoice \(settled.invoice.number.printed) is past its period's void deadline: allowance "
                    + "\(settled.invoice.allowanceNumber ?? "") of $\(settled.invoice.amounts.totalAmount) (折讓, G0401).\n")
            }
        }
        if let problem = done.invoiceProblem { warn("the invoice could not be voided (發票未作廢): \(problem)") }
    }

    /// The refund side of a void, said at the counter (the till wrote it to the ledger and the audit trail).
    private func sayRefunds(_ refunds: [Refund]) {
        for refund in refunds {
            say(style.paint("Refund $\(refund.amount) by \(refund.method.label) — 退款", .yellow, .bold) + "\n")
        }
    }

    func adjust(_ number: OrderNumber, _ uses: [String: Int]) async throws {
        let (stored, charges) = try await shop.counter.adjust(number, uses: uses, by: try await acting())
        say(TillView.bill(stored, charges: charges, style: style))
    }

    func invoice(_ number: OrderNumber, _ text: String?) async throws {
        var details: InvoiceDetails?
        if let text {
            do { details = try InvoiceDetails(parsing: text) } catch { throw TillError.invoice(error) }
        }
        try await shop.counter.invoice(number, details, by: try await acting())
        say(details.map { "Order \(number): \($0.description)\n" } ?? "Order \(number): no invoice details.\n")
    }

    // MARK: - Menu

    /// `soldout`, `restock`, `price`: a name that says exactly one thing is acted on; one that names several things
    /// or only part of a name is asked about at a terminal (a number picks one; anything else changes nothing), and
    /// refused with the choices listed where nobody can be asked (one-shot, piped). Never a guess.
    func changeMenu(_ name: String, _ request: MenuControl.Request) async throws {
        let acting = try await acting()
        let item: StockItem
        switch try await shop.counter.menuTarget(name, for: request) {
        case .found(let found): item = found
        case .notFound(let suggestions): throw TillError.stock(.nothingCalled(name, suggestions: suggestions))
        case .choose(let choices, let exact):
            guard let ask = prompter.ask else { throw TillError.stock(.notOneThing(name, choices: choices, exact: exact)) }
            var question = exact ? "\"\(name)\" names more than one thing (不只一個):\n" : "\"\(name)\" is only part of a name (名稱不完整):\n"
            for (index, choice) in choices.enumerated() { question += "  \(index + 1)  \(choice.choiceLabel)\n" }
            question += "Which one? [1-\(choices.count), Enter: none] "
            guard let answer = await ask(question), let number = Int(answer.trimmingCharacters(in: .whitespaces)),
                  choices.indices.contains(number - 1) else {
                say("Nothing changed (未變更).\n")
                return
            }
            item = choices[number - 1]
        }
        let made = try await shop.counter.changeMenu(item, request, by: acting)
        let name = made.drink?.name ?? item.name
        let along = made.along.isEmpty ? "" : " With it: \(made.along.joined(separator: ", "))."
        switch made.change {
        case .soldOut, .item(_, soldOut: true):
            say(style.paint("\(name) is sold out (售完) on every counter.\(along)", .yellow) + "\n")
        case .restock, .item(_, soldOut: false):
            say(style.paint("\(name) is back on sale (恢復供應).\(along)", .green) + "\n")
        case .price(_, let size, let from, let to):
            say("\(name) \(size.rawValue) \(size.englishLabel): $\(from) → $\(to)\n")
        }
    }

    // MARK: - Audit

    /// The audit trail of a report's period (none, with a warning, when it cannot be read).
    func auditEntries(_ period: Till.Period) async -> [AuditEntry] {
        do { return try await shop.audit.entries(fromDay: period.from, throughDay: period.to) } catch {
            warn("the audit trail could not be read: \(error)")
            return []
        }
    }
}
