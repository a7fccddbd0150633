import DrinkShopCore

/// One way the books of a period do not balance (帳不平), found by `Books.check`: which order or shift, the
/// amounts on each side, and what to do about it, in the words staff use at the counter.
public enum BooksDifference: Sendable, Equatable, CustomStringConvertible {
    /// The order's own record (the till's copy) and the payment ledger (`TillPayment`) disagree on what was paid
    /// or refunded. The ledger is the truth; `copy` is what the order shows; `due` what the ledger leaves to pay
    /// (nil for a cancelled order, which takes no payment).
    case copyDisagrees(OrderNumber, copy: TillCopy, ledgerPaid: [PaymentMethod: Int], ledgerRefunded: [PaymentMethod: Int],
                       due: Int?)
    /// The order's record carries a bill that its adjustments and member benefits do not make.
    case billDisagrees(OrderNumber, copyBill: Int, bill: Int)
    /// More refunded by a method than was paid by it.
    case refundExceedsPaid(OrderNumber, method: PaymentMethod, paid: Int, refunded: Int)
    /// A cancelled or voided order still holds money the customer paid: not given back.
    case cancelledNotRefunded(OrderNumber, voided: Bool, held: [PaymentMethod: Int])
    /// An order that is not cancelled has money given back (a cancel that stopped halfway).
    case refundedButKept(OrderNumber, refunded: [PaymentMethod: Int])
    /// The ledger holds more paid for an order than its bill.
    case paidMoreThanBill(OrderNumber, paid: Int, bill: Int)
    /// An order picked up with money due, and no unpaid handover (未付款取餐) in the audit trail.
    case unpaidHandoverNotRecorded(OrderNumber, due: Int)
    /// A cash payment taken while no shift was open: no drawer count includes it.
    case cashOutsideShift(OrderNumber, amount: Int, at: String)
    /// A closed drawer count whose expected cash is not what the ledger makes it.
    case drawerExpectedDiffers(closedBy: String, closedAt: String, recorded: Int, float: Int, cashTaken: Int, cashRefunded: Int)
    /// Money in the ledger for an order the store does not have (deleted, or a row written by hand).
    case moneyWithoutOrder(OrderNumber, refund: Bool, method: PaymentMethod, amount: Int)
    /// A member's order holds stamps on the card that the stamp rule does not give it now (`StampRule`: earned
    /// once paid in full, none on a cancelled order): `held` and `due` are its stamps earned and spent.
    case stampsNotAsPaid(OrderNumber, held: OrderStamps, due: OrderStamps)
    /// An order paid in full (a seller set up) with no live 統一發票: its record lost, or never issued.
    case invoiceMissing(OrderNumber, total: Int)
    /// An order with more than one live invoice (each number printed).
    case invoiceTwice(OrderNumber, invoices: [String])
    /// The order's live invoice is for another amount than its bill.
    case invoiceAmountDiffers(OrderNumber, invoice: String, amount: Int, bill: Int)
    /// A cancelled or voided order that was paid still has a live invoice (neither voided nor an allowance).
    case invoiceLiveOnCancelled(OrderNumber, invoice: String, voided: Bool)
    /// An invoice recorded without its file in Turnkey's folder: `file` is the message (F0401, F0501, G0401).
    case invoiceFileMissing(OrderNumber, invoice: String, file: String)
    /// Numbers of a claimed book below its last issued one that no invoice holds (`numbers`, e.g.
    /// "AB-12345001, AB-12345003–AB-12345004"), in a book whose blanks are not reported yet.
    case invoiceNumbersUnused(book: String, numbers: String)
    /// The report's net sales are not what was paid less refunded plus what is still due.
    case salesDoNotAddUp(netSales: Int, paidLessRefunded: Int, due: Int)
    /// The report's figures for a payment method are not the ledger's.
    case methodDoesNotAddUp(PaymentMethod, reportTaken: Int, reportRefunded: Int, ledgerTaken: Int, ledgerRefunded: Int)

