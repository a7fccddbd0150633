import Airtable
import Foundation

/// The gateway's answers to plain listings of the menu's tables, kept while the upstream says nothing in
/// the table changed.
///
/// Each cached table remembers `since`, a moment a little before its oldest kept answer was read. At most
/// once per `checkInterval` a read asks the upstream, with one request, for one record of the table
/// modified after `since`; if there is one, every answer of the table is dropped. Records deleted
/// elsewhere leave no modified record behind, so answers are also dropped after `maximumAge`, and at once
/// when a write for the table passes through the gateway. Concurrent reads share one check.
actor GatewayReadCache {
    private struct Table {
        var answers: [String: APIResponse] = [:]
        var filledAt: Double = 0
        var since: Double = 0
        var lastCheck: Double = 0
        var check: Task<Bool, Never>?
    }

    private var tables: [String: Table] = [:]
    /// Listings being read from the upstream, so that reads arriving meanwhile wait for the same answer.
    private var loading: [String: Task<APIResponse, Never>] = [:]
    private var checkInterval: Double
    private var maximumAge: Double
    /// How far before an answer's `Date` the check looks (the header counts whole seconds).
    static let margin: Double = 2

    init(checkInterval: Double, maximumAge: Double) {
        self.checkInterval = checkInterval
        self.maximumAge = maximumAge
    }

    /// The kept answer for `target` in `table`, checked with the upstream when a check is due; nil when
    /// there is none or the table changed.
    /// - Parameter changedSince: asks the upstream whether a record changed after a wall-clock second:
    ///   true (changed, or the check failed) or false.
    func answer(table name: String, target: String, now: Double,
                changedSince: @escaping @Sendable (Double) async -> Bool) async -> APIResponse? {
        guard var table = tables[name], let answer = table.answers[target] else { return nil }
        if now - table.filledAt > maximumAge {
            tables[name] = nil
            return nil
        }
        if now - table.lastCheck < checkInterval { return answer }
        let check: Task<Bool, Never>
        if let running = table.check {
            check = running
        } else {
            let since = table.since
            check = Task { await changedSince(since) }
            table.check = check
            tables[name] = table
        }
        let changed = await check.value
        // Another read may have finished the same check first.
        guard var current = tables[name], current.check == check else { return tables[name]?.answers[target] }
        current.check = nil
        if changed {
            tables[name] = nil
            return nil
        }
        current.lastCheck = now
        tables[name] = current
        return current.answers[target]
    }

    /// Keeps a 200 answer read at monotonic `now`; `wallRead` is the upstream's time of the reading.
    func keep(_ answer: APIResponse, table name: String, target: String, now: Double, wallRead: Double) {
        guard answer.status == 200 else { return }
        var table = tables[name] ?? Table()
        if table.answers.isEmpty {
            table.filledAt = now
            table.lastCheck = now
            table.since = wallRead - GatewayReadCache.margin
        }
        table.answers[target] = answer
        tables[name] = table
    }

    /// The answer of `load` for `target`; a read of the same target arriving while it runs shares it
    /// (counters starting together cost one upstream listing, not one each).
    func sharedLoad(target: String, _ load: @escaping @Sendable () async -> APIResponse) async -> APIResponse {
        if let running = loading[target] { return await running.value }
        let task = Task { await load() }
        loading[target] = task
        let answer = await task.value
        loading[target] = nil
        return answer
    }

    /// Changes how often tables are checked and how long answers are kept (slower while webhooks tell
    /// the gateway of changes).
    func pace(checkInterval: Double, maximumAge: Double) {
        self.checkInterval = checkInterval
        self.maximumAge = maximumAge
    }

    /// Forgets every answer of `table` (a write to it passed through).
    func forget(table name: String) {
        tables[name]?.check?.cancel()
        tables[name] = nil
    }

    /// Answers kept, for tests and the log.
    var count: Int { tables.values.reduce(0) { $0 + $1.answers.count } }
}
