import DrinkShopCore
import Foundation
import Synchronization

/// What this counter last read of the settings every counter shares and of whether PINs are on, and when.
/// `Counter.followSharedSettings` renews it once it is `Counter.sharedReadingAge` old; this counter's own
/// changes are written into it, so they are never taken for another counter's.
final class SharedReading: Sendable {
    struct State {
        var settings: [String: String]?
        var settingsAt: Date?
        var pins: Bool?
        var pinsAt: Date?
        /// Whether the counter was told it works from the last known staff and settings (the store is away).
        var saidLastKnown = false
    }

    private let state = Mutex(State())

    var current: State { state.withLock { $0 } }

    /// Notes `settings` as read from the store at `date`.
    func read(settings: [String: String], at date: Date) {
        state.withLock {
            $0.settings = settings
            $0.settingsAt = date
        }
    }

    /// Notes settings read at `date` only when there is no reading yet (the counter's start).
    func start(settings: [String: String], at date: Date) {
        state.withLock {
            guard $0.settings == nil else { return }
            $0.settings = settings
            $0.settingsAt = date
        }
    }

    /// This counter changed `changes`: the reading holds them, so they are not news at the next read.
    func wrote(_ changes: [String: String]) {
        state.withLock { state in
            guard state.settings != nil else { return }
            state.settings?.merge(changes) { $1 }
        }
    }

    /// Notes whether PINs are on, as read at `date` (nil: only the value, the reading keeps its age).
    func read(pins: Bool, at date: Date?) {
        state.withLock {
            $0.pins = pins
            if let date { $0.pinsAt = date }
        }
    }

    /// Forgets when PINs were read, so the next check reads them again (a PIN was set or removed here).
    func pinsChangedHere() { state.withLock { $0.pinsAt = nil } }

    /// Whether the counter still has to be told it works from what it last knew; true only once per outage.
    func tellLastKnown() -> Bool {
        state.withLock { state in
            defer { state.saidLastKnown = true }
            return !state.saidLastKnown
        }
    }

    /// The store answered again.
    func storeAnswered() { state.withLock { $0.saidLastKnown = false } }

    /// Whether a reading made at `at` is older than `age` at `now` (a clock set back counts as old).
    static func isStale(_ at: Date?, now: Date, age: TimeInterval) -> Bool {
        guard let at else { return true }
        return now < at || now.timeIntervalSince(at) >= age
    }
}

/// A setting another counter changed, as this counter found it, in the words staff use.
public enum SharedSettingChange: Sendable, Equatable, CustomStringConvertible {
    case timeZone(String)
    case dayStart(String)
    case printer(PrinterRole, String?)
    case archiving(Bool)
    case onlineOrdering(Bool)
    case pins(Bool)

    public var description: String {
        switch self {
        case .timeZone(let name): "time zone \(name)"
        case .dayStart(let start): "business day starts at \(start) (營業日起點)"
        case .printer(let role, let address): "\(role.staffName) \(address ?? "none")"
        case .archiving(let on): "closed days \(on ? "are" : "are not") archived at close"
        case .onlineOrdering(let on): on ? "online ordering open (網路點單開放)" : "online ordering closed (網路點單關閉)"
        case .pins(let on): on ? "PINs are on (log in with your PIN)" : "PINs are off"
        }
    }

    /// What differs between two readings of the `Setting` table, in a fixed order.
    static func changes(from old: [String: String], to new: [String: String]) -> [SharedSettingChange] {
        var changes: [SharedSettingChange] = []
        func changed(_ key: String) -> String?? { old[key] == new[key] ? nil : .some(new[key]) }
        if case let value?? = changed(ShopSettings.timeZoneKey) { changes.append(.timeZone(value)) }
        if case let value?? = changed(ShopSettings.dayStartsKey) { changes.append(.dayStart(value)) }
        for role in PrinterRole.allCases {
            let address = { (settings: [String: String]) -> String? in
                let value = settings[role.settingKey]?.trimmingCharacters(in: .whitespaces) ?? ""
                return value.isEmpty ? nil : value
            }
            if address(old) != address(new) { changes.append(.printer(role, address(new))) }
        }
        for (key, change) in [(ShopSettings.archiveClosedDaysKey, SharedSettingChange.archiving),
                              (ShopSettings.onlineOrderingKey, SharedSettingChange.onlineOrdering)]
        where (old[key] == "on") != (new[key] == "on") {
            changes.append(change(new[key] == "on"))
        }
        return changes
    }
}

/// What `Counter.followSharedSettings` found.
public struct SharedSettingsNews: Sendable {
    /// What other counters changed since the last reading (applied to this counter's clock already).
    public var changes: [SharedSettingChange] = []
    /// The shared settings as this counter now knows them, by key (nil before any reading).
    public var settings: [String: String]?
    /// Set once per outage: the store cannot be reached and the counter works from the last known staff
    /// and settings.
    public var fromLastKnown = false
    /// A setting read that cannot be used (a time zone that is none), for staff.
    public var problems: [String] = []
}
