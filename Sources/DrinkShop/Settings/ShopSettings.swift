import Airtable
import DrinkShopCore
import Foundation
import Printing

/// The settings every counter of a shop shares, kept in the store's `Setting` table (key, value) so
/// counters cannot disagree: the shop's time zone (`timeZone`, an IANA name such as `Asia/Taipei`) and
/// the time of day its business day starts (`dayStarts`, `05:00`).
///
/// How a counter arrives at them (`adopt(environment:…)`, once when it opens the store):
/// - `DRINKSHOP_TIME_ZONE` / `DRINKSHOP_DAY_STARTS`, when set, are written to the store (if they differ
///   from what it holds, with an audit entry) and so become every counter's setting;
/// - otherwise the store's value is used;
/// - a store without a time zone gets the opening machine's zone written to it (so the first counter
///   fixes it for all that come after); a store without a day start counts from midnight.
/// The clock of the shop (every service's copy) then counts business days by them. A running counter follows
/// later changes made at other counters through `Counter.followSharedSettings`.
public struct ShopSettings: Sendable {
    public static let timeZoneKey = "timeZone"
    public static let dayStartsKey = "dayStarts"
    public static let timeZoneVariable = "DRINKSHOP_TIME_ZONE"
    public static let dayStartsVariable = "DRINKSHOP_DAY_STARTS"

    /// Sets (or with nil, clears) the shop's `role` printer for every counter: an address is checked
    /// before anything is written; the change goes to the audit trail.
    func setPrinter(_ role: PrinterRole, to address: String?, by staff: String) async throws -> String? {
        let value = address?.trimmingCharacters(in: .whitespaces) ?? ""
        if !value.isEmpty { _ = try PrinterSink(setting: value) }
        let before = try await records.all()
        try await write([role.settingKey: value], before: before, by: staff)
        return value.isEmpty ? nil : value
    }

    /// `archiveClosedDays`: `on` makes every `close` archive the closed days (see `DayArchiver`).
    public static let archiveClosedDaysKey = "archiveClosedDays"

    /// Whether every drawer close archives the closed days, for every counter.
    public func archivesClosedDays() async throws(ShopError) -> Bool {
        try await records.all()[Self.archiveClosedDaysKey] == "on"
    }

    /// Sets whether every drawer close archives the closed days; the change goes to the audit trail.
    func setArchivesClosedDays(_ on: Bool, by staff: String) async throws(ShopError) {
        let before = try await records.all()[Self.archiveClosedDaysKey]
        try await write([Self.archiveClosedDaysKey: on ? "on" : "off"], before: [Self.archiveClosedDaysKey: before], by: staff)
    }

    /// `onlineOrdering`: `on` lets customers order from the page at `/order` of `drinkshop serve`; anything
    /// else (and no value: a store from before the page) keeps it closed.
    public static let onlineOrderingKey = "onlineOrdering"

    /// Whether customers may order from the page at `/order`, as the store says (`drinkshop serve` keeps no
    /// copy of the settings, so a manager's `online off` at any counter closes the page with its next request).
    public func onlineOrderingOpen() async throws(ShopError) -> Bool {
        try await records.all()[Self.onlineOrderingKey] == "on"
    }

    /// Opens or closes ordering from the page at `/order` for every counter; the change goes to the audit trail.
    func setOnlineOrdering(_ on: Bool, by staff: String) async throws(ShopError) {
        let before = try await records.all()[Self.onlineOrderingKey]
        try await write([Self.onlineOrderingKey: on ? "on" : "off"], before: [Self.onlineOrderingKey: before], by: staff)
    }

    private let records: SettingRecords
    private let clock: ShopClock
    private let audit: AuditTrail
    /// How a change of settings and its entries are written together.
    private let commits: any CommitStrategy
    /// This counter's reading of the settings, renewed by `Counter.followSharedSettings`.
    let reading: SharedReading
    /// Told when the store cannot be reached at the start, so the first command does not wait on it again.
    private let delivery: DeliveryPolicy?

    /// - Parameter notes: the counter's outbox, where the settings read by a process of this machine in
    ///   the last 30 s are found instead of reading them again.
    init(store: any RecordStore, commits: any CommitStrategy, clock: ShopClock, audit: AuditTrail, notes: Outbox? = nil,
         reading: SharedReading = SharedReading(), delivery: DeliveryPolicy? = nil) {
        self.commits = commits
        records = SettingRecords(store: store, notes: notes, now: { clock.now() })
        self.clock = clock
        self.audit = audit
        self.reading = reading
        self.delivery = delivery
    }

    /// The settings as the store holds them now (never a note of an earlier read), noted for the other
    /// processes of this machine.
    func readFromStore() async throws(ShopError) -> [String: String] {
        try await records.fresh()
    }

