import Airtable
import AirtableHTTP
import Foundation
import LocalBase
import Synchronization
import TestSupport
import Testing
@testable import AirtableServer

/// The base behind the gateway: Airtable's API over an embedded base in memory (Airtable's batch of ten, no
/// promise of its own), recording what reaches it.
final class BaseBehind: HTTPTransport {
    static let token = "patUPSTREAM00000000000000"
    static let root = "https://api.example.test"
    let base: LocalBase
    let api: AirtableAPI
    private let seen = Mutex<[TransportRequest]>([])
    /// Set: nothing can connect (the base is away).
    let down = Mutex(false)

    init(clock: TestClock, table: TableSpec) async throws {
        base = try LocalBase.inMemory(clock: clock.date)
        _ = try await base.createTable(table)
        api = AirtableAPI(store: base, baseID: base.baseID, tokens: AccessTokens([(Self.token, .readWrite)]),
                          writeBatch: .airtable)
    }

    func send(_ request: TransportRequest, timeout: Double) async throws(TransportError) -> TransportResponse {
        if down.withLock({ $0 }) { throw TransportError(.notSent, "connection refused (the test's base is away)") }
        let answer = await api.handle(APIRequest(method: request.method, target: String(request.url.dropFirst(Self.root.count)),
                                                 headers: request.headers.map { ($0.key, $0.value) }, body: request.body ?? []))
        // Recorded once answered: a test that sees it may read what it did.
        seen.withLock { $0.append(request) }
        return TransportResponse(status: answer.status, headers: Dictionary(answer.headers.map { ($0.name, $0.value) },
                                                                            uniquingKeysWith: { first, _ in first }),
                                 body: answer.body)
    }

    var requests: [TransportRequest] { seen.withLock { $0 } }
    /// `PATCH OrderDrink` and the like, in order.
    var lines: [String] {
        requests.map { $0.method + " " + ($0.url.split(separator: "?").first.map(String.init) ?? "").split(separator: "/").last.map(String.init)! }
    }
    func forget() { seen.withLock { $0.removeAll() } }

    func fields(_ id: String) async throws -> Fields {
        try await base.getRecord(in: "OrderDrink", id: id, options: ReadOptions()).fields
    }
}

/// A clock whose sleeps end only when the test moves time past them.
final class WaitingClock: ClientClock {
    let clock: TestClock
    private let sleepers = Mutex<[(moment: Double, wake: CheckedContinuation<Void, Never>)]>([])

    init(_ clock: TestClock) { self.clock = clock }

    func now() -> Double { clock.seconds }

    func sleep(until moment: Double) async throws(CancellationError) {
        if moment <= clock.seconds { return }
        await withCheckedContinuation { continuation in
            sleepers.withLock { $0.append((moment, continuation)) }
        }
    }

    /// How many sleeps are waiting for time to move.
    var sleeping: Int { sleepers.withLock { $0.count } }

    func advance(by seconds: Double) {
        clock.advance(by: seconds)
        let now = clock.seconds
        let due = sleepers.withLock { list in
            let due = list.filter { $0.moment <= now }
            list.removeAll { $0.moment <= now }
            return due
        }
        for sleeper in due { sleeper.wake.resume() }
    }
}

final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
}

@Suite("The gateway holds order updates: answered from its copy, on its disk first, sent ten records a request")
struct GatewayHeldWritesTests {
    static let counterToken = "patCOUNTER000000000000000"
    static let readerToken = "patREADER0000000000000000"
    static let table = TableSpec(name: "OrderDrink", fields: [
        FieldSpec(name: "name", type: .singleLineText),
        FieldSpec(name: "ref", type: .singleLineText),
        .singleSelect("status", ["placed", "preparing", "ready", "picked up"]),
        FieldSpec(name: "paid", type: .number, options: ["precision": 0]),
    ])

    struct Setup {
        let clock: TestClock
        let waiting: WaitingClock
        let upstream: BaseBehind
        let gateway: AirtableGateway
        let journal: String
        let logged: LogLines
        var ids: [String]
    }

