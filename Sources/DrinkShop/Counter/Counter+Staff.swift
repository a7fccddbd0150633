import DrinkShopCore
import Foundation

/// The counter's staff changes and the settings every counter shares, each authorized and audited.
extension Counter {
    // MARK: - Staff

    /// Adds `name` to the staff with `role`, or changes the role of one already on it. Each staff change
    /// is written with its audit entry as `AuditedChange` says (on the embedded store one commit; over the
    /// API put back when the entry cannot be written).
    public func addStaff(_ name: String, role: StaffRole, by acting: Acting) async throws(TillError)
        -> (account: StaffAccount, isNew: Bool)
    {
        let who = try await authorize(.staffChanges, acting)
        let clock = clock
        return try await staff.add(name, role: role, trail: audit) { name, isNew in
            AuditEntry(at: clock.now(), by: who, action: .staffChanges, subject: name,
                       detail: isNew ? "added as \(role.rawValue)" : "role \(role.rawValue)")
        }
    }

    /// Sets (or with nil removes) a staff member's PIN.
    public func setPIN(_ pin: PIN?, for name: String, by acting: Acting) async throws(TillError) -> StaffAccount {
        let who = try await authorize(.staffChanges, acting)
        let account = try await staff.account(named: name)
        do {
            try await staff.setPIN(pin, for: account.name, trail: audit,
                                   entry: entry(.staffChanges, by: who, subject: account.name, detail: pin == nil ? "PIN removed" : "PIN set"))
        } catch {
            await pinsChangedHere()
            throw error
        }
        await pinsChangedHere()
        return account
    }

    /// Takes `name` off the staff.
    public func removeStaff(_ name: String, by acting: Acting) async throws(TillError) -> StaffAccount {
        let who = try await authorize(.staffChanges, acting)
        let clock = clock
        let account: StaffAccount
        do {
            account = try await staff.remove(name, trail: audit) { account in
                AuditEntry(at: clock.now(), by: who, action: .staffChanges, subject: account.name, detail: "removed from the staff")
            }
        } catch {
            await pinsChangedHere()
            throw error
        }
        await pinsChangedHere()
        return account
    }

    // MARK: - Settings every counter shares

    /// Sets (or with nil clears) the shop's `role` printer for every counter (its audit entry is written
    /// with the setting). - Returns: the address set, nil for none.
    public func setPrinter(_ role: PrinterRole, to address: String?, by acting: Acting) async throws -> String? {
        let who = try await authorize(.changeSetting, acting)
        return try await settings.setPrinter(role, to: address, by: who)
    }
}
