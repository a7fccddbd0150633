import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation
import Synchronization

/// Hands out pickup numbers (取餐號) that are unique among a business day's orders, even when several
/// counters write at once, using nothing but the record API and without trusting upserts to be atomic
/// (Airtable does not document what two concurrent upserts on one key do).
///
/// A claim of number `n` creates a new ticket record (a plain create: it never overwrites anyone's
/// ticket) and then lists the day's tickets numbered `n` or more. The claim holds only when this
/// counter's ticket is the strictly earliest-created ticket numbered `n`. Of two tickets for one number,
/// the later one's creator lists after its own create, so it sees the earlier one and gives way; the
/// earlier one may not see the later one, but it is the one that holds. Tickets created in the same
/// instant both give way. A ticket that gave way is deleted, so it blocks no one. So two counters can
/// never both keep a number; a retried claim whose answer was lost leaves a gap, never a duplicate.
///
/// Progress under a crowd: where creation times are whole seconds (Airtable's may be), every claimant of
/// one number in one second ties, so claimants that all retried the next number would tie again for the
/// whole second. Instead, a claimant that lost or tied picks its next number at random among the lowest
/// free ones the check showed, among twice as many as there are claimants about (see `spreadCandidate`):
/// most claimants then try different numbers and hold them at once, so a claim takes a few tries
/// whatever the number of counters, at the price of a few numbers skipped in a rush.
///
/// Requests per claim: 2 (create + check) when this process, or another of this machine less than 30 s
/// before (through the outbox's notes), knows the day's numbers; 3 otherwise (reading the highest first);
/// 3 more per lost race (delete, create, check). `maximumAttempts` is a safety net, not a limit a rush
/// reaches: each try holds with a probability of about a half or more.
final class PickupNumbers: Sendable {
    private let store: any RecordStore
    private let table: String
    /// The next number worth trying, per business day (a hint; the store decides).
    private let hints = Mutex<[BusinessDay: Int]>([:])
    /// The number of this process's last atomic claim, per business day.
    private let atomicClaims = Mutex<[BusinessDay: Int]>([:])
    /// Numbers this process claimed and has not given out yet (one business day's), and how many a claim
    /// takes at once.
    private let held = Mutex<[BusinessDay: [Int]]>([:])
    private let holdCount = Mutex(1)
    /// Set when the store refused a ticket for a key another holds (a server that keeps keys unique, met before
    /// its header was: through a gateway, say): claims are then made by create alone (`claimKept`).
    private let refusesDuplicateKeys = Mutex(false)
    static let maximumAttempts = 50
    /// How many creates whose answer was lost a claim tries past (a few, so a store that is down still
    /// sends the order to the outbox soon).
    static let lostCreateRetries = 2
    /// A check reads at most this many tickets; a guess further behind than that is simply retried past
    /// the highest number it saw.
    static let checkPageSize = 100

    /// Where a one-shot process finds the hint the previous one left (nil: hints live in this process only).
    private let notes: Outbox?
    private let now: @Sendable () -> Date
    /// How long a hint left by another process is worth trying (older ones cost more than reading).
    static let noteLifetime: TimeInterval = 30

    /// - Parameters:
    ///   - table: the ticket table (`PickupTicket`; the outbox keeps its own for provisional numbers).
    ///   - notes: the counter's outbox, to hand the next number on to the next process of this machine.
    ///   - now: the shop's clock (for the age of a note).
    init(store: any RecordStore, table: String = ShopSchema.ticketTable, notes: Outbox? = nil,
         now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.table = table
        self.notes = notes
        self.now = now
    }

    /// Claims the next free number of `day`: one this process holds already (see `hold`), else a new one
    /// (with `hold` above 1, that many at once, the rest kept for the next orders).
    func claim(day: BusinessDay) async throws(ShopError) -> Int {
        // Numbers this process holds first, whatever the store: held by the check that took them, they are this
        // counter's (a REPL started while `serve` was away claims ten before it sees the server's header; dropping
        // them would skip nine numbers).
        if let kept = held.withLock({ held -> Int? in
            guard var numbers = held[day], !numbers.isEmpty else { return nil }
            let first = numbers.removeFirst()
            held = [day: numbers]
            return first
        }) {
            return kept
        }
        // A server that keeps the ticket's key unique (`drinkshop serve`) answers the claim itself: numbers are
        // taken one at a time, in order, with no gap but where a create's answer was lost.
        if store.keepsUnique(TicketField.key.rawValue, in: table) || refusesDuplicateKeys.withLock({ $0 }) {
            return try await claimKept(day: day)
        }
        let numbers = try await claimNumbers(day: day, count: holdCount.withLock { $0 })
        held.withLock { $0 = [day: Array(numbers.dropFirst())] }
        return numbers[0]
    }

