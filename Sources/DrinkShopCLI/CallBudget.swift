import Airtable
import AirtableHTTP
import Foundation

/// The Airtable plan whose monthly call quota `drinkshop usage` measures against
/// (`DRINKSHOP_AIRTABLE_PLAN`). The caps are Airtable's published ones ("Managing API call limits in
/// Airtable", support.airtable.com, and the pricing page): Free 1,000 calls a month, Team 100,000,
/// Business and Enterprise Scale no monthly cap (the 5 requests per second per base apply to every plan).
/// Airtable counts per workspace and billing cycle; DrinkShop counts per base, per machine, per UTC month.
enum AirtablePlan: String, CaseIterable {
    case free, team, business, enterprise

    var monthlyCalls: Int? {
        switch self {
        case .free: return 1_000
        case .team: return 100_000
        case .business, .enterprise: return nil
        }
    }

    var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// `DRINKSHOP_AIRTABLE_PLAN`, or nil when unset.
    static func fromEnvironment(_ environment: [String: String]) throws(UsageError) -> AirtablePlan? {
        guard let text = environment["DRINKSHOP_AIRTABLE_PLAN"]?.trimmingCharacters(in: .whitespaces),
              !text.isEmpty else { return nil }
        guard let plan = AirtablePlan(rawValue: text.lowercased()) else {
            throw UsageError("DRINKSHOP_AIRTABLE_PLAN must be one of free, team, business, enterprise, not \(text)")
        }
        return plan
    }
}

extension StoreLocation {
    /// Where the processes of this machine share each remote base's pacing and call counts:
    /// `$XDG_STATE_HOME/drinkshop/pacing` (`~/.local/state/drinkshop/pacing`).
    static func pacingDirectory(environment: [String: String]) -> String {
        (historyPath(environment: environment) as NSString).deletingLastPathComponent + "/pacing"
    }
}

/// The monthly quota as it stands, and what to tell staff about it.
struct QuotaOutlook {
    var usage: CallUsage
    var plan: AirtablePlan?
    /// Seconds since 1970, for the share of the month gone.
    var now: Double

    /// Share of the month gone, from 0 to 1 (UTC).
    var monthElapsed: Double {
        let date = Date(timeIntervalSince1970: now)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        guard let interval = calendar.dateInterval(of: .month, for: date) else { return 1 }
        return min(1, max(0.001, date.timeIntervalSince(interval.start) / interval.duration))
    }

    /// Calls by the end of the month at this month's pace so far.
    var projected: Int { Int((Double(usage.callsThisMonth) / monthElapsed).rounded()) }

    /// A warning once 80 % of the quota is spent, or the pace would spend it before the month ends.
    var warning: String? {
        guard let plan, let cap = plan.monthlyCalls else { return nil }
        let spent = usage.callsThisMonth
        if spent >= cap {
            return "this month's \(Self.number(spent)) calls have reached the \(plan.title) plan's quota of "
                + "\(Self.number(cap)): Airtable refuses or slows the base's API until the month ends; orders wait in "
                + "the outbox. Upgrade the plan, or use the embedded store or drinkshop serve."
        }
        if Double(spent) >= 0.8 * Double(cap) {
            return "\(Self.number(spent)) of the \(plan.title) plan's \(Self.number(cap)) calls this month are spent "
                + "(\(Self.percent(spent, cap))); at this pace about \(Self.number(projected)) by the end of the month."
        }
        // A pace read from the first days of a month says little; from the fourth day on it is worth a warning.
        if monthElapsed >= 0.1, projected > cap {
            return "at this month's pace the base spends about \(Self.number(projected)) calls, over the "
                + "\(plan.title) plan's \(Self.number(cap)): it would run dry before the month ends."
        }
        return nil
    }

    static func number(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(character)
        }
        return result
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        String(format: "%.1f %%", 100 * Double(part) / Double(max(1, whole)))
    }
}

/// `drinkshop usage`: the calls this machine spent on the remote base today and this month.
enum UsageCommand {
    static func run(words: [String], environment: [String: String], say: (String) -> Void,
                    complain: (String) -> Void) async -> Int32 {
        if let word = words.first {
            complain("drinkshop: usage takes no arguments, not \(word)")
            return 2
        }
        let remote: RemoteStore
        let plan: AirtablePlan?
        do {
            plan = try AirtablePlan.fromEnvironment(environment)
            guard let found = try RemoteStore.fromEnvironment(environment) else {
                complain("drinkshop: usage counts the calls made to a remote base (AIRTABLE_TOKEN and AIRTABLE_BASE_ID); "
                    + "the embedded store makes none.")
                return 2
            }
            remote = found
        } catch {
            complain("drinkshop: \(error)")
            return 2
        }
        guard let file = remote.client.pacingFile else {
            complain("drinkshop: this counter does not share a pacing file, so it keeps no count")
            return 1
        }
        let state: PacingState
        do { state = try await file.read() } catch {
            complain("drinkshop: \(error)")
            return 1
        }
        let outlook = QuotaOutlook(usage: state.usage(at: Date().timeIntervalSince1970), plan: plan,
                                   now: Date().timeIntervalSince1970)
        let usage = outlook.usage
        say("Calls to \(remote.description) from this machine (UTC days and months):")
        func row(_ label: String, _ value: String) { say("  " + label.padding(toLength: 22, withPad: " ", startingAt: 0) + value) }
        row("today (\(usage.day))", QuotaOutlook.number(usage.callsToday))
        var month = QuotaOutlook.number(usage.callsThisMonth)
        if let plan, let cap = plan.monthlyCalls {
            month += " of \(QuotaOutlook.number(cap)) (\(plan.title) plan, \(QuotaOutlook.percent(usage.callsThisMonth, cap)))"
        } else if let plan {
            month += " (\(plan.title) plan: no monthly cap)"
        }
        row("this month (\(usage.month))", month)
        row("at this pace", "about \(QuotaOutlook.number(outlook.projected)) by the end of the month")
        if plan == nil {
            say("Set DRINKSHOP_AIRTABLE_PLAN=free|team|business|enterprise to compare with the plan's monthly quota "
                + "(Free 1,000, Team 100,000, Business and Enterprise unlimited).")
        }
        say("Counted by every drinkshop process on this machine (\(file.path)); Airtable counts the whole "
            + "workspace, other machines and integrations included.")
        if let warning = outlook.warning { complain("warning: " + warning) }
        return 0
    }

    /// The warning to show after a command, when the quota is close; nil otherwise or when unknown.
    static func warning(for client: AirtableClient, environment: [String: String]) async -> String? {
        guard let plan = try? AirtablePlan.fromEnvironment(environment), let file = client.pacingFile,
              let state = try? await file.read() else { return nil }
        let now = Date().timeIntervalSince1970
        return QuotaOutlook(usage: state.usage(at: now), plan: plan, now: now).warning
    }
}
