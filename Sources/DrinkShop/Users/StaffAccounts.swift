import Airtable
import DrinkShopCore
import Foundation
import PinHashing

/// A staff member as the till sees them: role, whether a PIN is set, and the failed tries.
public struct StaffAccount: Sendable, Equatable {
    public let name: String
    public let role: StaffRole
    public let hasPIN: Bool
    public let attempts: LoginAttempts
    let recordID: String
    let pinHash: String?
}

/// Roles and PINs, in the `User` table's `staffRole`, `pinHash`, `failedLogins` and `lockedUntil` fields
/// (`role` stays the KEBUKE app's staff/customer/guest). PINs are kept only as PBKDF2 hashes; hashing and
/// verifying run on a thread of their own, never on the cooperative pool. Failed tries are written to the
/// store, so a restart does not reset a lockout.
extension StaffDirectory {
    /// Everyone on the staff, by name.
    public func accounts() async throws(TillError) -> [StaffAccount] {
        let records = try await userRecords()
        return records.compactMap(Self.account(from:)).sorted { $0.name < $1.name }
    }

    /// The staff member called `name`, as staff write it (`amy` is `Amy`).
    public func account(named name: String) async throws(TillError) -> StaffAccount {
        guard let record = try await userRecord(named: name.trimmingCharacters(in: .whitespaces)),
              let account = Self.account(from: record)
        else { throw .noSuchStaff(name) }
        return account
    }

    /// Whether anyone has a PIN (then roles are enforced and someone must log in), read from the store.
    public func pinsEnabled() async throws(TillError) -> Bool {
        let enabled = try await accounts().contains { $0.hasPIN }
        await notes?.keepPinsEnabled(enabled, at: now())
        return enabled
    }

    /// `pinsEnabled`, or what a process of this machine read less than `pinsNoteLifetime` seconds ago (so a
    /// one-shot command on a remote base spends no request on it); never for deciding a PIN change.
    public func pinsEnabledLately() async throws(TillError) -> Bool {
        if let kept = await notes?.keptPinsEnabled(at: now(), within: StaffDirectory.pinsNoteLifetime) { return kept }
        return try await pinsEnabled()
    }

    /// Adds a staff member with `role`, or changes the role of one already on the staff.
    /// - Returns: the account, and whether it was new.
    func add(_ name: String, role: StaffRole) async throws(TillError) -> (StaffAccount, Bool) {
        try await add(name, role: role, trail: nil) { _, _ in nil }
    }

    /// `add`, with the audit entry `entry` makes of the name as stored and whether it is new, written with
    /// the change as `AuditedChange` says: one commit on the embedded store; over the API the change is
    /// put back (the new record deleted, the old role written again) when the entry cannot be written.
    func add(_ name: String, role: StaffRole, trail: AuditTrail?,
             entry: @escaping @Sendable (_ name: String, _ isNew: Bool) -> AuditEntry?) async throws(TillError) -> (StaffAccount, Bool)
    {
        let user: User
        do { user = try User(name: name, role: .staff) } catch { throw .shop(.name(error)) }
        let table = ShopSchema.userTable
        let change: AuditedChange<[Record]>
        let stored: String
        let isNew: Bool
        if let known = try await staffMember(named: user.name), let record = try await userRecord(named: known.name),
           let account = Self.account(from: record)
        {
            (stored, isNew) = (account.name, false)
            let before = record.fields[UserField.staffRole] ?? .null
            change = AuditedChange(
                account.role == role ? [] : [.update(table: table, id: account.recordID, Fields([UserField.staffRole: .string(role.rawValue)]))],
                to: store, undo: { _ in [.update(table: table, id: account.recordID, Fields([UserField.staffRole: before]))] })
        } else {
            (stored, isNew) = (user.name, true)
            var cells = Fields([UserField.name: .string(user.name), .role: .string(UserRole.staff.rawValue)])
            if role != .staff { cells[UserField.staffRole] = .string(role.rawValue) }
            change = AuditedChange([.create(table: table, cells)], to: store,
                                   undo: { written in written.prefix(1).map { RecordWrite.delete(table: table, ids: [$0.id]) } })
        }
        do { _ = try await change.write(with: commits, trail: trail) { _ in entry(stored, isNew).map { [$0] } ?? [] } } catch {
            throw .shop(error)
        }
        return (try await self.account(named: stored), isNew)
    }

    /// Sets (or with nil, removes) `name`'s PIN. The first PIN of a shop must be a manager's, so someone
    /// can still manage the staff once PINs are enforced.
    func setPIN(_ pin: PIN?, for name: String) async throws(TillError) {
        try await setPIN(pin, for: name, trail: nil, entry: nil)
    }

