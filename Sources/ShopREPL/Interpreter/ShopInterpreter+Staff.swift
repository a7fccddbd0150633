import DrinkShop
import DrinkShopCore
import Foundation
import LineEditor

/// Staff at the counter: logging in (with the PIN asked for without echo), what a role may do, PINs and
/// the staff list. Who may do what is the counter's rule (`Counter.authorize`); this side proves who is acting.
extension ShopInterpreter {
    /// `login NAME`: asks for the PIN (never echoed) when NAME has one.
    func logIn(_ name: String) async throws {
        let login = try await shop.counter.logIn(name) { stored in try await askPIN(for: stored, prompt: "PIN for \(stored): ") }
        let role = login.acting.role ?? .staff
        staff = login.acting.name
        staffRole = role
        var note = ""
        if login.actsBelowRole { note = " (no PIN set: logged in as staff; a manager acts as manager only with a PIN)" }
        say("Hello, \(login.acting.name) (\(role.chineseLabel) \(role.rawValue))." + (login.isNew ? " (added to staff)" : "")
            + " Orders you place record your name.\(note)\n")
    }

    /// Who is acting at this counter, for the counter's rules (`Counter.authorize`): the person logged in
    /// with their role, or nobody (the default name). A one-shot command on a shop with PINs proves who it
    /// is with DRINKSHOP_STAFF and DRINKSHOP_PIN, checked here once.
    func acting() async throws -> Acting {
        if staff == nil, let text = credentials.pin, try await shop.counter.pinsEnabled() {
            let pin: PIN
            do { pin = try PIN(text) } catch { throw TillError.pin(error) }
            // Proven a few minutes ago by a command of this user: a quick check instead of half a second.
            let proven = try await shop.counter.prove(pin, for: defaultStaff, grants: credentials.grants)
            staff = proven.name
            staffRole = proven.role ?? .staff
        }
        return Acting(staff ?? defaultStaff, role: staff == nil ? nil : staffRole)
    }

    func setPIN(for name: String) async throws {
        // Who may was checked by the command table (`staff pin`) before anyone is asked for a PIN.
        let acting = try await acting()
        let account = try await shop.staff.account(named: name)
        let pin: PIN
        if prompter.readSecret == nil {
            // Never the login's own PIN (DRINKSHOP_PIN): a new one is typed, or brought on purpose.
            guard let text = credentials.newPIN else {
                throw TillError.newPINNotGiven(name: account.name,
                                               hint: "at a terminal staff pin asks for it twice; a one-shot command takes DRINKSHOP_NEW_PIN")
            }
            do { pin = try PIN(text) } catch { throw TillError.pin(error) }
        } else {
            pin = try await askPIN(for: account.name, prompt: "New PIN for \(account.name) (4–8 digits): ")
            let again = try await askPIN(for: account.name, prompt: "Again: ")
            guard again == pin else { throw TillError.staff(.pinsDiffer) }
        }
        _ = try await shop.counter.setPIN(pin, for: account.name, by: acting)
        say("\(account.name)'s PIN is set. From now on login asks for it.\n")
    }

    func askPIN(for name: String, prompt: String) async throws -> PIN {
        let text: String?
        if let readSecret = prompter.readSecret {
            text = await readSecret(prompt)
        } else if let pin = credentials.pin {
            text = pin
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