    public var description: String {
        switch self {
        case .copyDisagrees(let number, let copy, let ledgerPaid, let ledgerRefunded, let due):
            return Self.copyText(number, copy: copy, ledgerPaid: ledgerPaid, ledgerRefunded: ledgerRefunded, due: due)
        case .billDisagrees(let number, let copyBill, let bill):
            return "order \(number): the order shows a bill of $\(copyBill), but its adjustments and member benefits make it "
                + "$\(bill) (帳單金額不符); the till goes by $\(bill): look at the order's receipt with staff before taking more"
        case .refundExceedsPaid(let number, let method, let paid, let refunded):
            return "order \(number): $\(refunded) refunded by \(method.label) but only $\(paid) was paid that way "
                + "(退款多於收款): find out who gave the money back and have a manager correct the refund in the ledger"
        case .cancelledNotRefunded(let number, let voided, let held):
            return "order \(number) was \(voided ? "voided" : "cancelled") but \(Self.amounts(held)) paid was never given back "
                + "(已取消未退款): give it back to the customer and have a manager record the refund in the ledger "
                + "(the till records refunds only as it cancels)"
        case .refundedButKept(let number, let refunded):
            return "order \(number) is not cancelled but \(Self.amounts(refunded)) was given back (未取消卻已退款; a cancel that "
                + "stopped halfway): finish it with cancel \(number) REASON, or take the money again"
        case .paidMoreThanBill(let number, let paid, let bill):
            return "order \(number): $\(paid) paid against a bill of $\(bill), $\(paid - bill) too much (溢收): "
                + "give the $\(paid - bill) back to the customer and have a manager record the refund in the ledger"
        case .unpaidHandoverNotRecorded(let number, let due):
            return "order \(number) was picked up with $\(due) still due and no unpaid handover on record (未付款取餐未登記): "
                + "take the $\(due) (pay \(number)) or find out who handed it over"
        case .cashOutsideShift(let number, let amount, let at):
            return "order \(number): $\(amount) cash taken at \(at) while no shift was open (未開班收現金): no drawer count "
                + "includes it; find the cash and put it in the drawer of the next shift"
        case .drawerExpectedDiffers(let closedBy, let closedAt, let recorded, let float, let cashTaken, let cashRefunded):
            let expected = float + cashTaken - cashRefunded
            return "the drawer count closed by \(closedBy) at \(closedAt) says $\(recorded) expected, but the ledger makes it "
                + "$\(expected) (float $\(float) + cash taken $\(cashTaken) − cash refunded $\(cashRefunded)) (錢櫃應有金額不符): "
                + "the over/short recorded with it is off by $\(abs(expected - recorded)); count it again against $\(expected)"
        case .moneyWithoutOrder(let number, let refund, let method, let amount):
            return "a \(refund ? "refund" : "payment") of $\(amount) by \(method.label) is recorded for \(number), but there is "
                + "no such order (有收款紀錄卻沒有訂單): find the order it belongs to; the report leaves it out"
        case .stampsNotAsPaid(let number, let held, let due):
            return "order \(number): the member's card holds \(held.earned) stamps earned and \(held.redeemed) spent for it, but "
                + "\(due.earned) earned and \(due.redeemed) spent are due (集點不符; stamps are earned once an order is paid in full "
                + "and go back when it is cancelled): an earlier version gave stamps when the member was applied, or a "
                + "settling stopped halfway; its next payment, cancel or void puts the card right"
        case .invoiceMissing(let number, let total):
            return "order \(number) is paid in full ($\(total)) but has no invoice (已付款未開發票): its record was lost or never "
                + "written; einvoice issue \(number) issues it"
        case .invoiceTwice(let number, let invoices):
            return "order \(number) has \(invoices.count) live invoices, \(invoices.joined(separator: ", ")) (重複開立發票): one "
                + "stands; have a manager void the others on the e-invoice platform and tell the accountant"
        case .invoiceAmountDiffers(let number, let invoice, let amount, let bill):
            return "order \(number): invoice \(invoice) is for $\(amount) but the bill is $\(bill) (發票金額不符): look at the "
                + "order's receipt with a manager; the invoice must be voided and issued again for $\(bill) on the e-invoice platform"
        case .invoiceLiveOnCancelled(let number, let invoice, let voided):
            return "order \(number) was \(voided ? "voided" : "cancelled") and its money given back, but invoice \(invoice) is "
                + "still live (已取消發票未作廢): the cancel stopped before settling it; have a manager void it (or make its "
                + "allowance) on the e-invoice platform; einvoice status shows the files"
        case .invoiceFileMissing(let number, let invoice, let file):
            return "order \(number): invoice \(invoice) is recorded but its \(file) file is not in Turnkey's folder (發票檔案未寫入): "
                + "einvoice status writes it"
        case .invoiceNumbersUnused(let book, let numbers):
            return "book \(book): \(numbers) unused below its last issued number (發票號碼空號): a counter stopped before "
                + "recording, or an invoice record was deleted; find the order it was for (einvoice issue #N gives a paid order "
                + "its invoice) and report the number blank after the period (einvoice blanks PERIOD)"
        case .salesDoNotAddUp(let netSales, let paidLessRefunded, let due):
            return "the report does not add up (報表不平): net sales $\(netSales), but paid less refunded $\(paidLessRefunded) "
                + "plus still due $\(due) is $\(paidLessRefunded + due); the orders named above explain the $\(paidLessRefunded + due - netSales)"
        case .methodDoesNotAddUp(let method, let reportTaken, let reportRefunded, let ledgerTaken, let ledgerRefunded):
            return "\(method.label): the report has $\(reportTaken) taken and $\(reportRefunded) refunded, the ledger "
                + "$\(ledgerTaken) and $\(ledgerRefunded) (報表與收款紀錄不符); the money named above is missing from the report"
        }
    }

