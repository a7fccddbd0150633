import DrinkShop
import DrinkShopCore
import Foundation
import HTTPServer
import Synchronization
import TextScalars

/// The open group orders (揪團) of the server's process, each kept in the store (`OnlineGroup`, through
/// `Counter.keep`) when the book has one (`reopen`): every change is written there before it is answered, one
/// write at a time, so a restart of the server forgets no group; at start the book reads back the groups that
/// have not expired. The store holds no secret: a group is found by its link id's digest, a browser by its key's.
/// Every decision about a group is made here: who may change which line (the browser that added it), who may send
/// (the browser that started it), when a group expires, how big it may grow, and whether a line obeys the
/// shop's rules (the core's `OrderLine`, the same check the counter makes). Time comes from the injected clock.
public final class GroupBook: Sendable {
    private struct State {
        /// By the digest of the group's link id.
        var groups: [SecretDigest: GroupOrder] = [:]
        /// Each open page's subscription, with the one group it follows.
        var subscribers: [Int: (group: SecretDigest, continuation: AsyncStream<Void>.Continuation)] = [:]
        var nextSubscriber = 0
        /// The records of groups dropped from memory (expired), still to be deleted from the store.
        var dropped: [String] = []
    }

    public let limits: OrderPageLimits
    private let now: @Sendable () -> Date
    private let state = Mutex(State())
    /// Where each change is written before it is answered; nil: memory only (a restart forgets the groups).
    private let keeper: Counter?
    /// The store's writes, one at a time: each change is worked out from the groups as the last write left them.
    private let writes = OneAtATime()

    /// A book held in memory only.
    public convenience init(limits: OrderPageLimits = OrderPageLimits(), now: @escaping @Sendable () -> Date = Date.init) {
        self.init(limits: limits, now: now, keeper: nil)
    }

    private init(limits: OrderPageLimits, now: @escaping @Sendable () -> Date, keeper: Counter?) {
        self.limits = limits
        self.now = now
        self.keeper = keeper
    }

    /// The book of the groups `counter`'s store keeps, which it writes every change to from now on. Expired
    /// groups are deleted; a group that was being sent when the server stopped is sent if its order is in the
    /// store (found by the key it was to get), else open again, so it is never placed twice.
    /// - Returns: the book, and what staff should know (records that could not be read, left in the store;
    ///   groups whose send was settled).
    public static func reopen(keptBy counter: Counter, limits: OrderPageLimits = OrderPageLimits(),
                              now: @escaping @Sendable () -> Date = Date.init) async throws(ShopError) -> (GroupBook, notes: [String])
    {
        let book = GroupBook(limits: limits, now: now, keeper: counter)
        let (kept, unreadable) = try await counter.keptGroups()
        var notes = unreadable.map { "group record \($0) of \(ShopSchema.onlineGroupTable) is not one the page wrote; left as it is" }
        let at = now()
        var groups: [SecretDigest: GroupOrder] = [:], expired: [String] = []
        for record in kept {
            guard var group = GroupRecord.group(from: record) else {
                notes.append("group record \(record.recordID ?? "?") of \(ShopSchema.onlineGroupTable) could not be read; left as it is")
                continue
            }
            guard group.expiresAt > at else {
                expired += record.recordID.map { [$0] } ?? []
                continue
            }
            if group.state == .sending {
                if let ref = group.sendingRef, let ticket = try await counter.placedOnlineOrder(ref) {
                    group.state = .sent(ticket, at: at)
                    group.expiresAt = at.addingTimeInterval(limits.sentLifetime)
                    notes.append("a group being sent when the server stopped was placed as #\(ticket.number); not placed again")
                } else {
                    group.state = .open
                    notes.append("a group being sent when the server stopped was not placed; it is open again")
                }
                group.sendingRef = nil
                group.version += 1
                group.recordID = try await counter.keep(KeptGroup(recordID: group.recordID, key: group.key.hex,
                                                                  state: GroupRecord.text(of: group), expiresAt: group.expiresAt))
            }
            groups[group.key] = group
        }
        try await counter.forgetGroups(expired)
        book.state.withLock { $0.groups = groups }
        return (book, notes)
    }

    // MARK: - Groups

