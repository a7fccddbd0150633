import Airtable
import AirtableHTTP
import Foundation

/// Held writes: the gateway answers a counter's update of a held table's records (an order's status, its
/// payment copy) from its copy of the table, keeps the write on its disk first (`HeldWriteJournal`), and
/// sends the base what the writes of the last `holdFor` seconds changed, ten records a request. A day's
/// advances and payment copies cost a few hundred requests at the base instead of one each.
///
/// The rules that keep it the base's truth:
/// - everything about a held table goes through the write lane, in the order it arrived: a write that is
///   not a plain update by record id (a create, an upsert, a replace, a delete, one by field id or for a
///   record the copy lacks) first sends every held write of its table, then goes to the base, and its answer
///   updates the copy; a refusal is always the base's own;
/// - reads of the table are answered from the copy, which is checked with the base (records modified since
///   the last check) at most every `checkInterval` and read whole again every `HeldWrites.refillEvery`, so changes made
///   elsewhere (Airtable's grid) show; a read the copy cannot answer (field ids, a view) sends the held writes
///   first and goes to the base;
/// - a held write the base later refuses is dropped, counted and logged, and the copy is read again from
///   the base; one the base could not be reached for stays in the journal and is sent again;
/// - the table is held only when its schema has no computed or linked fields (the copy holds cells, not
///   formulas); otherwise its requests are forwarded as they come.
extension AirtableGateway {
    /// The held table a record request is for, by its exact name; nil when the request is not for one.
    /// Another spelling (other case, the table's id) is not answered from the copy: `heldSpelling` finds it.
    func heldTable(_ route: Route) -> String? {
        guard let held, let table = route.recordTable, held.tables.contains(table) else { return nil }
        return held.state.withLock { $0.unusable[table] } == nil ? table : nil
    }

    /// The held table another spelling of `route`'s table names (its id, another case), or a metadata route of
    /// a held table by any spelling (a field added or changed), if any.
    func heldSpelling(_ route: Route) -> String? {
        guard let held else { return nil }
        let meta = route.metaTableName
        guard let table = route.recordTable ?? meta else { return nil }
        return held.tables.first { name in
            (meta != nil || name != table) && (name.lowercased() == table.lowercased()
                || held.state.withLock { $0.loaded[name]?.tableID } == table)
        }
    }

    /// Answers a record request for held `table`.
    func handleHeld(_ request: APIRequest, route: Route, table: String, method: String, query: String,
                    upstream: TransportRequest) async -> APIResponse {
        guard let held else { return await forward(upstream) }
        let isRead = method == "GET" || method == "HEAD" || { if case .listRecords = route { true } else { false } }()
        if isRead {
            // Field ids and views are the base's own: the copy has neither.
            if Self.asksForFieldIDs(query: query, body: request.body) || Self.namesAView(query: query, body: request.body) {
                return await lane.run { await self.sendHeldThenForward(upstream, table: table, method: method, absorbing: false) }
            }
            let ready = await mirrorReady(table)
            if !ready {
                return await lane.run { await self.sendHeldThenForward(upstream, table: table, method: method, absorbing: false) }
            }
            statistics.withLock { $0.answeredFromCopy += 1 }
            return relayed(await held.mirrorAPI.handle(mirrorRequest(request, held: held)))
        }
        guard method == "PATCH", let writes = Self.holdableWrites(route: route, body: request.body) else {
            return await lane.run {
                let touched = await self.recordsTouched(route: route, method: method, body: request.body, table: table)
                return await self.sendHeldThenForward(upstream, table: table, method: method, only: touched)
            }
        }
        return await lane.run {
            guard await self.loadedInLane(table) else {
                return await self.sendHeldThenForward(upstream, table: table, method: method)
            }
            let answer = await held.mirrorAPI.handle(self.mirrorRequest(request, held: held))
            guard answer.status == 200 else {
                // The base decides what the copy would refuse (a field it has and the copy lacks, a record
                // created elsewhere): the same request goes there, after what is held; if the base takes it, the
                // copy was behind and is read again.
                let forwarded = await self.sendHeldThenForward(upstream, table: table, method: method)
                if forwarded.status == 200 { self.reload(table) }
                return forwarded
            }
            let seqs: [Int]
            do {
                seqs = try await held.journal.append(writes.records.map {
                    (table: table, id: $0.id, fields: $0.fields, typecast: writes.typecast)
                })
            } catch {
                // Not on the disk: not acknowledged, and the copy (which has it) is read again from the base.
                self.reload(table)
                self.configuration.log?("gateway: \(error)")
                return .error(APIError(status: 503, type: "GATEWAY_JOURNAL_FAILED",
                                       message: "The gateway could not keep the write on its disk; it was not made"),
                              retryAfter: 1)
            }
            let now = self.clock.now()
            let full = held.state.withLock { state in
                for (record, seq) in zip(writes.records, seqs) {
                    var pending = state.pending[table, default: [:]][record.id]
                        ?? HeldWrites.Pending(fields: [:], typecast: false, seqs: [], since: now)
                    pending.fields.merge(record.fields) { $1 }
                    pending.typecast = pending.typecast || writes.typecast
                    pending.seqs.append(seq)
                    state.pending[table, default: [:]][record.id] = pending
                }
                return (state.pending[table]?.count ?? 0) >= 10
            }
            self.statistics.withLock { $0.heldWrites += writes.records.count }
            if full {
                Task { await self.lane.run { _ = await self.sendHeld(table) } }
            }
            self.armHeldTimer()
            return self.relayed(answer)
        }
    }

    /// Sends every held write (the gateway stops); returns how many records' writes are still only in
    /// the journal (sent at the next start).
    public func sendHeldWrites() async -> Int {
        guard let held else { return 0 }
        held.state.withLock { $0.timer?.cancel() }
        await lane.run {
            for table in held.tables.sorted() { _ = await self.sendHeld(table) }
        }
        return held.waiting
    }

    /// Starts sending what the journal kept from an earlier run.
    public func resumeHeldWrites() {
        armHeldTimer()
    }
}