    /// How many numbers a claim takes at once (1 unless set): a counter that stays open (the REPL) takes
    /// ten with the requests one costs, and gives them to its next orders without asking the store. Numbers
    /// then go by tens per counter when several counters take orders at once (#1-#10 at one, #11-#20 at
    /// the other), and a counter's unused ones are gaps when it closes.
    func hold(_ count: Int) {
        holdCount.withLock { $0 = min(max(count, 1), PickupNumbers.maximumHold) }
    }

    /// At most one create request's worth of tickets (Airtable takes 10 records per request).
    static let maximumHold = 10

    /// The number worth trying first: this process's hint, else the one another process of this machine noted
    /// in the last 30 s, else the day's highest plus one (one read).
    private func firstCandidate(day: BusinessDay) async throws(ShopError) -> Int {
        if let hint = hints.withLock({ $0[day] }) { return hint }
        if let hint = await notes?.pickupHint(day: day, at: now(), within: PickupNumbers.noteLifetime) { return hint }
        return try await highestClaimed(day: day) + 1
    }

    /// Claims the next number of `day` on a store that refuses a second ticket for one key: the create holds its
    /// number or is refused (`isDuplicateKey`), so no check is read back and no number is spread over. One request
    /// when this process's hint is right; two more (the highest, then the create) when another counter took it.
    private func claimKept(day: BusinessDay) async throws(ShopError) -> Int {
        var candidate = try await firstCandidate(day: day)
        var lostCreates = 0
        for _ in 0..<PickupNumbers.maximumAttempts {
            do {
                _ = try await store.createRecords(in: table, [Self.ticket(day: day, number: candidate)], options: WriteOptions())
            } catch where error.isDuplicateKey {
                candidate = max(candidate + 1, try await highestClaimed(day: day) + 1)
                continue
            } catch where error.isUnreachable && lostCreates < PickupNumbers.lostCreateRetries {
                // Not sent, or its answer lost: the same create again is safe here. If the first was written, the
                // second is refused as a duplicate and the claim goes on past it (that number, ours, is a gap);
                // if it was not, the number is taken now, with no gap.
                lostCreates += 1
                continue
            } catch {
                throw .store(error)
            }
            let next = candidate + 1
            hints.withLock { $0[day] = max($0[day] ?? 0, next) }
            await notes?.setPickupHint(next, day: day, at: now())
            return candidate
        }
        throw .pickupNumbersExhausted(attempts: PickupNumbers.maximumAttempts)
    }