    /// The settings as a process of this machine last read them, however long ago (the store is away).
    func lastKnown() async -> [String: String]? {
        await records.notes?.keptSettings(at: clock.now(), within: .infinity)
    }

    /// Counts business days by the stored `timeZone` and `dayStarts` (when they can be read) from now on.
    /// - Returns: what could not be used, for staff.
    func applyDayRule(_ stored: [String: String]) -> [String] {
        var problems: [String] = []
        var zone = clock.timeZone
        var start = clock.dayStart
        if let text = stored[Self.timeZoneKey] {
            do { zone = try Self.timeZone(named: text, source: "the store's setting") } catch {
                problems.append("\(error); keeping \(clock.timeZone.identifier)")
            }
        }
        if let text = stored[Self.dayStartsKey] {
            do { start = try BusinessDayStart(parsing: text) } catch {
                problems.append("the store's business-day start: \(error); keeping \(clock.dayStart)")
            }
        }
        if zone != clock.timeZone || start != clock.dayStart { clock.adopt(timeZone: zone, dayStart: start) }
        return problems
    }

    /// The time zone the shop counts business days in (the clock's, after `adopt`).
    public var timeZone: TimeZone { clock.timeZone }
    /// When the shop's business day starts (the clock's, after `adopt`).
    public var dayStart: BusinessDayStart { clock.dayStart }

    /// Every setting the store holds, by key.
    public func stored() async throws(ShopError) -> [String: String] {
        try await records.all()
    }

    /// Sets the shop's time zone in the store, for every counter, and on this counter's clock at once.
    func setTimeZone(_ zone: TimeZone, by staff: String) async throws(ShopError) {
        let before = try await records.all()[Self.timeZoneKey]
        try await write([Self.timeZoneKey: zone.identifier], before: [Self.timeZoneKey: before], by: staff)
        clock.adopt(timeZone: zone, dayStart: clock.dayStart)
    }

    /// Sets when the business day starts, for every counter, and on this counter's clock at once.
    func setDayStart(_ start: BusinessDayStart, by staff: String) async throws(ShopError) {
        let before = try await records.all()[Self.dayStartsKey]
        try await write([Self.dayStartsKey: start.description], before: [Self.dayStartsKey: before], by: staff)
        clock.adopt(timeZone: clock.timeZone, dayStart: start)
    }

    /// Reads the store's settings, applies the environment's overrides (writing them to the store) and
    /// sets the shop's clock by the result. See the type's documentation for the order of precedence.
    /// - Parameter machineTimeZone: this machine's zone, written to a store that has none yet.
    /// - Throws: `ShopError.setting` when a variable's value cannot be read; nothing is written then.
    ///   A store that cannot be read or written is not an error: the counter then goes by the variables
    ///   and its machine, and `AdoptedSettings.notes` says so.
    @discardableResult
    func adopt(environment: [String: String], machineTimeZone: TimeZone = .current) async throws(ShopError)
        -> AdoptedSettings
    {
        let wantedZoneName = environment[Self.timeZoneVariable].map { $0.trimmingCharacters(in: .whitespaces) }
        let wantedZone = try wantedZoneName.map { text throws(ShopError) in
            try Self.timeZone(named: text, source: Self.timeZoneVariable)
        }
        var wantedStart: BusinessDayStart? = nil
        if let text = environment[Self.dayStartsVariable] {
            do { wantedStart = try BusinessDayStart(parsing: text) } catch {
                throw .setting(.dayStart(error, source: Self.dayStartsVariable))
            }
        }
        var notes: [String] = []
        var stored: [String: String]? = nil
        do { stored = try await records.all() } catch {
            // An unreachable base: the commands that follow go by what this machine last knew of it.
            _ = delivery?.outbox(after: error, at: clock.now())
            notes.append("the shop's settings could not be read from the store (\(error)); going by this counter's")
        }
        var storedZone: TimeZone? = nil
        if let text = stored?[Self.timeZoneKey] {
            do { storedZone = try Self.timeZone(named: text, source: "the store's setting") } catch {
                notes.append("\(error); using this counter's")
            }
        }
        var storedStart: BusinessDayStart? = nil
        if let text = stored?[Self.dayStartsKey] {
            do { storedStart = try BusinessDayStart(parsing: text) } catch {
                notes.append("the store's business-day start: \(error); counting from midnight")
            }
        }
        let zone = wantedZone ?? storedZone ?? machineTimeZone
        let start = wantedStart ?? storedStart ?? .midnight
        clock.adopt(timeZone: zone, dayStart: start)

        var changes: [String: String] = [:]
        if let stored {
            // The name as given is kept (Foundation may call UTC "GMT"); a machine's zone by the name its
            // `TZ` or /etc/localtime gives it.
            let zoneName = wantedZoneName ?? (storedZone == nil ? Self.machineZoneName(machineTimeZone, environment: environment)
                                                                 : zone.identifier)
            if stored[Self.timeZoneKey] != zoneName, wantedZone != nil || storedZone == nil {
                changes[Self.timeZoneKey] = zoneName
            }
            if let wantedStart, stored[Self.dayStartsKey] != wantedStart.description {
                changes[Self.dayStartsKey] = wantedStart.description
            }
        }
        if !changes.isEmpty {
            let by = wantedZone != nil || wantedStart != nil ? "environment" : "first counter"
            do {
                try await write(changes, before: stored ?? [:], by: by)
            } catch {
                changes = [:]
                // A read-only store that has no zone yet: this counter goes by its machine, quietly.
                if wantedZone != nil || wantedStart != nil {
                    notes.append("the shop's settings could not be saved in the store (\(error)); "
                        + "other counters may count the day differently")
                }
            }
        }
        let known = (stored ?? [:]).merging(changes) { $1 }
        if stored != nil { reading.start(settings: known, at: clock.now()) }
        return AdoptedSettings(timeZone: zone, dayStart: start, written: changes, notes: notes, stored: known)
    }