    /// Starts a group with `browser` (on `network`) as its organiser (the only one who may send it), named `name`,
    /// for the member with `mobile` when one is given. Refused when the book holds `limits.groups`, or `network`
    /// holds its fair share of them (`FairShare`), so one network never fills the book.
    public func start(by browser: BrowserKey, from network: ClientNetwork, name: String, mobile: String?) async throws(OrderPageRefusal)
        -> GroupID
    {
        let name = try checkedName(name)
        var member: MobileNumber?
        if let mobile = mobile?.trimmingCharacters(in: .whitespaces), !mobile.isEmpty {
            do { member = try MobileNumber(parsing: mobile) } catch {
                throw .mobile(String(mobile.prefix(20)))
            }
        }
        let id = GroupID.make()
        try await write(id.digest) { (state, started) throws(OrderPageRefusal) -> GroupOrder in
            guard state.groups.count < limits.groups else { throw .tooManyGroups }
            let held = state.groups.values.reduce(0) { $0 + ($1.network == network.key ? 1 : 0) }
            guard FairShare.allows(holding: held, total: state.groups.count, cap: limits.groups) else {
                throw .tooManyGroupsFromNetwork
            }
            return GroupOrder(key: id.digest, organiser: browser.digest, network: network.key, mobile: member, startedAt: started,
                              expiresAt: started.addingTimeInterval(limits.groupLifetime), people: [browser.digest: name])
        }
        return id
    }

    /// Adds `browser` to the group as `name`; a browser already in it keeps the name it joined with.
    public func join(_ id: GroupID, by browser: BrowserKey, name: String) async throws(OrderPageRefusal) {
        let name = try checkedName(name)
        let browser = browser.digest
        try await change(id) { (group) throws(OrderPageRefusal) in
            guard group.people[browser] == nil else { return }
            guard group.state == .open else { throw group.state == .sending ? .sending : .alreadySent }
            guard group.people.count < limits.peoplePerGroup else { throw .tooManyPeople(limits.peoplePerGroup) }
            group.people[browser] = name
        }
    }

    /// The group as `viewer` sees it.
    public func snapshot(_ id: GroupID, for viewer: BrowserKey?) throws(OrderPageRefusal) -> GroupSnapshot {
        let at = now()
        return try state.withLock { (state) throws(OrderPageRefusal) in
            Self.prune(&state, at: at)
            guard let group = state.groups[id.digest] else { throw .noSuchGroup }
            return group.snapshot(id, for: viewer)
        }
    }

    /// Groups held now (open, being sent and sent).
    public var count: Int { state.withLock { $0.groups.count } }

    // MARK: - Lines

    /// Adds a line of `drink` with `choices` for `browser`, once it obeys the shop's rules.
    /// - Returns: the line's id.
    @discardableResult
    public func addLine(_ id: GroupID, by browser: BrowserKey, drink: Drink, choices: DrinkChoices) async throws(OrderPageRefusal) -> Int {
        let line = try checkedLine(drink, choices)
        let browser = browser.digest
        return try await change(id) { (group) throws(OrderPageRefusal) -> Int in
            try Self.checkOpen(group, member: browser)
            guard group.lines.count < limits.linesPerGroup else { throw .groupFull(lines: limits.linesPerGroup) }
            let lineID = group.nextLine
            group.nextLine += 1
            group.lines.append(GroupLine(id: lineID, owner: browser, line: line))
            return lineID
        }
    }

    /// The line `lineID`, when it is `browser`'s own (to fill the form that changes it).
    public func ownLine(_ id: GroupID, line lineID: Int, by browser: BrowserKey) throws(OrderPageRefusal) -> GroupLine {
        let snapshot = try snapshot(id, for: browser)
        guard snapshot.isMember else { throw .notMember }
        guard let line = snapshot.lines.first(where: { $0.id == lineID }) else { throw .noSuchLine }
        guard snapshot.isMine(line) else { throw .notYourLine }
        return line
    }

    /// Replaces `browser`'s own line `lineID` with `drink` and `choices`, once they obey the rules.
    public func replaceLine(_ id: GroupID, line lineID: Int, by browser: BrowserKey, drink: Drink, choices: DrinkChoices)
        async throws(OrderPageRefusal)
    {
        let line = try checkedLine(drink, choices)
        let browser = browser.digest
        try await change(id) { (group) throws(OrderPageRefusal) in
            try Self.checkOpen(group, member: browser)
            let index = try Self.ownIndex(group, line: lineID, browser: browser)
            group.lines[index] = GroupLine(id: lineID, owner: browser, line: line)
        }
    }

