import Airtable
import Foundation
import DrinkShopCore
import PinHashing

/// Who works at the counter, kept in the `User` table (the only place that knows its fields).
public struct StaffDirectory: Sendable {
    let store: any RecordStore
    /// How PINs are hashed (tests use fewer iterations).
    let hasher: PINHasher
    /// A remote base's outbox: whether PINs are on is noted there for the next process of this machine.
    let notes: Outbox?
    let now: @Sendable () -> Date
    /// How long a note of whether PINs are on is trusted (as long as a counter trusts its own reading).
    public static let pinsNoteLifetime: TimeInterval = 30

    init(store: any RecordStore, hasher: PINHasher, notes: Outbox? = nil, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.hasher = hasher
        self.notes = notes
        self.now = now
    }

    /// Identifies a staff member at the counter. A name the `User` table does not know yet is added as
    /// staff (a new colleague's first shift); a customer's name is refused.
    /// - Returns: the user and whether it was just added.
    public func logIn(name: String) async throws(ShopError) -> (user: User, isNew: Bool) {
        let user: User
        do { user = try User(name: name, role: .staff) } catch { throw .name(error) }
        let formula = (FormulaExpression.field(UserField.name) == .text(user.name)).description
        let found: [Record]
        do {
            found = try await store.allRecords(in: ShopSchema.userTable, query: ListQuery(filterByFormula: formula))
        } catch {
            throw .store(error)
        }
        if let record = found.first {
            let role = record.fields[UserField.role]?.stringValue.flatMap(UserRole.init(rawValue:)) ?? .staff
            guard role == .staff else { throw .notStaff(name: user.name, role: role) }
            return (user, false)
        }
        do {
            _ = try await store.createRecord(in: ShopSchema.userTable,
                                             Fields([UserField.name: .string(user.name), .role: .string(UserRole.staff.rawValue)]),
                                             options: WriteOptions(typecast: true))
        } catch {
            throw .store(error)
        }
        return (user, true)
    }
}