    /// The copy against the ledger, with what to do: a copy ahead of the ledger is a payment that was never
    /// recorded (a crash between the two writes): `pay` goes by the ledger and records it.
    private static func copyText(_ number: OrderNumber, copy: TillCopy, ledgerPaid: [PaymentMethod: Int],
                                 ledgerRefunded: [PaymentMethod: Int], due: Int?) -> String
    {
        let paidInLedger = ledgerPaid.values.reduce(0, +)
        var text = "order \(number): the order shows \(amounts(copy.paidBy)) paid"
        if copy.refunded > 0 || !ledgerRefunded.isEmpty { text += " and \(amounts(copy.refundedBy)) refunded" }
        text += ", the payment ledger \(amounts(ledgerPaid)) paid"
        if copy.refunded > 0 || !ledgerRefunded.isEmpty { text += " and \(amounts(ledgerRefunded)) refunded" }
        if copy.paid > paidInLedger, let due, due > 0 {
            let missing = PaymentMethod.allCases.compactMap { method -> String? in
                let amount = (copy.paidBy[method] ?? 0) - (ledgerPaid[method] ?? 0)
                return amount > 0 ? "pay \(number) \(method.rawValue.lowercased()) \(amount)" : nil
            }
            return text + " (帳上沒有這筆付款): the payment was never recorded (stopped between its two writes); if the "
                + "customer paid, record it: \(missing.joined(separator: ", ")) (the till then goes by the ledger)"
        }
        text += " (訂單與收款紀錄不符): the ledger counts (帳以收款紀錄為準)"
        guard let due else { return text + "; the order was cancelled, so only the ledger's figures matter for it" }
        return text + (due > 0 ? ": $\(due) is still due, and pay \(number) takes only that and puts the order right"
            : ": nothing is due, and pay \(number) (refused as paid) puts the order right")
    }

    /// "$35 (現金 Cash 35)", "$55 (信用卡 Card 50, 悠遊卡 EasyCard 5)", "$0".
    static func amounts(_ byMethod: [PaymentMethod: Int]) -> String {
        let parts = PaymentMethod.allCases.compactMap { method in
            byMethod[method].flatMap { $0 == 0 ? nil : "\(method.label) \($0)" }
        }
        let total = byMethod.values.reduce(0, +)
        return parts.isEmpty ? "$\(total)" : "$\(total) (\(parts.joined(separator: ", ")))"
    }
}