    /// Claims up to `count` consecutive numbers of `day` with one create and one check: the tickets that
    /// hold their number (see the type's rule, applied to each) are kept, the others withdrawn.
    private func claimNumbers(day: BusinessDay, count: Int) async throws(ShopError) -> [Int] {
        var candidate = try await firstCandidate(day: day)
        var lostCreates = 0
        // After a clash the claim asks for one number only, so counters that keep colliding (creation
        // times may be whole seconds) overlap as little as possible.
        var count = count
        for attempt in 0..<PickupNumbers.maximumAttempts {
            if attempt > 0 { count = 1 }
            let wanted = Array(candidate..<(candidate + count))
            let created: [Record]
            do {
                created = try await store.createRecords(in: table, wanted.map { Self.ticket(day: day, number: $0) },
                                                        options: WriteOptions())
            } catch where error.isDuplicateKey {
                // The store keeps keys unique after all (nothing of the batch was written): claim as it allows.
                refusesDuplicateKeys.withLock { $0 = true }
                held.withLock { $0 = [:] }
                return [try await claimKept(day: day)]
            } catch where error.isUnreachable && lostCreates < PickupNumbers.lostCreateRetries {
                // The answer was lost: the tickets may exist, so the client does not send them again. If one
                // was written first for its number, nobody will keep that number (a gap): claim past them
                // instead. At most `lostCreateRetries` times, so a store that is down still sends the order
                // to the outbox soon.
                lostCreates += 1
                candidate += count
                continue
            } catch {
                throw .store(error)
            }
            guard created.count == wanted.count else {
                throw .store(.decoding("creating \(wanted.count) pickup tickets answered \(created.count) records"))
            }
            let check = try await tickets(day: day, from: candidate)
            let highest = check.records.compactMap { $0.fields[TicketField.number]?.intValue }.max() ?? candidate
            let outcomes = zip(created, wanted).map { mine, number in
                check.complete ? PickupNumbers.outcome(of: mine, number: number, among: check.records) : .taken
            }
            let kept = zip(wanted, outcomes).filter { $0.1 == .held }.map(\.0)
            // Given way: those tickets are withdrawn so they block no one (only a ticket that does not hold
            // its number is ever removed, so no held number is ever freed). One that cannot be withdrawn
            // only leaves a gap.
            let withdrawn = zip(created, outcomes).filter { $0.1 != .held }.map(\.0.id)
            if !withdrawn.isEmpty { _ = try? await store.deleteRecords(in: table, ids: withdrawn) }
            if !kept.isEmpty {
                let next = hints.withLock { hints in
                    hints[day] = max(hints[day] ?? 0, highest + 1)
                    return hints[day] ?? highest + 1
                }
                await notes?.setPickupHint(next, day: day, at: now())
                return kept
            }
            // Lost to an older ticket, or tied with tickets of the same instant (where creation times are
            // whole seconds, every claim of that second ties): the claimants spread over the free numbers
            // instead of all trying the next one together, so most of them hold at the next try.
            var random = SystemRandomNumberGenerator()
            candidate = check.complete
                ? PickupNumbers.spreadCandidate(from: candidate, mine: created, among: check.records, using: &random)
                : highest + 1
            // ...and pause a random moment, so they stop arriving together.
            await PickupNumbers.backOff(attempt: attempt + 1)
        }
        throw .pickupNumbersExhausted(attempts: PickupNumbers.maximumAttempts)
    }

    /// On a store that commits several calls as one (the embedded base): claims the next number of `day`
    /// and runs `write` with it, in one durable commit. No other writer comes in between, so the day's
    /// highest ticket plus one is free without a read-back. The ticket is still written, so counters that
    /// reach the same base over the API (`drinkshop serve`) see it and give way by the rule above (it is
    /// older than any ticket of theirs for that number).
    func claimAtomically<T: Sendable>(day: BusinessDay, in store: any AtomicRecordStore,
                                      then write: @escaping @Sendable (Int, any RecordTransaction) throws(AirtableError) -> T)
        async throws(ShopError) -> (number: Int, result: T)
    {
        let table = table
        // After this process's first claim of the day, the number after its last one is tried by its key
        // (an index lookup) and taken when free; only when another counter has it is the day read again.
        let next = atomicClaims.withLock { $0[day] }.map { $0 + 1 }
        let claimed: (number: Int, result: T)
        do {
            claimed = try await store.atomically { (transaction) throws(AirtableError) -> (number: Int, result: T) in
                var number: Int
                if let next, try !transaction.containsRecord(in: table, field: TicketField.key.rawValue,
                                                             text: Self.key(day: day, number: next)) {
                    number = next
                } else {
                    number = (try transaction.listRecords(in: table, query: Self.highestQuery(day: day)).records.first?
                        .fields[TicketField.number]?.intValue ?? 0) + 1
                }
                _ = try transaction.createRecords(in: table, [Self.ticket(day: day, number: number)], options: WriteOptions())
                return (number, try write(number, transaction))
            }
        } catch {
            throw .store(error)
        }
        atomicClaims.withLock { $0[day] = claimed.number }
        return claimed
    }

    /// The key of the ticket for `number` of `day`, unique to it.
    private static func key(day: BusinessDay, number: Int) -> String { "\(day)#\(number)" }

    static func ticket(day: BusinessDay, number: Int) -> Fields {
        Fields([TicketField.key: .string(key(day: day, number: number)), .businessDay: .string(day.description), .number: .int(number)])
    }

    /// The day's highest ticket (one record, or none).
    private static func highestQuery(day: BusinessDay) -> ListQuery {
        ListQuery(filterByFormula: (FormulaExpression.field(TicketField.businessDay) == .text(day.description)).description,
                  sort: [SortKey(field: TicketField.number.rawValue, direction: .descending)],
                  fields: [TicketField.number.rawValue],
                  pageSize: 1, maxRecords: 1)
    }

