import Airtable
import DrinkShopCore

/// Everything the shop's services can refuse, with context, and a message a person at the counter
/// understands. Callers decide by case, never by reading the message.
public indirect enum ShopError: Error, Sendable, CustomStringConvertible {
    /// The store failed (unreachable, refused, rate limited, a local file failing…).
    case store(AirtableError)
    /// A record in the store cannot be read as the shop expects; names the table, record and field.
    case storedData(String)
    /// A seed file was refused; nothing was written.
    case seed(SeedError)
    /// The drink named is not on the menu, or is ambiguous.
    case drink(DrinkLookupError, line: Int?)
    /// A drink-shop rule was broken (options, add-ons, hot drinks, sold out…).
    case rule(OrderRuleViolation, drink: String, line: Int?)
    /// A status change that the order's status does not allow.
    case status(OrderStatusError)
    /// The order itself was refused (no lines, a line that does not exist, nothing to change…).
    case order(OrderError)
    /// A name (who the order is for, who placed it, who logs in) was refused.
    case name(PersonNameError)
    /// An order with several drinks was edited without saying which drink.
    case whichLine(OrderNumber, lineCount: Int)
    /// An edit named a drink the order does not have.
    case noSuchLine(OrderNumber, line: Int, lineCount: Int)
    /// The drink of a line has left the menu, so the line cannot be repriced.
    case drinkNoLongerOnMenu(String)
    /// No order with this number today.
    case noSuchOrder(OrderNumber)
    /// The order is not among this counter's unsent orders, and the store that may hold it cannot be reached.
    case notFoundWhileOffline(OrderNumber, AirtableError)
    /// Someone not on the staff tried to log in at the counter.
    case notStaff(name: String, role: UserRole)
    /// No free pickup number was found after this many tries.
    case pickupNumbersExhausted(attempts: Int)
    /// The store lacks tables or fields the shop needs.
    case missingSchema([String])
    /// `#6` matches no order today and open orders #6 of several earlier days; say which.
    case ambiguousOrder(OrderNumber, choices: [OrderNumber])
    /// Only a placed order may be deleted; one being made or handed over is voided.
    case notDeletable(OrderNumber, status: OrderStatus)
    /// An order of an archived day: its records left the base for the archive (`DayArchiver`), which is read only.
    case archivedOrder(OrderNumber, archive: String)
    /// A date that is not `YYYY-MM-DD`.
    case notADay(String)
    /// A range of days that cannot be used.
    case dayRange(BusinessDay, BusinessDay, String)
    /// The change was saved but its audit entry could not be written.
    case auditNotWritten(AuditEntry, ShopError)
    /// The change's audit entry could not be written, so the change was not kept either (one commit on the
    /// embedded store; put back over the API): nothing changed.
    case auditNotWrittenNothingChanged(AuditEntry, ShopError)
    /// Words beside a drink's name that are no option of it.
    case notUnderstood([String], drink: String, line: Int?)
    /// A shared setting (time zone, business-day start) cannot be used.
    case setting(SettingError)
    /// Archiving closed days stopped (see `DayArchiver`).
    case archive(ArchiveError)
    /// Moved on or cancelled at another counter while this one wrote from an older copy; the order now
    /// has `status` again in the store.
    case movedElsewhere(OrderNumber, status: OrderStatus)
    /// Handing over (ready → picked up) an order with money due, without saying it goes unpaid.
    case dueAtHandover(OrderNumber, due: Int)
    /// A payment taken for a kept order while the store was away, refused by the store as the order was sent (cash
    /// with no shift open): the order waits in the outbox and is tried again.
    case keptPaymentRefused(String)
    /// A change to a kept order (an edit, a cancel, a delete, its invoice details) that another counter of this machine
    /// paid while the store was away a moment before: refused in the same commit of the outbox as the check.
    case paidAtThisMachine(OrderNumber)

    public var description: String {
        switch self {
        case .store(let error): return error.description
        case .storedData(let detail): return "unusable data in the store: \(detail)"
        case .seed(let error): return "seed refused, nothing changed: \(error) (匯入失敗，未變更)"
        case .drink(let error, let line): return prefix(line) + error.description
        case .rule(let violation, let drink, let line): return prefix(line) + "\(drink): \(violation)"
        case .status(let error): return error.description
        case .order(let error): return error.description
        case .name(let error): return error.description
        case .whichLine(let number, let count):
            return "order \(number) has \(count) drinks (請指定第幾項); say which: edit \(number) <1-\(count)> …"
        case .noSuchLine(let number, let line, let count):
            return "order \(number) has \(count) drink\(count == 1 ? "" : "s"); there is no drink \(line) (沒有第 \(line) 項)"
        case .drinkNoLongerOnMenu(let name): return "\(name) is no longer on the menu (已下架), so its line cannot be repriced"
        case .noSuchOrder(.onDay(let pickup, let day)): return "there is no order #\(pickup) on \(day) (查無此單)"
        case .noSuchOrder(.pickup(let pickup)):
            return "there is no order #\(pickup) today, nor an open one from an earlier day (查無此單) "
                + "(an earlier day's finished order is named with its day: #\(pickup)@YYYY-MM-DD)"
        case .noSuchOrder(let number): return "there is no order \(number) today (查無此單)"
        case .ambiguousOrder(.provisional(let kept, _), let choices):
            return "more than one order this counter kept is numbered P\(kept) (同號的訂單不只一張): "
                + choices.map(\.description).joined(separator: ", ") + "; say which, with its letter, e.g. \(choices[0])"
        case .ambiguousOrder(let number, let choices):
            return "there is no order \(number) today, and \(choices.count) earlier days left one open: "
                + choices.map(\.description).joined(separator: ", ") + " (同號的訂單不只一張); say which, e.g. \(choices[0])"
        case .archivedOrder(let number, let archive):
            return "order \(number) was moved to the archive with its day (已封存, \(archive)): it can be read (receipt, report, "
                + "orders --date) but not changed; nothing was changed"
        case .notDeletable(let number, let status):
            return "order \(number) is \(status == .pickedUp ? "picked up" : status == .cancelled ? "cancelled" : "being made or ready"); "
                + "only placed orders can be deleted (只有已下單的訂單可以刪除). "
                + (status == .cancelled ? "It is kept for the report." : "Void it instead, with a reason: void \(number) REASON")
        case .notUnderstood(let words, let drink, let line):
            let shown = words.map { "\"\(String($0.prefix(40)))\"" }.joined(separator: ", ")
            return prefix(line) + "\(drink): \(shown) \(words.count == 1 ? "is" : "are") not understood (看不懂). After a drink come: "
                + "a size (" + CupSize.allCases.map(\.rawValue).joined(separator: ", ") + "), "
                + "a sugar (" + SugarLevel.allCases.map(\.rawValue).joined(separator: ", ") + "), "
                + "an ice or temperature (" + IceLevel.allCases.map(\.rawValue).joined(separator: ", ") + "), "
                + "add-ons (" + AddOn.allCases.map { "\($0.rawValue)/\($0.englishLabel)" }.joined(separator: ", ")
                + " +$\(AddOn.price)), xN, note \"…\", for NAME"
        case .auditNotWritten(let entry, let error):
            return "\(entry.subject) was changed, but the audit trail could not record it (\(error)); tell the manager (已變更但未記錄，請告知店長)"
        case .auditNotWrittenNothingChanged(let entry, let error):
            return "\(entry.subject) was not changed: the audit trail could not record it (\(error)); "
                + "try again, or tell the manager (未變更，請重試或告知店長)"
        case .notADay(let text): return "'\(String(text.prefix(40)))' is not a date; give one like 2026-11-30 (日期格式錯誤)"
        case .dayRange(let first, let last, let problem): return "\(first) to \(last): \(problem) (日期範圍有誤)"
        case .notFoundWhileOffline(let number, let error):
            return "order \(number) is not among this counter's unsent orders, and the store cannot be reached (\(error)) (連不上資料庫，找不到這張單)"
        case .notStaff(let name, let role): return "\(name) is a \(role.rawValue), not staff (不是店員)"
        case .pickupNumbersExhausted(let attempts):
            return "could not claim a pickup number after \(attempts) tries (取不到取餐號); is another counter claiming numbers in a loop?"
        case .setting(let error): return error.description
        case .archive(let error): return error.description
        case .paidAtThisMachine(let number):
            return "order \(number) was paid while the store could not be reached (離線已付款), at this machine a moment ago: "
                + "nothing changed; cancel or void it once it is sent"
        case .keptPaymentRefused(let detail):
            return "the payment taken while the store was away could not be recorded: \(detail); the order waits in the outbox "
                + "and is sent again with it (離線收款尚未入帳)"
        case .dueAtHandover(let number, let due):
            return "order \(number) has $\(due) due (未付款): take the payment first (pay \(number) cash), "
                + "or hand it over unpaid with: advance \(number) --unpaid"
        case .movedElsewhere(let number, .cancelled):
            return "order \(number) was cancelled at another counter meanwhile; it stays cancelled (nothing changed) (已在其他櫃台取消)"
        case .movedElsewhere(let number, let status):
            return "order \(number) was moved on at another counter meanwhile: it is \(status.rawValue) (nothing else changed) (已在其他櫃台變更)"
        case .missingSchema(let missing):
            return "the base lacks what the shop needs: " + missing.joined(separator: "; ")
                + " (run `drinkshop setup`) (資料表不齊全)"
        }
    }

    /// Whether this means the store could not be reached (see `AirtableError.isUnreachable`); a local
    /// file failing is not.
    public var isUnreachable: Bool {
        if case .store(let error) = self { return error.isUnreachable }
        return false
    }

    /// Whether the store refused for its rate limit or monthly quota (see `AirtableError.isRateLimited`).
    public var isRateLimited: Bool {
        if case .store(let error) = self { return error.isRateLimited }
        return false
    }

    private func prefix(_ line: Int?) -> String { line.map { "drink \($0): " } ?? "" }
}

extension ShopError {
    /// Wraps an error of the domain (whose throwing functions are untyped) or the store.
    static func wrap(_ error: any Error) -> ShopError {
        switch error {
        case let error as ShopError: return error
        case let error as AirtableError: return .store(error)
        case let error as OrderStatusError: return .status(error)
        case let error as OrderError: return .order(error)
        case let error as PersonNameError: return .name(error)
        case let error as StoredOrderError: return .storedData("\(error)")
        case let error as SeedError: return .seed(error)
        default: return .storedData("\(error)")
        }
    }
}