    /// `setPIN`, with the audit entry `entry`, written with the change as `AuditedChange` says: one commit
    /// on the embedded store; over the API the PIN and tries as they were are written again when the entry
    /// cannot be written.
    func setPIN(_ pin: PIN?, for name: String, trail: AuditTrail?, entry: AuditEntry?) async throws(TillError) {
        let account = try await account(named: name)
        let cells: Fields
        if let pin {
            if account.role != .manager, try await !pinsEnabled() {
                throw .staff(.firstPINMustBeAManagers(name: account.name))
            }
            let hash = try await Self.hashing { () throws(PINHashError) -> String in try await hasher.hashOffThePool(pin.secret) }
            cells = Fields([UserField.pinHash: .string(hash), .failedLogins: .int(0), .lockedUntil: .null])
        } else {
            let others = try await accounts().filter { $0.hasPIN && $0.name != account.name }
            if account.role == .manager, !others.isEmpty, !others.contains(where: { $0.role == .manager }) {
                throw .staff(.lastManager(name: account.name))
            }
            cells = Fields([UserField.pinHash: .null, .failedLogins: .int(0), .lockedUntil: .null])
        }
        let before = Fields([
            UserField.pinHash: account.pinHash.map(JSONValue.string) ?? .null, .failedLogins: .int(account.attempts.failures),
            .lockedUntil: account.attempts.lockedUntil.map { .string(AirtableTimestamp.format($0)) } ?? .null,
        ])
        let table = ShopSchema.userTable
        let change = AuditedChange([.update(table: table, id: account.recordID, cells)], to: store,
                                   undo: { _ in [.update(table: table, id: account.recordID, before)] })
        do { _ = try await change.write(with: commits, trail: trail) { _ in entry.map { [$0] } ?? [] } } catch { throw .shop(error) }
        _ = try await pinsEnabled()  // notes the change for the other processes of this machine
    }

    /// Takes `name` off the staff (their `User` record is deleted; orders keep the name they recorded).
    /// Refused for the last manager with a PIN while others have PINs, as for `setPIN(nil, …)`.
    /// - Returns: the account as it was.
    func remove(_ name: String) async throws(TillError) -> StaffAccount {
        try await remove(name, trail: nil) { _ in nil }
    }

    /// `remove`, with the audit entry `entry` makes of the account, written with the change as
    /// `AuditedChange` says: one commit on the embedded store; over the API the record is made again (its
    /// cells as they were, under a new record id) when the entry cannot be written.
    func remove(_ name: String, trail: AuditTrail?,
                entry: @escaping @Sendable (StaffAccount) -> AuditEntry?) async throws(TillError) -> StaffAccount {
        let account = try await account(named: name)
        let others = try await accounts().filter { $0.hasPIN && $0.name != account.name }
        if account.role == .manager, account.hasPIN, !others.isEmpty, !others.contains(where: { $0.role == .manager }) {
            throw .staff(.lastManager(name: account.name))
        }
        let table = ShopSchema.userTable
        let cells = try await userRecord(named: account.name)?.fields ?? Fields([UserField.name: .string(account.name)])
        let change = AuditedChange([.delete(table: table, ids: [account.recordID])], to: store,
                                   undo: { _ in [.create(table: table, cells)] })
        do { _ = try await change.write(with: commits, trail: trail) { _ in entry(account).map { [$0] } ?? [] } } catch {
            throw .shop(error)
        }
        _ = try await pinsEnabled()  // notes the change for the other processes of this machine
        return account
    }

    /// Checks `pin` for `name`: refused while locked (without hashing). The try is counted before the
    /// PIN is compared, as a wrong one (a lock once it is the policy's last), and a right PIN then clears
    /// the count: so however many tries arrive at once, at most the policy's number are ever compared
    /// before the lock. On the embedded store counting is one atomic step (read, count, write in one
    /// commit), so this holds across any number of processes; over the API (no transactions) the count
    /// is read and written back, and tries that arrive in the same instant can each count once.
    func verify(_ pin: PIN, for name: String, at date: Date) async throws(TillError) -> StaffAccount {
        let account = try await account(named: name)
        guard let stored = account.pinHash else { return account }
        do { try account.attempts.checkMayTry(at: date) } catch { throw .login(error) }
        let ifWrong = try await countTry(account, at: date)
        let right = try await Self.hashing { () throws(PINHashError) -> Bool in try await PINHasher.verifyOffThePool(pin.secret, against: stored) }
        guard right else { throw .login(ifWrong) }
        try await clearTries(account)
        return account
    }