    /// Deletes `browser`'s own line `lineID`.
    public func deleteLine(_ id: GroupID, line lineID: Int, by browser: BrowserKey) async throws(OrderPageRefusal) {
        let browser = browser.digest
        try await change(id) { (group) throws(OrderPageRefusal) in
            try Self.checkOpen(group, member: browser)
            group.lines.remove(at: try Self.ownIndex(group, line: lineID, browser: browser))
        }
    }

    // MARK: - Sending

    /// Marks the group as being sent by its organiser and returns the one order to place; nothing in it
    /// changes until `sent` or `notSent`.
    public func beginSending(_ id: GroupID, by browser: BrowserKey) async throws(OrderPageRefusal) -> OrderDraft {
        try await beginSendingWithMember(id, by: browser).draft
    }

    /// `beginSending`, with the member number the organiser gave (their stamps), if any, and the key the order's
    /// records are to get (kept with the group before the order is placed: see `reopen`).
    public func beginSendingWithMember(_ id: GroupID, by browser: BrowserKey) async throws(OrderPageRefusal)
        -> (draft: OrderDraft, member: MobileNumber?, orderRef: String?)
    {
        let browser = browser.digest
        let orderRef = keeper?.newOrderRef()
        return try await change(id) { (group) throws(OrderPageRefusal) -> (draft: OrderDraft, member: MobileNumber?, orderRef: String?) in
            try Self.checkOpen(group, member: browser)
            guard browser == group.organiser else { throw .notOrganiser }
            guard !group.lines.isEmpty else { throw .emptyGroup }
            group.state = .sending
            group.sendingRef = orderRef
            return (group.draft(), group.mobile, orderRef)
        }
    }

    /// The group's order was placed: the group is kept `sentLifetime` longer, to follow it. The book says so
    /// even when the store could not be written: the order is placed, and a restart finds it by its key.
    public func sent(_ id: GroupID, as ticket: OnlineTicket) async {
        let at = now()
        _ = try? await change(id, evenUnwritten: true) { (group) throws(OrderPageRefusal) in
            group.state = .sent(ticket, at: at)
            group.sendingRef = nil
            group.expiresAt = at.addingTimeInterval(limits.sentLifetime)
        }
    }

    /// The order was not placed: the group takes changes again (also when the store could not be written: a
    /// restart looks for the order by its key, finds none, and opens the group again).
    public func notSent(_ id: GroupID) async {
        _ = try? await change(id, evenUnwritten: true) { (group) throws(OrderPageRefusal) in
            if group.state == .sending {
                group.state = .open
                group.sendingRef = nil
            }
        }
    }

    // MARK: - Changes