    enum Outcome: Equatable { case held, tied, taken }

    /// `held` when `mine` is the strictly earliest-created ticket numbered `number` in `tickets`, `tied`
    /// when no ticket is older but one was created in the same instant, `taken` otherwise. Counters' letters are
    /// claimed by the same rule (`CounterLetters`: their records have a `number` too).
    static func outcome(of mine: Record, number: Int, among tickets: [Record]) -> Outcome {
        let rivals = tickets.filter { $0.fields[TicketField.number]?.intValue == number && $0.id != mine.id }
        guard tickets.contains(where: { $0.id == mine.id }) else { return .taken }
        if rivals.contains(where: { $0.createdTime < mine.createdTime }) { return .taken }
        return rivals.contains(where: { $0.createdTime == mine.createdTime }) ? .tied : .held
    }

    /// How far apart clashing claimants spread at most: enough free numbers for the busiest rush of
    /// counters, few enough that the gaps the unlucky picks leave stay small.
    static let maximumSpread = 32

    /// Where a claim that lost or tied at `candidate` tries next: one of the lowest free numbers from
    /// `candidate` up (free: no other claimant's ticket in the check's `tickets`; a number whose tickets
    /// tied counts as taken, since the other claimant may have decided before this one's ticket arrived),
    /// picked at random among twice as many as there are claimants in the race (this one, and every
    /// other ticket that is not the one earliest of its number: tickets whose claim is failing now). So
    /// each claimant most likely picks a number no other one picks, and holds it at the next try,
    /// however many counters rush at once; a claimant alone that lost to an older ticket tries one of the
    /// next two free numbers. The rule that decides who holds a number stays the same: the pick only
    /// spreads the tries.
    static func spreadCandidate(from candidate: Int, mine: [Record], among tickets: [Record],
                                using random: inout some RandomNumberGenerator) -> Int
    {
        let ownIDs = Set(mine.map(\.id))
        let others = tickets.filter { !ownIDs.contains($0.id) }
        let taken = Set(others.compactMap { $0.fields[TicketField.number]?.intValue })
        let byNumber = Dictionary(grouping: tickets) { $0.fields[TicketField.number]?.intValue ?? 0 }
        let failing = others.filter { ticket in
            let rivals = byNumber[ticket.fields[TicketField.number]?.intValue ?? 0] ?? []
            return rivals.contains { $0.id != ticket.id && $0.createdTime <= ticket.createdTime }
        }.count
        let width = min(max(2, (1 + failing) * 2), maximumSpread)
        var free: [Int] = []
        var number = candidate
        while free.count < width {
            if !taken.contains(number) { free.append(number) }
            number += 1
        }
        return free[Int.random(in: 0..<free.count, using: &random)]
    }

    /// The day's tickets numbered `from` or more, highest first; `complete` is false when there were
    /// more than one page of them (then the ones numbered `from` may be missing).
    private func tickets(day: BusinessDay, from number: Int) async throws(ShopError) -> (records: [Record], complete: Bool) {
        let filter = FormulaExpression.and([
            FormulaExpression.field(TicketField.businessDay) == .text(day.description),
            FormulaExpression.field(TicketField.number) >= .int(number),
        ])
        let query = ListQuery(filterByFormula: filter.description,
                              sort: [SortKey(field: TicketField.number.rawValue, direction: .descending)],
                              fields: [TicketField.number.rawValue],
                              pageSize: PickupNumbers.checkPageSize)
        do {
            let page = try await store.listRecords(in: table, query: query)
            return (page.records, page.offset == nil)
        } catch {
            throw .store(error)
        }
    }

    /// The highest number claimed on `day`, or 0.
    private func highestClaimed(day: BusinessDay) async throws(ShopError) -> Int {
        do {
            let page = try await store.listRecords(in: table, query: Self.highestQuery(day: day))
            return page.records.first?.fields[TicketField.number]?.intValue ?? 0
        } catch {
            throw .store(error)
        }
    }

    /// A few random milliseconds, growing with the attempts (a sleep suspends; it blocks no thread).
    private static func backOff(attempt: Int) async {
        let millis = Int.random(in: 1...(5 * min(attempt, 10)))
        try? await Task.sleep(for: .milliseconds(millis))
    }
}