    /// The setting every counter watches to read the menu again: a drink sold out, restocked or repriced at one
    /// counter reaches the others with their next reading of the settings (5 s), at no request of its own.
    public static let menuChangedKey = "menuChangedAt"

    /// Says the menu changed, for the other running counters (the change has its own audit entry; this is
    /// only the signal). A signal that cannot be written leaves them to their menu copy's 30 s.
    func noteMenuChanged() async {
        let change = [Self.menuChangedKey: AirtableTimestamp.format(clock.now())]
        guard (try? await records.write(change, with: commits)) != nil else { return }
        reading.wrote(change)
    }

    /// Marks `item` out (or back in stock) for every counter: its key and the `menuChangedAt` signal in one
    /// write with `entry`, as `AuditedChange` says (one commit on the embedded store; over the API both keys
    /// written back as they were when the entry cannot be written).
    func writeStock(_ item: StockItem, out: Bool, entry: AuditEntry) async throws(ShopError) {
        guard let key = SoldOutItems.settingKey(for: item) else { return }
        let before = try await records.fresh()
        let changes = [key: out ? SoldOutItems.outValue : SoldOutItems.inValue,
                       Self.menuChangedKey: AirtableTimestamp.format(clock.now())]
        let earlier = Dictionary(uniqueKeysWithValues: changes.keys.map { ($0, before[$0]) })
        try await records.write(changes, undoing: earlier, trail: audit, entries: [entry], with: commits)
        reading.wrote(changes)
    }

    /// Writes `changes` (read against the store's values now) with an audit entry for each that changed.
    func writeAudited(_ changes: [String: String], by staff: String) async throws(ShopError) {
        let stored = try await records.fresh()
        let changed = changes.filter { stored[$0.key] != $0.value }
        guard !changed.isEmpty else { return }
        let before = Dictionary(uniqueKeysWithValues: changed.keys.map { ($0, stored[$0]) })
        try await write(changed, before: before, by: staff)
    }

    /// Writes `changes` with an audit entry each, as `AuditedChange` says: one commit on the embedded store;
    /// over the API the settings, then the entries, and the settings as they were (`before`) written again
    /// when the entries cannot be, so neither stands.
    private func write(_ changes: [String: String], before: [String: String?], by staff: String) async throws(ShopError) {
        let now = clock.now()
        let entries = changes.sorted { $0.key < $1.key }.map { key, value -> AuditEntry in
            let old = (before[key] ?? nil) ?? "unset"
            // A secret's value is never written out: the entry says only that it changed.
            if InvoiceSetup.secretKeys.contains(key) {
                return AuditEntry(at: now, by: staff, action: .changeSetting, subject: key,
                                  detail: old == "unset" || old.isEmpty ? "set (hidden)" : "changed (hidden)")
            }
            return AuditEntry(at: now, by: staff, action: .changeSetting, subject: key, detail: "\(old) -> \(value)")
        }
        let earlier = Dictionary(uniqueKeysWithValues: changes.keys.map { ($0, before[$0] ?? nil) })
        do {
            try await records.write(changes, undoing: earlier, trail: audit, entries: entries, with: commits)
        } catch {
            // Over the API a change whose entry is missing and that could not be put back stands.
            if case .auditNotWritten = error { reading.wrote(changes) }
            throw error
        }
        reading.wrote(changes)
    }

