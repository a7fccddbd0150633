import DrinkShopCore
import Airtable
import AirtableFormula

/// A field of one of the shop's tables, named once. `ShopSchema` declares each table from these cases,
/// and the table's repository reads and writes cells only through them, so a name typed wrong does not
/// compile and a field cannot be declared in one place and spelled differently in another.
public protocol ShopField: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

/// `Drink`: the menu (KEBUKE's fields first).
public enum DrinkField: String, ShopField {
    case name, englishName, description, category, medium, large, image, hotAvailable, soldOut
    /// The ingredients the drink is made with, one a line (白玉): when one runs out, so does the drink.
    case contains
}

/// `OrderDrink`: one record per order line (KEBUKE's fields first, the shop's beside them).
public enum OrderField: String, ShopField {
    case drinkName, size, ice, sugar, addOns, price, orderName, numberOfCups, imageUrl
    case status, pickupNumber, businessDay, orderRef, ref, line, unitPrice, discount, promotion, note, placedBy
    case cancelReason, voidedBy
    /// When the order reached each step, written by the write that moves it there. Each step has its own
    /// field, so a counter that moves an order on with a stale copy still sees, in the write's answer,
    /// the steps other counters took (see `OrderDesk.advance`).
    case preparingAt, readyAt, pickedUpAt

    /// The till's copy on the order (`TillCopy`): NT$ paid and refunded, by method, and the bill when the
    /// till's adjustments or member benefits change it; so deciding about an order needs no other read.
    case paid, refunded, paidBy, refundedBy, bill
    /// The order's own audit entries (edit, cancel, void), one JSON object a line, written in the same
    /// request as the change; see `OrderAuditCell`.
    case audit
    /// The provisional number (`P1` is 1) a counter gave the order while the store could not be reached,
    /// written when it is sent: its cup says A-P1, so the pickup screen shows `A-P1 → 47`.
    case provisionalNumber
    /// The letter of the counter that kept it (`A` for `A-P1`; see `CounterLetters`), beside `provisionalNumber`;
    /// empty on an order an earlier version kept (`P1`).
    case provisionalCounter

    /// The field that records when an order reached `status` (nil for placed and cancelled).
    static func reached(_ status: OrderStatus) -> OrderField? {
        switch status {
        case .preparing: .preparingAt
        case .ready: .readyAt
        case .pickedUp: .pickedUpAt
        case .placed, .cancelled: nil
        }
    }
}

/// `User`: staff and customers.
public enum UserField: String, ShopField {
    case name, role
    /// The till's role (staff or manager); `role` stays KEBUKE's staff/customer/guest.
    case staffRole
    /// A PBKDF2 hash of the PIN (never the PIN); empty when the person has none.
    case pinHash
    /// Wrong PINs in a row, and the lock they earned, kept so a restart does not reset them.
    case failedLogins, lockedUntil
}

/// `Promotion`: promotions and banners.
public enum PromotionField: String, ShopField {
    case name, kind, percent, category, drink, startsAt, endsAt, banner
}

/// `PickupTicket` (and the outbox's `OutboxTicket`): one record per claimed number.
public enum TicketField: String, ShopField {
    case key, businessDay, number
}

/// `CounterLetter`: one record per letter a counter claimed for its kept orders; see `CounterLetters`.
public enum CounterLetterField: String, ShopField {
    /// The letter (`A`), and its place in the order letters are claimed in (1 for `A`): the number is what
    /// the claim rule compares (`PickupNumbers.outcome` reads a record's `number`).
    case letter, number
    /// Where the counter keeps its outbox, so a manager can tell which counter has which letter.
    case counter
}

/// `AuditLog`: one record per entry of the audit trail (who did what to what, when); see `AuditTrail`.
public enum AuditField: String, ShopField {
    case at, by, action, subject, detail, businessDay
    /// Made by the writer, so a write retried after a lost answer never records an entry twice.
    case key
}

/// `Setting`: the store's settings every counter shares, one record per key; see `ShopSettings`.
public enum SettingField: String, ShopField {
    case key, value
}

extension Dictionary where Key == String, Value == JSONValue {
    /// The cell of a shop field.
    subscript<Field: ShopField>(_ field: Field) -> JSONValue? {
        get { self[field.rawValue] }
        set { self[field.rawValue] = newValue }
    }

    /// Cells keyed by shop fields.
    init<Field: ShopField>(_ cells: KeyValuePairs<Field, JSONValue>) {
        // Made at its full size at once (an order line has two dozen cells); a field named twice keeps its last.
        self.init(minimumCapacity: cells.count)
        for (field, value) in cells { self[field.rawValue] = value }
    }
}

extension FormulaExpression {
    /// `{field}` of a shop field; formulas are built from these with the expression operators.
    static func field<Field: ShopField>(_ field: Field) -> FormulaExpression { .field(field.rawValue) }
}

extension FieldSpec {
    /// The declaration of a shop field.
    init<Field: ShopField>(_ field: Field, _ type: FieldType, description: String? = nil, options: JSONValue? = nil) {
        self.init(name: field.rawValue, type: type, description: description, options: options)
    }
}
