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

    // MARK: - The copy

    /// Whether the copy of `table` can answer now: filled, and checked with the base when a check is due.
    private func mirrorReady(_ table: String) async -> Bool {
        guard let held else { return false }
        let now = clock.now()
        let due: Bool? = held.state.withLock { state in
            guard let loaded = state.loaded[table] else { return nil }
            return now - loaded.lastCheck >= configuration.checkInterval
        }
        if due == false { return true }
        return await lane.run {
            guard await self.loadedInLane(table) else { return false }
            if await self.refreshInLane(table) { return true }
            // The base did not answer the check: every shop write goes through the gateway, so the copy is behind
            // only on changes typed elsewhere; it answers, and the base is asked again after the next interval.
            held.state.withLock { $0.loaded[table]?.lastCheck = self.clock.now() }
            return held.state.withLock { $0.loaded[table] } != nil
        }
    }

    /// Fills the copy of `table` when it is not (in the lane). False when it cannot be filled now.
    func loadedInLane(_ table: String) async -> Bool {
        guard let held else { return false }
        if held.state.withLock({ $0.loaded[table] }) != nil { return true }
        return await fill(table)
    }

    /// Reads `table` whole from the base into the copy (in the lane); the copy as it was stays in use when the
    /// base cannot be read. False when the table cannot be held now.
    private func fill(_ table: String) async -> Bool {
        guard let held else { return false }
        if held.state.withLock({ $0.unusable[table] }) != nil { return false }
        if clock.now() < unreachableUntil.withLock({ $0 }) { return false }
        // The table as the base describes it.
        let base = PercentEncoding.encode(configuration.baseID)
        let schemaAnswer = await upstreamJSON("GET", "/v0/meta/bases/\(base)/tables")
        guard let json = schemaAnswer.json, schemaAnswer.problem == nil, let schema = try? BaseSchema(json: json) else {
            if [401, 403, 404].contains(schemaAnswer.status) {
                unusable(table, "its schema cannot be read with the gateway's token (\(schemaAnswer.problem ?? ""))")
            }
            return false
        }
        guard let described = schema.tables.first(where: { $0.name == table }) else {
            unusable(table, "the base has no table of that name")
            return false
        }
        if let field = described.fields.first(where: { $0.type.isComputed || $0.type == .multipleRecordLinks }) {
            unusable(table, "its field \"\(field.name)\" is \(field.type.rawValue): the gateway's copy holds plain cells only")
            return false
        }
        do {
            let mine = try await held.mirror.schema()
            if let existing = mine.table(table) {
                for field in described.fields where existing.field(field.name) == nil {
                    _ = try await held.mirror.createField(in: existing.id, Self.spec(field))
                }
            } else {
                _ = try await held.mirror.createTable(TableSpec(name: table, fields: described.fields.map(Self.spec)))
            }
        } catch {
            unusable(table, "the gateway's copy cannot take its schema (\(error))")
            return false
        }
        // Every record, page after page.
        let startedAt = clock.now()
        guard let (records, readAt) = await readUpstream(table, formula: nil) else { return false }
        do {
            let present = Set(records.map(\.id))
            let stale = try await held.mirror.allRecords(in: table).map(\.id).filter { !present.contains($0) }
            for start in stride(from: 0, to: stale.count, by: 100) {
                _ = try await held.mirror.deleteRecords(in: table, ids: Array(stale[start..<min(start + 100, stale.count)]))
            }
            try await keepWithHeld(records, table: table)
        } catch {
            configuration.log?("gateway: the copy of \(table) could not be filled: \(error)")
            return false
        }
        held.state.withLock {
            $0.loaded[table] = HeldWrites.Loaded(tableID: described.id, since: readAt - GatewayReadCache.margin,
                                                 lastCheck: startedAt, filledAt: startedAt)
        }
        statistics.withLock { $0.copyFills += 1 }
        return true
    }

    /// Reads again the records modified since the last check (in the lane); the whole table after
    /// `HeldWrites.refillEvery`. False when the base could not be asked.
    private func refreshInLane(_ table: String) async -> Bool {
        guard let held, let loaded = held.state.withLock({ $0.loaded[table] }) else { return false }
        let now = clock.now()
        if now - loaded.lastCheck < configuration.checkInterval { return true }
        if now - loaded.filledAt >= held.refillEvery {
            return await fill(table)
        }
        if now < unreachableUntil.withLock({ $0 }) { return false }
        let stamp = AirtableTimestamp.format(Date(timeIntervalSince1970: loaded.since))
        guard let (records, readAt) = await readUpstream(table, formula: "IS_AFTER(LAST_MODIFIED_TIME(), '\(stamp)')")
        else { return false }
        do { try await keepWithHeld(records, table: table) } catch {
            reload(table)
            return false
        }
        held.state.withLock {
            $0.loaded[table]?.since = readAt - GatewayReadCache.margin
            $0.loaded[table]?.lastCheck = now
        }
        statistics.withLock { $0.freshnessChecks += 1 }
        return true
    }

    /// Every record of `table` at the base matching `formula`, and the base's time of the first page.
    private func readUpstream(_ table: String, formula: String?) async -> ([Record], Double)? {
        var records: [Record] = []
        var offset: String?
        var readAt: Double?
        let path = "/v0/" + PercentEncoding.encode(configuration.baseID) + "/" + PercentEncoding.encode(table)
        repeat {
            var query: [(String, String)] = [("pageSize", "100")]
            if let formula { query.append(("filterByFormula", formula)) }
            if let offset { query.append(("offset", offset)) }
            let requestedAt = wallClock()
            let answer = await forward(TransportRequest(method: "GET", url: configuration.upstream + path + "?"
                                                            + PercentEncoding.query(query), headers: upstreamHeaders(nil)))
            guard answer.status == 200, let json = try? JSONParser.parse(answer.body),
                  let list = json["records"]?.arrayValue else { return nil }
            if readAt == nil { readAt = answer.headerValue("Date").flatMap(AirtableGateway.httpDate) ?? requestedAt }
            for item in list {
                guard let record = try? Record(json: item) else { return nil }
                records.append(record)
            }
            offset = json["offset"]?.stringValue
        } while offset != nil
        return (records, readAt ?? wallClock())
    }

    /// Keeps records as the base answered them, with the writes still held for them on top.
    private func keepWithHeld(_ records: [Record], table: String) async throws(AirtableError) {
        guard let held, !records.isEmpty else { return }
        try await held.mirror.keepRecords(in: table, records)
        let pending = held.state.withLock { $0.pending[table] ?? [:] }
        for record in records {
            guard let write = pending[record.id] else { continue }
            _ = try await held.mirror.updateRecords(in: table, [RecordUpdate(id: record.id, fields: write.fields)],
                                                    replace: false, options: WriteOptions(typecast: write.typecast))
        }
    }

    /// The copy of `table` is read again from the base before it answers anything.
    func reload(_ table: String) {
        held?.state.withLock { $0.loaded[table] = nil }
    }

    private func unusable(_ table: String, _ why: String) {
        held?.state.withLock { $0.unusable[table] = why }
        configuration.log?("gateway: \(table) is not held, its requests go to the base as they come: \(why)")
    }

    // MARK: - Sending held writes

    /// Sends the held writes of `table` first (in the lane), then the request; its answer updates the copy.
    func sendHeldThenForward(_ upstream: TransportRequest, table: String, method: String, absorbing: Bool = true,
                             only: Set<String>? = nil) async -> APIResponse
    {
        if clock.now() < unreachableUntil.withLock({ $0 }) { return unreachable("it did not answer moments ago") }
        guard await sendHeld(table, only: only) else {
            return .error(APIError(status: 503, type: "UPSTREAM_UNREACHABLE",
                                   message: "The gateway could not send the base the writes it holds for \(table), "
                                       + "which come first" + (configuration.unreachableNote.map { "; " + $0 } ?? "")),
                          retryAfter: Int(configuration.unreachablePause.rounded(.up)))
        }
        let answer = await forward(upstream)
        guard absorbing else { return answer }
        await absorb(answer, table: table, method: method, returnsFieldIDs: Self.asksForFieldIDs(query: "", body: upstream.body ?? []))
        return answer
    }

    /// Puts what the base answered to a write into the copy; when unsure, the copy is read again.
    private func absorb(_ answer: APIResponse, table: String, method: String, returnsFieldIDs: Bool) async {
        guard let held, held.state.withLock({ $0.loaded[table] }) != nil else { return }
        guard method != "GET", method != "HEAD" else { return }
        guard answer.status == 200, !returnsFieldIDs, let json = try? JSONParser.parse(answer.body) else {
            // Refused (the base changed nothing), or never sent (the gateway's own 503s): the copy stands. A
            // timeout, or an answer the copy cannot take: the base may or may not have applied it.
            let type = (try? JSONParser.parse(answer.body))?["error"]?["type"]?.stringValue
            let notSent = answer.status == 503 && ["UPSTREAM_UNREACHABLE", "GATEWAY_BUSY"].contains(type ?? "")
            if returnsFieldIDs || !((400..<500).contains(answer.status) || notSent) { reload(table) }
            return
        }
        let items = json["records"]?.arrayValue ?? [json]
        do {
            if method == "DELETE" {
                let ids = items.compactMap { $0["id"]?.stringValue }
                let mine = Set(try await held.mirror.allRecords(in: table).map(\.id))
                let gone = ids.filter { mine.contains($0) }
                if !gone.isEmpty { _ = try await held.mirror.deleteRecords(in: table, ids: gone) }
            } else {
                var records: [Record] = []
                for item in items { records.append(try Record(json: item)) }
                try await held.mirror.keepRecords(in: table, records)
            }
        } catch {
            reload(table)
        }
    }

    /// Sends `table`'s held writes, ten records a request, oldest first (in the lane). False when some
    /// could not be sent now (they stay held); a write the base refuses is dropped and logged.
    func sendHeld(_ table: String, only: Set<String>? = nil) async -> Bool {
        guard let held else { return true }
        let waiting = held.state.withLock { $0.pending[table] ?? [:] }.filter { only?.contains($0.key) ?? true }
        guard !waiting.isEmpty else { return true }
        let ordered = waiting.sorted { ($0.value.seqs.first ?? 0) < ($1.value.seqs.first ?? 0) }
        var batches: [[(id: String, write: HeldWrites.Pending)]] = []
        for typecast in [false, true] {
            let group = ordered.filter { $0.value.typecast == typecast }.map { (id: $0.key, write: $0.value) }
            for start in stride(from: 0, to: group.count, by: 10) {
                batches.append(Array(group[start..<min(start + 10, group.count)]))
            }
        }
        for batch in batches where !(await send(batch, table: table)) {
            held.state.withLock { $0.retryAt = self.clock.now() + min(held.holdFor, 30) }
            return false
        }
        return true
    }

    private func send(_ batch: [(id: String, write: HeldWrites.Pending)], table: String) async -> Bool {
        let body: JSONValue = [
            "records": .array(batch.map { ["id": .string($0.id), "fields": .object($0.write.fields)] }),
            "typecast": .bool(batch.first?.write.typecast ?? false),
        ]
        let path = "/v0/" + PercentEncoding.encode(configuration.baseID) + "/" + PercentEncoding.encode(table)
        let answer = await upstreamJSON("PATCH", path, body: body)
        statistics.withLock { $0.heldBatches += 1 }
        if answer.status == 200 {
            await taken(batch, table: table)
            return true
        }
        // Refused for good: the record is gone, the base will never take the value, or the request is too large.
        // Anything else (a token refused, the base away or busy) keeps the writes held, to be tried again.
        guard [404, 413, 422].contains(answer.status) else { return false }
        // Refused: the base applied none of the batch. Each alone finds the one it refuses.
        if batch.count > 1 {
            for one in batch where !(await send([one], table: table)) { return false }
            return true
        }
        let id = batch[0].id
        reload(table)
        await taken(batch, table: table)
        configuration.log?("gateway: the base refused a held write of \(id) in \(table) (\(answer.problem ?? "")); "
            + "it is dropped and the gateway's copy is read again from the base")
        statistics.withLock { $0.heldRefused += 1 }
        return true
    }

    /// The base has these (or refused them for good): out of the journal and the pending list.
    private func taken(_ batch: [(id: String, write: HeldWrites.Pending)], table: String) async {
        guard let held else { return }
        let seqs = batch.flatMap(\.write.seqs)
        held.state.withLock { state in
            for (id, write) in batch {
                guard var current = state.pending[table]?[id] else { continue }
                current.seqs.removeAll { write.seqs.contains($0) }
                state.pending[table]?[id] = current.seqs.isEmpty ? nil : current
            }
            if state.pending[table]?.isEmpty == true { state.pending[table] = nil }
        }
        do { try await held.journal.markDone(seqs) } catch {
            // The base has them; sending them again after a restart changes nothing there.
            configuration.log?("gateway: \(error.description)")
        }
    }

    /// Makes sure held writes are sent within `holdFor` seconds: one timer task while any wait.
    private func armHeldTimer() {
        guard let held else { return }
        held.state.withLock { state in
            guard state.timer == nil, !state.pending.isEmpty else { return }
            state.timer = Task { await self.heldTimer() }
        }
    }

    private func heldTimer() async {
        guard let held else { return }
        while !Task.isCancelled {
            let due: Double? = held.state.withLock { state in
                let oldest = state.pending.values.flatMap(\.values).map(\.since).min()
                guard let oldest else {
                    state.timer = nil
                    return nil
                }
                return max(oldest + held.holdFor, state.retryAt)
            }
            guard let due else { return }
            do { try await clock.sleep(until: due) } catch { break }
            let now = clock.now()
            await lane.run {
                let tables = held.state.withLock { state in
                    state.pending.filter { $0.value.values.contains { $0.since + held.holdFor <= now } }.map(\.key)
                }
                for table in tables.sorted() { _ = await self.sendHeld(table) }
            }
        }
        held.state.withLock { $0.timer = nil }
    }

    // MARK: - Requests

    /// The records with held writes that a write forwarded to the base may touch, which must reach it first;
    /// nil for all of them. A create touches none; a delete or an update by id, its ids; an upsert, its ids
    /// and every held record whose merge fields hold the same values in the copy (compared loosely, as text
    /// ignoring case: sending more first is always safe).
    func recordsTouched(route: Route, method: String, body: [UInt8], table: String) async -> Set<String>? {
        guard let held else { return nil }
        if case .record(_, _, let id) = route { return [id] }
        if method == "DELETE" {
            // `records[]=rec…` in the query: the gateway cannot see them here, so everything goes first.
            return nil
        }
        guard let json = try? JSONParser.parse(body), let list = json["records"]?.arrayValue else {
            return method == "POST" ? [] : nil
        }
        if method == "POST" { return [] }
        var touched = Set(list.compactMap { $0["id"]?.stringValue })
        guard let upsert = json["performUpsert"], !upsert.isNull else { return touched }
        guard let names = upsert["fieldsToMergeOn"]?.arrayValue?.compactMap(\.stringValue), !names.isEmpty else { return nil }
        let wanted = Set(list.filter { $0["id"] == nil }.map { item in
            names.map { Self.looseText(item["fields"]?[$0]) }
        })
        guard !wanted.isEmpty else { return touched }
        let pending = held.state.withLock { $0.pending[table].map { Array($0.keys) } ?? [] }
        for id in pending {
            guard let record = try? await held.mirror.getRecord(in: table, id: id, options: ReadOptions()) else { return nil }
            if wanted.contains(names.map { Self.looseText(record.fields[$0]) }) { touched.insert(id) }
        }
        return touched
    }

    private static func looseText(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: ""
        case .string(let text)?: text.lowercased()
        case .number(let number)?: number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case let other?: String(decoding: JSONWriter.bytes(other), as: UTF8.self).lowercased()
        }
    }

    /// The same request for the copy, under the copy's own token.
    func mirrorRequest(_ request: APIRequest, held: HeldWrites) -> APIRequest {
        var copy = request
        copy.headers = request.headers.filter { $0.name.lowercased() != "authorization" }
            + [(name: "Authorization", value: "Bearer " + held.mirrorToken)]
        return copy
    }

    /// An answer of the copy, with the headers the base's last answer gave (what an upstream `drinkshop
    /// serve` keeps unique and guards), as a forwarded answer would have.
    func relayed(_ answer: APIResponse) -> APIResponse {
        var headers = answer.headers.filter { $0.name.lowercased() == "content-type" || $0.name.lowercased() == "retry-after" }
        headers += lastRelayedHeaders.withLock { $0 }
        return APIResponse(status: answer.status, headers: headers, body: answer.body)
    }

    /// The records of a PATCH that is a plain update by id (what is held), and its typecast; nil otherwise.
    static func holdableWrites(route: Route, body: [UInt8]) -> (records: [RecordUpdate], typecast: Bool)? {
        guard let json = try? JSONParser.parse(body), let object = json.objectValue else { return nil }
        let allowed: Set<String> = ["records", "fields", "typecast", "returnFieldsByFieldId"]
        guard Set(object.keys).isSubset(of: allowed), json["returnFieldsByFieldId"]?.boolValue != true else { return nil }
        let typecast = json["typecast"]?.boolValue ?? false
        var records: [RecordUpdate] = []
        switch route {
        case .record(_, _, let id):
            guard object["records"] == nil, let fields = json["fields"]?.objectValue else { return nil }
            records = [RecordUpdate(id: id, fields: fields)]
        case .table:
            guard object["fields"] == nil, let list = json["records"]?.arrayValue, (1...10).contains(list.count) else { return nil }
            for item in list {
                guard let object = item.objectValue, Set(object.keys).isSubset(of: ["id", "fields"]),
                      let id = item["id"]?.stringValue, let fields = item["fields"]?.objectValue else { return nil }
                records.append(RecordUpdate(id: id, fields: fields))
            }
        default:
            return nil
        }
        // Fields named by id are the base's ids, which the copy does not have.
        for record in records where record.fields.keys.contains(where: { AirtableID.isValid($0, prefix: "fld") }) {
            return nil
        }
        return (records, typecast)
    }

    /// Whether a read or write asks for fields by id (`returnFieldsByFieldId`, `fields[]=fld…`).
    static func asksForFieldIDs(query: String, body: [UInt8]) -> Bool {
        if query.contains("returnFieldsByFieldId=true") || query.contains("returnFieldsByFieldId=1") { return true }
        let decoded = query.removingPercentEncoding ?? query
        if decoded.contains("=fld") { return true }
        guard !body.isEmpty, let json = try? JSONParser.parse(body) else { return false }
        if json["returnFieldsByFieldId"]?.boolValue == true { return true }
        return (json["fields"]?.arrayValue ?? []).contains { $0.stringValue.map { AirtableID.isValid($0, prefix: "fld") } ?? false }
    }

    /// Whether a read names a view (`view=`), whose filters and order only the base knows.
    static func namesAView(query: String, body: [UInt8]) -> Bool {
        if query.split(separator: "&").contains(where: { $0.hasPrefix("view=") }) { return true }
        guard !body.isEmpty, let json = try? JSONParser.parse(body), let view = json["view"] else { return false }
        return !view.isNull
    }

    /// A field of the base as the copy creates it.
    static func spec(_ field: FieldSchema) -> FieldSpec {
        FieldSpec(name: field.name, type: field.type, description: field.description, options: field.options)
    }
}

extension Route {
    /// The table of a record route (listing, list by POST, one record).
    var recordTable: String? {
        switch self {
        case .table(_, let table), .listRecords(_, let table), .record(_, let table, _): table
        default: nil
        }
    }

    /// The table of a metadata route that changes a table's fields.
    var metaTableName: String? {
        switch self {
        case .fields(_, let table), .metaTable(_, let table), .metaField(_, let table, _): table
        default: nil
        }
    }
}
