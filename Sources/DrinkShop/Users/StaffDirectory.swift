import Airtable
import Foundation
import DrinkShopCore
import PinHashing

/// Who works at the counter, kept in the `User` table (the only place that knows its fields).
public struct StaffDirectory: Sendable {
    let store: any RecordStore
    /// How a try is counted (read and written back in one commit where the store allows it) and how a staff
    /// change and its audit entry are written together.
    let commits: any CommitStrategy
    /// How PINs are hashed (tests use fewer iterations).
    let hasher: PINHasher
    /// A remote base's outbox: whether PINs are on is noted there for the next process of this machine, and
    /// the staff as last read, for a time the base cannot be reached.
    let notes: Outbox?
    /// Whether the base is away (then the staff are read from `notes`); nil for a local store.
    let delivery: DeliveryPolicy?
    let now: @Sendable () -> Date
    /// How long a note of whether PINs are on is trusted by a process's first reading (a one-shot command's);
    /// a running counter reads the store again every `Counter.sharedReadingAge`, and while the store cannot
    /// be reached goes by the note whatever its age.
    public static let pinsNoteLifetime: TimeInterval = 30

    init(store: any RecordStore, commits: any CommitStrategy, hasher: PINHasher, delivery: DeliveryPolicy? = nil,
         now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.commits = commits
        self.hasher = hasher
        self.notes = delivery?.outbox
        self.delivery = delivery
        self.now = now
    }

    /// Identifies a staff member at the counter by their name as staff write it (`amy` is `Amy`, full-width
    /// and half-width alike). A name the `User` table does not know yet is added as staff (a new colleague's
    /// first shift) only while no one has a PIN: once PINs are on, only a manager adds staff (`staff add`),
    /// and an unknown name is refused. A customer's name is refused.
    /// - Returns: the user as stored (its name spelt as on the staff list) and whether it was just added.
    func logIn(name: String) async throws(TillError) -> (user: User, isNew: Bool) {
        let user: User
        do { user = try User(name: name, role: .staff) } catch { throw .shop(.name(error)) }
        if let known = try await staffMember(named: user.name) { return (known, false) }
        if try await pinsEnabled() { throw .staff(.unknownWhilePINsAreOn(name: user.name)) }
        try await create(user)
        return (user, true)
    }

    /// The staff member called `name` as staff write it, spelt as stored; nil when nobody is; refused for
    /// a customer's name.
    func staffMember(named name: String) async throws(TillError) -> User? {
        guard let record = try await userRecord(named: name) else { return nil }
        let role = record.fields[UserField.role]?.stringValue.flatMap(UserRole.init(rawValue:)) ?? .staff
        let stored = record.fields[UserField.name]?.stringValue ?? name
        guard role == .staff else { throw .shop(.notStaff(name: stored, role: role)) }
        do { return try User(name: stored, role: .staff) } catch { throw .shop(.name(error)) }
    }

    /// The `User` record whose name matches `name` as staff write it (see `PersonName.matchKey`); an exact
    /// spelling wins over another that only matches.
    func userRecord(named name: String) async throws(TillError) -> Record? {
        let records = try await userRecords()
        let key = PersonName.matchKey(name)
        let matching = records.filter { PersonName.matchKey($0.fields[UserField.name]?.stringValue ?? "") == key }
        return matching.first { $0.fields[UserField.name]?.stringValue == name } ?? matching.first
    }

    private func create(_ user: User) async throws(TillError) {
        do {
            _ = try await store.createRecord(in: ShopSchema.userTable,
                                             Fields([UserField.name: .string(user.name), .role: .string(UserRole.staff.rawValue)]),
                                             options: WriteOptions(typecast: true))
        } catch {
            throw .shop(.store(error))
        }
    }
}