    /// `verify`, sparing the hash when a grant of a one-shot command a few minutes ago proves `pin`
    /// (`StaffGrants`), and making one when the PIN is proven the slow way. A forged or changed grant is
    /// refused and counted as a wrong PIN, by the same rule and lock as any other.
    func verify(_ pin: PIN, for name: String, at date: Date, grants: StaffGrants) async throws(TillError) -> StaffAccount {
        let account = try await account(named: name)
        switch grants.check(pin, for: account, at: date) {
        case .proven:
            return account
        case .forged:
            do { try account.attempts.checkMayTry(at: date) } catch { throw .login(error) }
            throw .login(try await countTry(account, at: date))
        case .none:
            let proven = try await verify(pin, for: account.name, at: date)
            grants.grant(pin, for: proven, at: date)
            return proven
        }
    }

    /// Counts one try of `account`'s PIN as a failure before it is compared.
    /// - Returns: what to say if the PIN is wrong.
    /// - Throws: `.login(.locked)` when the account is locked now (then nothing is compared).
    private func countTry(_ account: StaffAccount, at date: Date) async throws(TillError) -> LoginError {
        let table = ShopSchema.userTable
        let id = account.recordID
        let counted: Result<LoginError, LoginError>
        if let kept = keptWhileAway() { return try await countTryWhileAway(account, at: date, in: kept) }
        do {
            counted = try await commits.readAndWrite(in: table, id: id) { record in Self.counting(record, at: date) }
        } catch {
            if let kept = outbox(after: error) { return try await countTryWhileAway(account, at: date, in: kept) }
            throw .shop(.store(error))
        }
        switch counted {
        case .success(let ifWrong): return ifWrong
        case .failure(let locked): throw .login(locked)
        }
    }

    /// A right PIN clears the count of tries: in the store, or while it is away in the staff kept for it.
    private func clearTries(_ account: StaffAccount) async throws(TillError) {
        let cleared = Fields([UserField.failedLogins: .int(0), .lockedUntil: .null])
        if let kept = keptWhileAway() { return try await changeWhileAway(account, cleared, in: kept) }
        do {
            _ = try await store.updateRecords(in: ShopSchema.userTable, [RecordUpdate(id: account.recordID, fields: cleared)],
                                              replace: false, options: WriteOptions(typecast: true))
        } catch {
            guard let kept = outbox(after: error) else { throw .shop(.store(error)) }
            try await changeWhileAway(account, cleared, in: kept)
        }
    }

    /// The cells that count one more try on `record` (nil when it is locked: nothing to write), and what
    /// a wrong PIN then says, or the lock that refuses the try.
    static func counting(_ record: Record, at date: Date) -> (cells: Fields?, outcome: Result<LoginError, LoginError>) {
        guard var attempts = account(from: record)?.attempts else { return (nil, .failure(.unknownStaff(record.id))) }
        do { try attempts.checkMayTry(at: date) } catch { return (nil, .failure(error)) }
        let ifWrong = attempts.recordFailure(at: date)
        let cells = Fields([
            UserField.failedLogins: .int(attempts.failures),
            .lockedUntil: attempts.lockedUntil.map { .string(AirtableTimestamp.format($0)) } ?? .null,
        ])
        return (cells, .success(ifWrong))
    }

    // MARK: - Pieces

    private func update(_ account: StaffAccount, _ cells: KeyValuePairs<UserField, JSONValue>) async throws(TillError) {
        do {
            _ = try await store.updateRecords(in: ShopSchema.userTable, [RecordUpdate(id: account.recordID, fields: Fields(cells))],
                                              replace: false, options: WriteOptions(typecast: true))
        } catch {
            throw .shop(.store(error))
        }
    }

    static func account(from record: Record) -> StaffAccount? {
        let cells = record.fields
        guard let name = cells[UserField.name]?.stringValue,
              (cells[UserField.role]?.stringValue ?? UserRole.staff.rawValue) == UserRole.staff.rawValue
        else { return nil }
        let role = cells[UserField.staffRole]?.stringValue.flatMap(StaffRole.init(rawValue:)) ?? .staff
        let hash = cells[UserField.pinHash]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let locked = cells[UserField.lockedUntil]?.stringValue.flatMap(AirtableTimestamp.parse)
        return StaffAccount(name: name, role: role, hasPIN: hash != nil,
                            attempts: LoginAttempts(failures: cells[UserField.failedLogins]?.intValue ?? 0, lockedUntil: locked),
                            recordID: record.id, pinHash: hash)
    }

    /// A PIN hash or check (off the pool, in `PinHashing`), its failure said as the till's.
    static func hashing<T: Sendable>(_ work: () async throws(PINHashError) -> T) async throws(TillError) -> T {
        do { return try await work() } catch { throw .staff(.hashingFailed("\(error)")) }
    }
}
