import Airtable
import Foundation
import Synchronization

/// What the gateway needs to hold a table's updates: the tables, how long, the copy it answers from and
/// the journal that keeps the held writes on its disk (see `AirtableGateway+HeldWrites`).
///
/// The copy (`mirror`, an in-memory embedded base in the program) holds every record of each held table as the
/// base answered it, with the held writes applied on top; it is filled from the base when first needed and
/// again whenever the gateway cannot be sure of it, so nothing of it needs to survive the process: the
/// journal does.
public final class HeldWrites: Sendable {
    /// The tables, by the name the counters use (`OrderDrink`).
    public let tables: Set<String>
    /// A held write is sent to the base at most this many seconds after it was answered (sooner when ten
    /// records of its table wait: one full request).
    public let holdFor: Double
    /// The copy is read whole from the base this often, in seconds (the checks in between find records changed
    /// elsewhere, not records deleted there): a day by default, as a table of a year of orders is hundreds of pages.
    public let refillEvery: Double
    let mirror: any RecordKeeping
    let mirrorAPI: AirtableAPI
    let mirrorToken: String
    let journal: HeldWriteJournal

    struct Pending: Sendable {
        var fields: Fields
        var typecast: Bool
        var seqs: [Int]
        /// Monotonic seconds when the first of them was answered.
        var since: Double
    }

    struct Loaded: Sendable {
        /// The table's id at the base (`tbl…`).
        var tableID: String
        /// Wall-clock seconds a little before the last reading of the base: records modified after it are
        /// read again at the next check.
        var since: Double
        var lastCheck: Double
        var filledAt: Double
    }

    struct State: Sendable {
        var loaded: [String: Loaded] = [:]
        /// Tables that cannot be held at this base, and why (their requests are forwarded as they come).
        var unusable: [String: String] = [:]
        /// Held writes not yet taken by the base, by table and record.
        var pending: [String: [String: Pending]] = [:]
        var timer: Task<Void, Never>?
        /// Monotonic seconds before which a failed send is not tried again.
        var retryAt: Double = 0
    }
    let state = Mutex(State())

    /// Opens the journal (on a thread of its own: reading and trimming the file blocks) and makes the holder.
    /// - Parameters:
    ///   - mirror: an empty base of the program's own (the embedded one, in memory), used for nothing else.
    ///   - journalPath: a file on the gateway's disk; writes it still holds from an earlier run are sent first.
    public static func open(tables: Set<String>, holdFor: Double, refillEvery: Double = 86_400, mirror: any RecordKeeping,
                            journalPath: String, baseID: String) async throws(AirtableError) -> HeldWrites
    {
        let journal: HeldWriteJournal
        do { journal = try await HeldWriteJournal.open(path: journalPath) } catch { throw .transport(error.description) }
        return HeldWrites(tables: tables, holdFor: holdFor, refillEvery: refillEvery, mirror: mirror, journal: journal,
                          baseID: baseID)
    }

    private init(tables: Set<String>, holdFor: Double, refillEvery: Double, mirror: any RecordKeeping,
                 journal: HeldWriteJournal, baseID: String) {
        self.journal = journal
        self.tables = tables
        self.holdFor = holdFor
        self.refillEvery = refillEvery
        self.mirror = mirror
        let token = AccessTokens.generateToken()
        mirrorToken = token
        // Airtable's batch of ten, and none of the server's own promises: the mirror answers as the base would.
        mirrorAPI = AirtableAPI(store: mirror, baseID: baseID, tokens: AccessTokens([(token, .readWrite)]),
                                writeBatch: .airtable)
        // Left from an earlier run: due at once.
        let now = -Double.infinity
        var pending: [String: [String: Pending]] = [:]
        for entry in journal.pending {
            var held = pending[entry.table, default: [:]][entry.id]
                ?? Pending(fields: [:], typecast: false, seqs: [], since: now)
            held.fields.merge(entry.fields) { $1 }
            held.typecast = held.typecast || entry.typecast
            held.seqs.append(entry.seq)
            pending[entry.table, default: [:]][entry.id] = held
        }
        state.withLock { $0.pending = pending }
    }

    /// How many records have writes the base does not have yet.
    public var waiting: Int { state.withLock { $0.pending.values.reduce(0) { $0 + $1.count } } }
}
