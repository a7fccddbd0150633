import DrinkShopCore

/// What the till's services refuse (payments, menu control, staff, the drawer, members), with a message
/// for the person at the counter. Nothing was written when one of these is thrown.
public enum TillError: Error, Sendable, CustomStringConvertible {
    /// The store or the order desk refused.
    case shop(ShopError)
    case payment(PaymentError)
    case menu(MenuChangeError)
    /// A manager's name that names no one thing on the menu (several, only part of a name, or nothing): nothing
    /// was changed.
    case stock(StockLookupError)
    case drawer(DrawerError)
    case access(AccessError)
    case login(LoginError)
    case pin(PINError)
    case staff(StaffError)
    case member(MemberError)
    case invoice(InvoiceDetailsError)
    /// The e-invoice (統一發票) the till issues.
    case einvoice(InvoiceDeskError)
    case charge(ChargeError)
    /// An order kept on this counter (not yet sent) has no pickup number to pay against.
    case unsentOrder(OrderNumber)
    /// What a counter cannot do for a kept order while the store is away (`whileAway`), or for one paid so.
    case keptOrder(KeptOrderRefusal)
    /// Nobody by that name works here.
    case noSuchStaff(String)
    /// A PIN is needed and there was no way to ask for it.
    case pinRequired(name: String, hint: String)
    /// A new PIN for `name` was to be set where nobody can type it twice unseen and none was given: the
    /// login's own PIN is never taken for it.
    case newPINNotGiven(name: String, hint: String)
    /// A date or range that could not be read.
    case badDate(String)
    /// What an order's state and money do not allow (`MoneyGuard`).
    case order(OrderRefusal)
    /// An adjustment code nobody seeded; `known` lists the seeded ones as "code (name)".
    case unknownAdjustment(String, known: [String])
    /// Free drinks asked for where no stamp card is seeded.
    case noStampCard
    /// A pass nobody seeded; `known` lists the seeded ones.
    case noSuchPass(String, known: [String])
    /// A period whose first day is after its last.
    case periodReversed(first: BusinessDay, last: BusinessDay)
    /// A file of an export could not be written (nothing of the export is left in its place).
    case exportNotWritten(path: String, reason: String)
    /// The order was cancelled at another counter while this payment was taken: the payment is recorded
    /// and given straight back (`refunds`).
    case paidWhileCancelled(order: Int, refunds: [Refund])
    /// Archiving stopped; what was archived stays archived. `afterClose`: the drawer count is recorded.
    case archiveStopped(ShopError, afterClose: Bool)

    public var description: String {
        switch self {
        case .shop(let error): return error.description
        case .payment(let error): return "payment refused, nothing recorded: \(error)"
        case .menu(let error): return error.description
        case .stock(let error): return error.description
        case .drawer(let error): return error.description
        case .access(let error): return error.description
        case .login(let error): return error.description
        case .pin(let error): return error.description
        case .staff(let error): return error.description
        case .member(let error): return error.description
        case .invoice(let error): return error.description
        case .einvoice(let error): return error.description
        case .charge(let error): return error.description
        case .unsentOrder(let number):
            return "order \(number) has not reached the store yet (尚未送出); take payment once it has a pickup number"
        case .keptOrder(let refusal): return refusal.description
        case .noSuchStaff(let name): return "nobody called \(name) is on the staff (沒有這位店員)"
        case .pinRequired(let name, let hint): return "\(name) has a PIN (需輸入 PIN): \(hint)"
        case .newPINNotGiven(let name, let hint): return "no new PIN for \(name) was given (未輸入新 PIN); nothing changed: \(hint)"
        case .badDate(let text): return "\"\(text)\" is not a date like 2026-12-01 (or today, yesterday) (日期格式錯誤)"
        case .order(let refusal): return refusal.description
        case .unknownAdjustment(let code, let known):
            return "no adjustment \"\(code)\" (沒有這個折讓); "
                + (known.isEmpty ? "none are seeded (seed a file with \"adjustments\")" : "use \(known.joined(separator: ", "))")
        case .noStampCard: return "no stamp card is set up (未設定集點卡; seed a file with \"stampCard\")"
        case .noSuchPass(let name, let known):
            return "no pass \"\(name)\" (沒有這種卡)"
                + (known.isEmpty ? "; none are set up (seed a file with \"passes\")" : "; passes: \(known.joined(separator: ", "))")
        case .periodReversed(let first, let last): return "\(first) is after \(last); give the earlier day first (日期前後顛倒)"
        case .exportNotWritten(let path, let reason): return "could not write \(path): \(reason); nothing was exported (未匯出)"
        case .paidWhileCancelled(let order, let refunds):
            let given = refunds.map { "$\($0.amount) by \($0.method.label)" }.joined(separator: ", ")
            return "order #\(order) was cancelled at another counter while this payment was taken: it is recorded and "
                + "refunded at once (\(given.isEmpty ? "nothing to give back" : given)); give it back to the customer (已取消，請退款)"
        case .archiveStopped(let error, let afterClose):
            return (afterClose ? "the drawer count is recorded, but archiving stopped: " : "archiving stopped: ")
                + "\(error); what was archived stays archived, run archive now again to finish (封存未完成)"
        }
    }
}