    /// A base with `orders` records, and a gateway in front of it holding `OrderDrink` for `holdFor` seconds.
    private func setup(orders: Int = 12, holdFor: Double = 60, table: TableSpec = GatewayHeldWritesTests.table,
                       before: (([String], String) async throws -> Void)? = nil) async throws -> Setup {
        let clock = TestClock(Date(timeIntervalSince1970: 1_795_000_000), seconds: 1_000)
        let upstream = try await BaseBehind(clock: clock, table: table)
        var ids: [String] = []
        for start in stride(from: 0, to: orders, by: 10) {
            let made = try await upstream.base.createRecords(in: "OrderDrink", (start..<min(start + 10, orders)).map {
                ["name": .string("c\($0)"), "ref": .string("ref-\($0)"), "status": "placed"]
            }, options: WriteOptions())
            ids += made.map(\.id)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("held-\(UUID().uuidString).jsonl").path
        try await before?(ids, path)
        let held = try await HeldWrites.open(tables: ["OrderDrink"], holdFor: holdFor, mirror: try LocalBase.inMemory(clock: clock.date),
                                  journalPath: path, baseID: upstream.base.baseID)
        let logged = LogLines()
        var configuration = GatewayConfiguration(upstream: BaseBehind.root, baseID: upstream.base.baseID,
                                                 upstreamToken: try #require(AccessToken(BaseBehind.token)),
                                                 checkInterval: 600, maximumAge: 3600)
        configuration.log = { line in logged.lines.withLock { $0.append(line) } }
        let waiting = WaitingClock(clock)
        let gateway = AirtableGateway(configuration: configuration,
                                      tokens: AccessTokens([(Self.counterToken, .readWrite), (Self.readerToken, .read)]),
                                      throttle: RequestThrottle(requestsPerSecond: 1000, burst: 1000), transport: upstream,
                                      clock: waiting, wallClock: { clock.now.timeIntervalSince1970 }, held: held)
        return Setup(clock: clock, waiting: waiting, upstream: upstream, gateway: gateway, journal: path, logged: logged, ids: ids)
    }

    private func request(_ method: String, _ target: String, _ body: String = "", token: String = counterToken) -> APIRequest {
        APIRequest(method: method, target: target, headers: [("Authorization", "Bearer \(token)")], body: Array(body.utf8))
    }

    private func advance(_ setup: Setup, _ id: String, to status: String) async -> APIResponse {
        await setup.gateway.handle(request("PATCH", "/v0/\(setup.upstream.base.baseID)/OrderDrink",
                                           #"{"records":[{"id":"\#(id)","fields":{"status":"\#(status)"}}],"typecast":true}"#))
    }

    /// Waits (really, a little at a time) until `condition` holds, for at most ten seconds (the stress runs are slow).
    private func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<1000 {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test("an update is answered at once from the copy, the base has it within the hold, and nine updates of three records cost one request")
    func heldThenSentTogether() async throws {
        let setup = try await setup()
        let base = setup.upstream.base.baseID
        // The first touch fills the copy: the table's schema and its records.
        let first = await advance(setup, setup.ids[0], to: "preparing")
        #expect(first.status == 200)
        #expect(setup.upstream.lines == ["GET tables", "GET OrderDrink"])
        let answered = try JSONParser.parse(first.body)
        #expect(answered["records"]?.arrayValue?.first?["fields"]?["status"]?.stringValue == "preparing")
        #expect(answered["records"]?.arrayValue?.first?["fields"]?["name"]?.stringValue == "c0")
        setup.upstream.forget()
        for status in ["ready", "picked up"] { #expect(await advance(setup, setup.ids[0], to: status).status == 200) }
        for id in setup.ids[1...2] {
            for status in ["preparing", "ready", "picked up"] { #expect(await advance(setup, id, to: status).status == 200) }
        }
        // Nothing reached the base yet, and the gateway's reads say what the counters wrote.
        #expect(setup.upstream.requests.isEmpty)
        #expect(try await setup.upstream.fields(setup.ids[0])["status"]?.stringValue == "placed")
        let listing = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink?filterByFormula=%7Bstatus%7D%3D'picked%20up'"))
        #expect(try JSONParser.parse(listing.body)["records"]?.arrayValue?.count == 3)
        let one = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink/\(setup.ids[1])"))
        #expect(try JSONParser.parse(one.body)["fields"]?["status"]?.stringValue == "picked up")
        #expect(setup.upstream.requests.isEmpty)
        #expect(setup.gateway.counts.heldWrites == 9)

        setup.waiting.advance(by: 61)
        #expect(try await eventually { setup.upstream.requests.count == 1 })
        #expect(setup.upstream.lines == ["PATCH OrderDrink"])
        for id in setup.ids[0...2] { #expect(try await setup.upstream.fields(id)["status"]?.stringValue == "picked up") }
        #expect(try await setup.upstream.fields(setup.ids[3])["status"]?.stringValue == "placed")
        // Done: the journal is empty again.
        #expect(try await eventually { (try? Data(contentsOf: URL(fileURLWithPath: setup.journal)).count) == 0 })
    }

    @Test("ten records waiting go to the base at once, without waiting for the hold")
    func fullBatchGoesAtOnce() async throws {
        let setup = try await setup()
        for id in setup.ids[0..<9] { #expect(await advance(setup, id, to: "preparing").status == 200) }
        setup.upstream.forget()
        #expect(await advance(setup, setup.ids[0], to: "ready").status == 200)  // still nine records
        try await Task.sleep(for: .milliseconds(50))
        #expect(setup.upstream.requests.isEmpty)
        #expect(await advance(setup, setup.ids[9], to: "preparing").status == 200)
        #expect(try await eventually { setup.upstream.lines == ["PATCH OrderDrink"] })
        let sent = try JSONParser.parse(try #require(setup.upstream.requests.first?.body))
        #expect(sent["records"]?.arrayValue?.count == 10)
        #expect(try await setup.upstream.fields(setup.ids[0])["status"]?.stringValue == "ready")
    }

    @Test("a new order goes to the base without sending what is held; an upsert or delete of a held record sends it first, so the base sees every write in the order it came")
    func orderKeptForTouchedRecords() async throws {
        let setup = try await setup()
        let base = setup.upstream.base.baseID
        #expect(await advance(setup, setup.ids[0], to: "preparing").status == 200)
        #expect(await advance(setup, setup.ids[1], to: "preparing").status == 200)
        setup.upstream.forget()
        // A new order's lines: an upsert matching nothing.
        let created = await setup.gateway.handle(request("PATCH", "/v0/\(base)/OrderDrink",
            #"{"performUpsert":{"fieldsToMergeOn":["ref"]},"records":[{"fields":{"name":"new","ref":"ref-new","status":"placed"}}]}"#))
        #expect(created.status == 200)
        #expect(setup.upstream.lines == ["PATCH OrderDrink"])
        let newID = try #require(try JSONParser.parse(created.body)["records"]?.arrayValue?.first?["id"]?.stringValue)
        // The copy has it: an update of it is held like any other.
        #expect(await advance(setup, newID, to: "preparing").status == 200)
        #expect(setup.upstream.requests.count == 1)

        // An upsert on the merge field of held record 0 (spelt in another case): record 0's held write first.
        setup.upstream.forget()
        let upsert = await setup.gateway.handle(request("PATCH", "/v0/\(base)/OrderDrink",
            #"{"performUpsert":{"fieldsToMergeOn":["ref"]},"records":[{"fields":{"ref":"REF-0","status":"ready"}}]}"#))
        #expect(upsert.status == 200)
        #expect(setup.upstream.lines == ["PATCH OrderDrink", "PATCH OrderDrink"])
        let first = try JSONParser.parse(try #require(setup.upstream.requests.first?.body))
        #expect(first["records"]?.arrayValue?.map { $0["id"]?.stringValue } == [setup.ids[0]])
        // A delete of a held record: its write first, then the delete; the copy forgets it.
        setup.upstream.forget()
        let deleted = await setup.gateway.handle(request("DELETE", "/v0/\(base)/OrderDrink/\(setup.ids[1])"))
        #expect(deleted.status == 200)
        #expect(setup.upstream.lines == ["PATCH OrderDrink", "DELETE \(setup.ids[1])"])
        setup.upstream.forget()
        let gone = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink/\(setup.ids[1])"))
        // Answered as the base answers a record it does not have.
        let there = try await setup.upstream.send(TransportRequest(method: "GET", url: BaseBehind.root + "/v0/\(base)/OrderDrink/\(setup.ids[1])",
                                                                   headers: ["Authorization": "Bearer \(BaseBehind.token)"]), timeout: 5)
        #expect(gone.status == there.status && gone.body == there.body)
        #expect(there.status >= 400)
        setup.upstream.forget()
        // A view is the base's own: the read goes there, after the new order's held update.
        setup.upstream.forget()
        let viewed = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink?view=Grid%20view&pageSize=1"))
        #expect(viewed.status == 200)
        #expect(setup.upstream.lines == ["PATCH OrderDrink", "GET OrderDrink"])
        #expect(await advance(setup, newID, to: "ready").status == 200)
        setup.upstream.forget()
        // The table by another spelling goes to the base as sent, after everything held.
        let lower = await setup.gateway.handle(request("GET", "/v0/\(base)/orderdrink?pageSize=1"))
        #expect(lower.status == 200)
        #expect(setup.upstream.lines == ["PATCH OrderDrink", "GET orderdrink"])
        #expect(try await setup.upstream.fields(newID)["status"]?.stringValue == "ready")
    }

    @Test("a read-only token holds nothing, and a write the copy refuses is the base's to refuse")
    func refusalsAreTheBases() async throws {
        let setup = try await setup()
        let base = setup.upstream.base.baseID
        let readOnly = await setup.gateway.handle(request("PATCH", "/v0/\(base)/OrderDrink",
            #"{"records":[{"id":"\#(setup.ids[0])","fields":{"status":"ready"}}]}"#, token: Self.readerToken))
        #expect(readOnly.status == 403)
        #expect(setup.upstream.requests.isEmpty)
        // A choice the table lacks, without typecast: the copy refuses, so the request goes to the base, which does.
        let bad = await setup.gateway.handle(request("PATCH", "/v0/\(base)/OrderDrink",
            #"{"records":[{"id":"\#(setup.ids[0])","fields":{"status":"lost"}}]}"#))
        #expect(bad.status == 422)
        #expect(setup.upstream.lines.last == "PATCH OrderDrink")
        #expect(setup.gateway.counts.heldWrites == 0)
        #expect(try await setup.upstream.fields(setup.ids[0])["status"]?.stringValue == "placed")
    }

    @Test("a held write the base refuses when it is sent (the record was deleted in Airtable's grid) is dropped, logged, and the copy is read again")
    func refusedWhenSent() async throws {
        let setup = try await setup()
        let base = setup.upstream.base.baseID
        #expect(await advance(setup, setup.ids[0], to: "preparing").status == 200)
        #expect(await advance(setup, setup.ids[1], to: "preparing").status == 200)
        _ = try await setup.upstream.base.deleteRecords(in: "OrderDrink", ids: [setup.ids[1]])
        setup.upstream.forget()
        setup.waiting.advance(by: 61)
        // The batch of two is refused whole; each alone finds the one it was.
        #expect(try await eventually { setup.gateway.counts.heldRefused == 1 })
        #expect(setup.upstream.lines == ["PATCH OrderDrink", "PATCH OrderDrink", "PATCH OrderDrink"])
        #expect(try await setup.upstream.fields(setup.ids[0])["status"]?.stringValue == "preparing")
        #expect(setup.logged.lines.withLock { $0 }.contains { $0.contains("refused a held write of \(setup.ids[1])") })
        let listing = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink"))
        #expect(try JSONParser.parse(listing.body)["records"]?.arrayValue?.count == 11)
    }

    @Test("changes made at the base itself show in the copy at the next check, under the writes still held")
    func changesElsewhereShow() async throws {
        let setup = try await setup()
        let base = setup.upstream.base.baseID
        #expect(await advance(setup, setup.ids[0], to: "preparing").status == 200)
        setup.clock.advance(by: 1)
        _ = try await setup.upstream.base.updateRecords(in: "OrderDrink", [
            RecordUpdate(id: setup.ids[0], fields: ["name": "renamed in the grid"]),
            RecordUpdate(id: setup.ids[5], fields: ["name": "also renamed"]),
        ], replace: false, options: WriteOptions())
        let before = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink/\(setup.ids[5])"))
        #expect(try JSONParser.parse(before.body)["fields"]?["name"]?.stringValue == "c5")
        setup.clock.advance(by: 600)
        setup.upstream.forget()
        let after = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink/\(setup.ids[5])"))
        #expect(try JSONParser.parse(after.body)["fields"]?["name"]?.stringValue == "also renamed")
        #expect(setup.upstream.lines == ["GET OrderDrink"])
        let held = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink/\(setup.ids[0])"))
        let fields = try JSONParser.parse(held.body)["fields"]
        #expect(fields?["name"]?.stringValue == "renamed in the grid")
        #expect(fields?["status"]?.stringValue == "preparing")
        // A field added through the gateway (by any spelling of the table): the copy is read again, with it.
        let field = await setup.gateway.handle(request("POST", "/v0/meta/bases/\(base)/tables/OrderDrink/fields",
                                                       #"{"name":"note","type":"singleLineText"}"#))
        #expect(field.status == 200)
        let noted = await setup.gateway.handle(request("PATCH", "/v0/\(base)/OrderDrink",
            #"{"records":[{"id":"\#(setup.ids[2])","fields":{"note":"less ice"}}]}"#))
        #expect(noted.status == 200)
        #expect(setup.gateway.counts.heldWrites == 2)
        // A record deleted in the grid leaves no modified record: it leaves the copy at the day's refill.
        _ = try await setup.upstream.base.deleteRecords(in: "OrderDrink", ids: [setup.ids[7]])
        setup.clock.advance(by: 601)
        let checked = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink"))
        #expect(try JSONParser.parse(checked.body)["records"]?.arrayValue?.count == 12)
        setup.clock.advance(by: 86_400)
        let refilled = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink"))
        let records = try JSONParser.parse(refilled.body)["records"]?.arrayValue ?? []
        #expect(records.count == 11)
        #expect(records.first { $0["id"]?.stringValue == setup.ids[0] }?["fields"]?["status"]?.stringValue == "preparing")
    }

    @Test("while the base is away, the copy still answers the order updates and the listings, new orders are refused at once, and what was held reaches the base once it is back")
    func copyAnswersWhileTheBaseIsAway() async throws {
        let setup = try await setup()
        let base = setup.upstream.base.baseID
        #expect(await advance(setup, setup.ids[0], to: "preparing").status == 200)  // fills the copy
        setup.upstream.down.withLock { $0 = true }
        // A new order finds the base away first: refused, never sent, and the copy stands.
        let first = await setup.gateway.handle(request("PATCH", "/v0/\(base)/OrderDrink",
            #"{"performUpsert":{"fieldsToMergeOn":["ref"]},"records":[{"fields":{"name":"first","ref":"ref-first"}}]}"#))
        #expect(first.status == 503)
        let still = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink/\(setup.ids[0])"))
        #expect(try JSONParser.parse(still.body)["fields"]?["status"]?.stringValue == "preparing")
        setup.clock.advance(by: 700)  // a check is due, and the base does not answer it
        let listing = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink?filterByFormula=%7Bstatus%7D%3D'preparing'"))
        #expect(listing.status == 200)
        #expect(try JSONParser.parse(listing.body)["records"]?.arrayValue?.count == 1)
        #expect(await advance(setup, setup.ids[0], to: "ready").status == 200)
        #expect(await advance(setup, setup.ids[1], to: "preparing").status == 200)
        let created = await setup.gateway.handle(request("PATCH", "/v0/\(base)/OrderDrink",
            #"{"performUpsert":{"fieldsToMergeOn":["ref"]},"records":[{"fields":{"name":"new","ref":"ref-new"}}]}"#))
        #expect(created.status == 503)
        #expect(try JSONParser.parse(created.body)["error"]?["type"]?.stringValue == "UPSTREAM_UNREACHABLE")
        // The hold passes while the base is away: nothing is lost, it is tried again (once the failed attempt is
        // made and the gateway waits to try again).
        setup.waiting.advance(by: 61)
        #expect(try await eventually { setup.gateway.counts.heldBatches >= 1 && setup.waiting.sleeping == 1 })
        #expect(setup.gateway.counts.heldRefused == 0)
        setup.upstream.down.withLock { $0 = false }
        setup.waiting.advance(by: 31)
        #expect(try await eventually { try await setup.upstream.fields(setup.ids[1])["status"]?.stringValue == "preparing" })
        #expect(try await setup.upstream.fields(setup.ids[0])["status"]?.stringValue == "ready")
    }

    @Test("the journal keeps what was acknowledged and not sent: one gateway at a time, a line torn by a crash dropped")
    func journalKeepsWhatIsLeft() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("held-\(UUID().uuidString).jsonl").path
        do {
            let journal = try await HeldWriteJournal.open(path: path)
            _ = try await journal.append([(table: "OrderDrink", id: "recAAAAAAAAAAAAAA", fields: ["status": "ready"], typecast: true),
                                          (table: "OrderDrink", id: "recBBBBBBBBBBBBBB", fields: ["status": "preparing"], typecast: false)])
            _ = try await journal.append([(table: "OrderDrink", id: "recAAAAAAAAAAAAAA", fields: ["paid": 50], typecast: true)])
            // A second gateway for the same base cannot take the journal while this one has it.
            await #expect(throws: HeldWriteJournal.Failure.self) { try await HeldWriteJournal.open(path: path) }
            try await journal.markDone([2])
        }
        // The process died while writing a line: never synced, never acknowledged, dropped.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":4,"table":"OrderDr"#.utf8))
        try handle.close()
        do {
            let reopened = try await HeldWriteJournal.open(path: path)
            #expect(reopened.pending.map(\.seq) == [1, 3])
            #expect(reopened.pending.map(\.fields) == [["status": "ready"], ["paid": 50]])
            #expect(reopened.pending.map(\.typecast) == [true, true])
            try await reopened.markDone([1, 3])
        }
        // Nothing left: the file is emptied.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        // A damaged line that is not the last stops the gateway with its number.
        try Data("{\"seq\":1,\"table\":\"T\",\"id\":\"recA\",\"fields\":{}}\nnot json\n{\"done\":[1]}\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        await #expect { try await HeldWriteJournal.open(path: path) } throws: { "\($0)".contains("damaged at line 2") }
    }

    @Test("a gateway started with writes left in the journal (the last one was killed) sends them at once, and its copy shows them")
    func leftFromTheLastRunGoFirst() async throws {
        let setup = try await setup { ids, path in
            // What a killed gateway left: acknowledged writes, one of them sent and marked done.
            let journal = try await HeldWriteJournal.open(path: path)
            _ = try await journal.append([(table: "OrderDrink", id: ids[0], fields: ["status": "ready"], typecast: false),
                                          (table: "OrderDrink", id: ids[1], fields: ["status": "picked up"], typecast: false)])
            _ = try await journal.append([(table: "OrderDrink", id: ids[0], fields: ["paid": 60], typecast: false)])
            try await journal.markDone([2])
        }
        let base = setup.upstream.base.baseID
        // Before anything is sent, the copy already answers with them.
        let read = await setup.gateway.handle(request("GET", "/v0/\(base)/OrderDrink/\(setup.ids[0])"))
        #expect(try JSONParser.parse(read.body)["fields"]?["paid"]?.intValue == 60)
        setup.upstream.forget()
        setup.gateway.resumeHeldWrites()
        #expect(try await eventually { setup.upstream.lines == ["PATCH OrderDrink"] })
        let sent = try JSONParser.parse(try #require(setup.upstream.requests.first?.body))
        #expect(sent["records"]?.arrayValue?.map { $0["id"]?.stringValue } == [setup.ids[0]])
        #expect(try await setup.upstream.fields(setup.ids[0])["status"]?.stringValue == "ready")
        #expect(try await setup.upstream.fields(setup.ids[0])["paid"]?.intValue == 60)
        #expect(try await setup.upstream.fields(setup.ids[1])["status"]?.stringValue == "placed")
    }
}