    /// The name staff would give this machine's zone: `TZ` when it names the same zone (Foundation calls
    /// `TZ=UTC` "GMT"), else the zone /etc/localtime links to, else Foundation's identifier.
    static func machineZoneName(_ zone: TimeZone, environment: [String: String],
                                localtimeLink: String? = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"))
        -> String
    {
        var candidates: [String] = []
        if let tz = environment["TZ"] {
            candidates.append(tz.hasPrefix(":") ? String(tz.dropFirst()) : tz)
        } else if let link = localtimeLink, let range = link.range(of: "zoneinfo/") {
            candidates.append(String(link[range.upperBound...]))
        }
        for name in candidates {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            if let named = TimeZone(identifier: trimmed), named.secondsFromGMT() == zone.secondsFromGMT(),
               named.nextDaylightSavingTimeTransition == zone.nextDaylightSavingTimeTransition
            {
                return trimmed
            }
        }
        return zone.identifier
    }

    private static func timeZone(named name: String, source: String) throws(ShopError) -> TimeZone {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let zone = TimeZone(identifier: trimmed) else {
            throw .setting(.unknownTimeZone(String(trimmed.prefix(40)), source: source))
        }
        return zone
    }
}

/// What a counter counts business days by, once it has opened the store.
public struct AdoptedSettings: Sendable {
    public let timeZone: TimeZone
    public let dayStart: BusinessDayStart
    /// The settings this counter wrote to the store, by key.
    public let written: [String: String]
    /// Why the store's settings could not be used or saved, for staff.
    public let notes: [String]
    /// Every setting of the store as this counter now knows it, by key (the printers' among them).
    public let stored: [String: String]
}

/// A setting's value that cannot be used.
public enum SettingError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownTimeZone(String, source: String)
    case dayStart(BusinessDayStartError, source: String)

    public var description: String {
        switch self {
        case .unknownTimeZone(let name, let source):
            return "\(source): '\(name)' is not a time zone; give one like Asia/Taipei or UTC (時區錯誤)"
        case .dayStart(let error, let source): return "\(source): \(error) (營業日開始時間錯誤)"
        }
    }
}

/// `Setting`: the only code that knows its fields. One record per key, written by an upsert on `key`.
struct SettingRecords: Sendable {
    let store: any RecordStore
    var notes: Outbox? = nil
    var now: @Sendable () -> Date = Date.init

    func all() async throws(ShopError) -> [String: String] {
        if let kept = await notes?.keptSettings(at: now(), within: PickupNumbers.noteLifetime) { return kept }
        return try await fresh()
    }

    /// The store's settings, read now and noted.
    func fresh() async throws(ShopError) -> [String: String] {
        let settings = try await read()
        await notes?.keepSettings(settings, at: now())
        return settings
    }

    private func read() async throws(ShopError) -> [String: String] {
        let found: [Record]
        do { found = try await store.allRecords(in: ShopSchema.settingTable) } catch { throw .store(error) }
        var settings: [String: String] = [:]
        for record in found {
            guard let key = record.fields[SettingField.key]?.stringValue else { continue }
            settings[key] = record.fields[SettingField.value]?.stringValue
        }
        return settings
    }

    func write(_ settings: [String: String], with commits: any CommitStrategy) async throws(ShopError) {
        try await write(settings, undoing: nil, trail: nil, entries: [], with: commits)
    }

    /// Writes `settings` (with `entries`, as `AuditedChange` says); `earlier`, the values they replace
    /// (nil: unset), is written back over the API when the entries cannot be written.
    func write(_ settings: [String: String], undoing earlier: [String: String?]?, trail: AuditTrail?,
               entries: [AuditEntry], with commits: any CommitStrategy) async throws(ShopError) {
        // The note is dropped while writing, and brought up to date after.
        let kept = await notes?.keptSettings(at: now(), within: PickupNumbers.noteLifetime)
        await notes?.keepSettings([:], at: .distantPast)
        let wanted: [String: String?] = settings.mapValues { $0 }
        var undo: (@Sendable ([Record]) -> [RecordWrite])? = nil
        if let earlier { undo = { _ in Self.writes(earlier) } }
        let change = AuditedChange(Self.writes(wanted), to: store, undo: undo)
        _ = try await change.write(with: commits, trail: trail) { _ in entries }
        if let kept { await notes?.keepSettings(kept.merging(settings) { $1 }, at: now()) }
    }

    /// One upsert of `settings` on `key` (an unset one written empty).
    private static func writes(_ settings: [String: String?]) -> [RecordWrite] {
        guard !settings.isEmpty else { return [] }
        return [.upsert(table: ShopSchema.settingTable, settings.sorted { $0.key < $1.key }.map { key, value in
            Fields([SettingField.key: .string(key), .value: value.map(JSONValue.string) ?? .null])
        }, mergeOn: [SettingField.key.rawValue])]
    }
}
