import DrinkShop
import DrinkShopCore
import Foundation
import LineEditor

/// Staff at the counter: logging in (with the PIN asked for without echo), what a role may do, PINs and
/// the staff list. The till's manager actions all pass through `authorize`.
extension ShopInterpreter {
    /// `login NAME`: asks for the PIN (never echoed) when NAME has one.
    func logIn(_ name: String) async throws {
        let (user, isNew) = try await shop.staff.logIn(name: name)  // the name as on the staff list
        let account = try await shop.staff.account(named: user.name)
        var role = account.role
        if account.hasPIN {
            let pin = try await askPIN(for: account.name, prompt: "PIN for \(account.name): ")
            _ = try await shop.staff.verify(pin, for: account.name, at: shop.clock.now())
        } else if try await shop.staff.pinsEnabled() {
            role = .staff
        }
        staff = user.name
        staffRole = role
        var note = ""
        if role != account.role { note = " (no PIN set: logged in as staff; a manager acts as manager only with a PIN)" }
        say("Hello, \(user.name) (\(role.chineseLabel) \(role.rawValue))." + (isNew ? " (added to staff)" : "")
            + " Orders you place record your name.\(note)\n")
    }

    /// Who is acting, once checked for `action`: without PINs anyone may do anything; with them, the
    /// person logged in (or a one-shot command's DRINKSHOP_STAFF with DRINKSHOP_PIN) must have the role.
    func authorize(_ action: ShopAction) async throws -> String {
        let pinsEnabled: Bool
        if let cached = pinsEnabledCache, cached.at.duration(to: .now) < .seconds(30) {
            pinsEnabled = cached.enabled
        } else {
            pinsEnabled = try await shop.staff.pinsEnabledLately()
            pinsEnabledCache = (pinsEnabled, .now)
        }
        let policy = AccessPolicy(pinsEnabled: pinsEnabled)
        guard pinsEnabled else {
            try policy.check(action, role: staffRole)
            return staff ?? defaultStaff
        }
        if staff == nil, let text = environmentPIN {
            let pin: PIN
            do { pin = try PIN(text) } catch { throw TillError.pin(error) }
            let account = try await shop.staff.verify(pin, for: defaultStaff, at: shop.clock.now())
            staff = account.name
            staffRole = account.hasPIN ? account.role : .staff
        }
        do { try policy.check(action, role: staff == nil ? nil : staffRole) } catch {
            if staff == nil, readSecret == nil {
                throw TillError.staff(.oneShotNeedsStaff(error))
            }
            throw TillError.access(error)
        }
        return staff ?? defaultStaff
    }

    func setPIN(for name: String) async throws {
        let who = try await authorize(.staffChanges)
        let account = try await shop.staff.account(named: name)
        let pin: PIN
        if let text = environmentNewPIN, readSecret == nil {
            do { pin = try PIN(text) } catch { throw TillError.pin(error) }
        } else {
            pin = try await askPIN(for: account.name, prompt: "New PIN for \(account.name) (4–8 digits): ")
            let again = try await askPIN(for: account.name, prompt: "Again: ")
            guard again == pin else { throw TillError.staff(.pinsDiffer) }
        }
        try await shop.staff.setPIN(pin, for: account.name)
        pinsEnabledCache = nil
        await audit(.staffChanges, by: who, subject: account.name, detail: "PIN set")
        say("\(account.name)'s PIN is set. From now on login asks for it.\n")
    }

    func askPIN(for name: String, prompt: String) async throws -> PIN {
        let text: String?
        if let readSecret {
            text = await readSecret(prompt)
        } else if let environmentPIN {
            text = environmentPIN
        } else {
            throw TillError.pinRequired(name: name, hint: "at a terminal login asks for it; a one-shot command needs DRINKSHOP_PIN")
        }
        guard let text, !text.isEmpty else { throw TillError.staff(.noPINGiven) }
        do { return try PIN(text) } catch { throw TillError.pin(error) }
    }

    func listStaff() async throws {
        let accounts = try await shop.staff.accounts()
        guard !accounts.isEmpty else {
            say("No staff yet. login NAME adds you; staff add NAME manager adds a manager.\n")
            return
        }
        var table = TextTable(columns: [.init("Name"), .init("Role"), .init("PIN"), .init("Locked")])
        let now = shop.clock.now()
        for account in accounts {
            let locked = account.attempts.lockedUntil.flatMap { $0 > now ? shop.till.calendar.minuteText($0) : nil }
            table.append([account.name, "\(account.role.chineseLabel) \(account.role.rawValue)", account.hasPIN ? "set" : "—",
                          locked.map { "until \($0)" } ?? ""])
        }
        say(table.render(style: style))
    }
}
