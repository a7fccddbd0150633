import Airtable
import AirtableHTTP
import Foundation

/// The held tables' copy (`AirtableGateway+HeldWrites`): filled from the base, checked with it, read whole once a
/// day, and given what the base answers to writes forwarded to it. Everything that changes it runs in the write lane.
extension AirtableGateway {

    /// Whether the copy of `table` can answer now: filled, and checked with the base when a check is due.
    func mirrorReady(_ table: String) async -> Bool {
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
    func fill(_ table: String) async -> Bool {
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
    func refreshInLane(_ table: String) async -> Bool {
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
    func readUpstream(_ table: String, formula: String?) async -> ([Record], Double)? {
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
    func keepWithHeld(_ records: [Record], table: String) async throws(AirtableError) {
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

    func unusable(_ table: String, _ why: String) {
        held?.state.withLock { $0.unusable[table] = why }
        configuration.log?("gateway: \(table) is not held, its requests go to the base as they come: \(why)")
    }

    /// Puts what the base answered to a write into the copy; when unsure, the copy is read again.
    func absorb(_ answer: APIResponse, table: String, method: String, returnsFieldIDs: Bool) async {
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
}
