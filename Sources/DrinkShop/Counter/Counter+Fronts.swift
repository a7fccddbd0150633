import DrinkShopCore
import Foundation

/// What the fronts used to do around the counter, now through it: logging in (and the role rule of a login
/// without a PIN), proving a one-shot command's PIN, seeding the menu, the printers this process prints on,
/// and the pickup tickets a close leaves. The services' writes are internal to this module, so a front that
/// wants a change has only these and the rest of `Counter`.
extension Counter {
    // MARK: - Who is at the counter

    /// What a login found: the name as on the staff list, the role the person acts with, whether they were
    /// just added (a shop without PINs adds a new colleague), and whether a manager acts as staff (no PIN).
    public struct LoggedIn: Sendable {
        public let acting: Acting
        public let isNew: Bool
        /// A manager without a PIN in a shop with PINs acts as staff.
        public let actsBelowRole: Bool
    }

    /// Logs `name` in: a person with a PIN gives it (`pin` is asked only then, with the name as stored);
    /// one without a PIN acts as staff once PINs are on (a manager acts as manager only with a PIN). A wrong
    /// PIN is counted (`StaffAccounts.verify`: five lock the account).
    public func logIn(_ name: String, pin: (_ storedName: String) async throws -> PIN) async throws -> LoggedIn {
        let (user, isNew) = try await staff.logIn(name: name)
        let account = try await staff.account(named: user.name)
        var role = account.role
        if account.hasPIN {
            _ = try await staff.verify(try await pin(account.name), for: account.name, at: clock.now())
        } else if try await staff.pinsEnabled() {
            role = .staff
        }
        return LoggedIn(acting: Acting(user.name, role: role), isNew: isNew, actsBelowRole: role != account.role)
    }

    /// Proves a one-shot command's person by `pin` (with `grants`, a PIN proven a few minutes ago by this
    /// user is a quick check instead of half a second). - Returns: who acts, with the role they proved.
    public func prove(_ pin: PIN, for name: String, grants: StaffGrants?) async throws(TillError) -> Acting {
        let now = clock.now()
        let account = if let grants { try await staff.verify(pin, for: name, at: now, grants: grants) }
            else { try await staff.verify(pin, for: name, at: now) }
        return Acting(account.name, role: account.hasPIN ? account.role : .staff)
    }

    // MARK: - The menu from a seed file

    /// Loads the menu and promotions from the seed file at `path` (with `replace`, each record as the file
    /// gives it, cells it leaves out cleared); a manager's action once PINs are on.
    public func seed(contentsOf path: String, replace: Bool = false, by acting: Acting) async throws(TillError) -> SeedReport {
        try await authorize(.seedMenu, acting)
        do { return try await seeder.seed(contentsOf: path, replace: replace) } catch { throw .shop(error) }
    }

    /// Loads a seed file already read (the menu bundled with the binary, for a new store).
    public func seed(_ file: SeedFile, by acting: Acting) async throws(TillError) -> SeedReport {
        try await authorize(.seedMenu, acting)
        do { return try await seeder.seed(file) } catch { throw .shop(error) }
    }

    // MARK: - Printers and tickets

    /// The printers this process prints on from now (the environment's, else the shop's settings).
    public func usePrinters(_ printers: ShopPrinters) {
        printing.use(printers)
    }

    /// Removes the pickup tickets of closed days from a remote base (a close that does not archive; the
    /// orders keep their numbers). - Returns: how many were removed; 0 on the embedded store.
    public func dropClosedDaysTickets(by acting: Acting) async throws -> Int {
        try await authorize(.closeDay, acting)
        guard delivery.outbox != nil, let archiver else { return 0 }
        return try await archiver.dropClosedDaysTickets()
    }
}

extension Counter {
    // MARK: - Starting a front

    /// The time zone and business-day start every counter shares: the store's, with the environment's
    /// overrides written to it (`ShopSettings.adopt`); the shop's clock goes by the result.
    @discardableResult
    public func adoptSettings(environment: [String: String]) async throws(ShopError) -> AdoptedSettings {
        try await settings.adopt(environment: environment)
    }

    /// A counter that stays open (a REPL on a remote base) claims `count` pickup numbers at a time.
    public func holdPickupNumbers(_ count: Int = 10) {
        orders.holdPickupNumbers(count)
    }
}
