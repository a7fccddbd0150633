import Airtable
import AirtableHTTP
import Foundation

/// Sending what the gateway holds (`AirtableGateway+HeldWrites`): ten records a request, within the hold, before
/// any write that touches them, and when the gateway stops; all in the write lane.
extension AirtableGateway {
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

    func send(_ batch: [(id: String, write: HeldWrites.Pending)], table: String) async -> Bool {
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
    func taken(_ batch: [(id: String, write: HeldWrites.Pending)], table: String) async {
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
    func armHeldTimer() {
        guard let held else { return }
        held.state.withLock { state in
            guard state.timer == nil, !state.pending.isEmpty else { return }
            state.timer = Task { await self.heldTimer() }
        }
    }

    func heldTimer() async {
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

}