    /// A signal on every change of the group `id` (its open pages then compare its version): a change of one
    /// group wakes only that group's pages, not every page open on the server.
    public func changes(of id: GroupID) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let key = state.withLock { state in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = (id.digest, continuation)
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// Ends every subscription (the server is stopping).
    public func finish() {
        let subscribers = state.withLock { state in
            defer { state.subscribers = [:] }
            return state.subscribers.values.map(\.continuation)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    // MARK: - Rules

    /// Changes the group `id` with `body`, writes it to the store and only then to memory (and wakes its pages).
    /// A write the store refuses changes nothing (`storeUnavailable`), unless `evenUnwritten`.
    private func change<T: Sendable>(_ id: GroupID, evenUnwritten: Bool = false,
                                     _ body: (inout GroupOrder) throws(OrderPageRefusal) -> T) async throws(OrderPageRefusal) -> T
    {
        var result: T?
        try await write(id.digest, evenUnwritten: evenUnwritten) { (state, _) throws(OrderPageRefusal) -> GroupOrder in
            guard var group = state.groups[id.digest] else { throw .noSuchGroup }
            result = try body(&group)
            group.version += 1
            return group
        }
        guard let result else { throw .noSuchGroup }
        return result
    }

    /// One write, one at a time: `make` works out the group `key` as it is to be from the groups held now (expired
    /// ones dropped) and the time, the store keeps it, then the book does. Expired groups' records go with it.
    private func write(_ key: SecretDigest, evenUnwritten: Bool = false,
                       _ make: (inout State, Date) throws(OrderPageRefusal) -> GroupOrder) async throws(OrderPageRefusal)
    {
        let outcome = await writes.run { () async -> OrderPageRefusal? in
            let at = now()
            let made = state.withLock { (state) -> Result<(GroupOrder, dropped: [String]), OrderPageRefusal> in
                Self.prune(&state, at: at)
                do throws(OrderPageRefusal) {
                    let group = try make(&state, at)
                    defer { state.dropped = [] }
                    return .success((group, state.dropped))
                } catch {
                    return .failure(error)
                }
            }
            var group: GroupOrder, dropped: [String]
            switch made {
            case .success(let made): (group, dropped) = made
            case .failure(let refusal): return refusal
            }
            var refusal: OrderPageRefusal?
            if let keeper {
                do {
                    group.recordID = try await keeper.keep(KeptGroup(recordID: group.recordID, key: key.hex,
                                                                     state: GroupRecord.text(of: group), expiresAt: group.expiresAt))
                } catch {
                    refusal = .storeUnavailable
                }
                if !dropped.isEmpty, (try? await keeper.forgetGroups(dropped)) != nil { dropped = [] }
            }
            let subscribers = state.withLock { state -> [AsyncStream<Void>.Continuation] in
                state.dropped += dropped
                guard refusal == nil || evenUnwritten else { return [] }
                state.groups[key] = group
                return state.subscribers.values.filter { $0.group == key }.map(\.continuation)
            }
            for subscriber in subscribers { subscriber.yield() }
            return refusal
        }
        if let outcome { throw outcome }
    }

    /// Drops the groups expired at `now`; their records are deleted from the store with the next write.
    private static func prune(_ state: inout State, at now: Date) {
        let expired = state.groups.filter { $0.value.expiresAt <= now }
        guard !expired.isEmpty else { return }
        for (key, group) in expired {
            state.groups[key] = nil
            if let record = group.recordID { state.dropped.append(record) }
        }
    }

    private static func checkOpen(_ group: GroupOrder, member browser: SecretDigest) throws(OrderPageRefusal) {
        switch group.state {
        case .open: break
        case .sending: throw .sending
        case .sent: throw .alreadySent
        }
        guard group.people[browser] != nil else { throw .notMember }
    }

    private static func ownIndex(_ group: GroupOrder, line lineID: Int, browser: SecretDigest) throws(OrderPageRefusal) -> Int {
        guard let index = group.lines.firstIndex(where: { $0.id == lineID }) else { throw .noSuchLine }
        guard group.lines[index].owner == browser else { throw .notYourLine }
        return index
    }

    func checkedName(_ raw: String) throws(OrderPageRefusal) -> String {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw .name(.empty) }
        // Hidden scalars (controls, bidi and zero-width characters, line separators) are refused, not stripped:
        // what the customer typed is what the group and the counter see.
        guard !name.containsHiddenScalar else { throw .name(.controlCharacters) }
        guard !MobileNumber.looksLikeOne(name) else { throw .name(.looksLikePhoneNumber) }
        guard name.utf8.count <= limits.nameLength else { throw .name(.tooLong(max: limits.nameLength)) }
        guard !LookAlikeScripts.mixed(name) else { throw .name(.lookAlikeLetters) }
        return name
    }

    /// `choices` for `drink` as a priced line, once the page's bounds and the shop's rules allow it.
    func checkedLine(_ drink: Drink, _ choices: DrinkChoices) throws(OrderPageRefusal) -> OrderLine {
        guard limits.cupsPerLine.contains(choices.quantity) else { throw .cups(choices.quantity, allowed: limits.cupsPerLine) }
        var choices = choices
        let note = choices.note?.trimmingCharacters(in: .whitespaces) ?? ""
        if note.containsHiddenScalar { throw .note(.controlCharacters) }
        guard note.utf8.count <= limits.noteLength else { throw .note(.tooLong(length: note.utf8.count, max: limits.noteLength)) }
        choices.note = note.isEmpty ? nil : note
        do { return try OrderLine(drink: drink, choices: choices) } catch { throw .rule(error, drink: drink.name) }
    }
}
