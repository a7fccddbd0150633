import DrinkShop
import DrinkShopCore
import Foundation
import HTTPServer
import Synchronization
import TextScalars

/// The open group orders (揪團), held in memory by the server's process: a server restart forgets them (a
/// sent group's order is in the store by then; an unsent one is lost, and its people start again). Every
/// decision about a group is made here: who may change which line (the browser that added it), who may send
/// (the browser that started it), when a group expires, how big it may grow, and whether a line obeys the
/// shop's rules (the core's `OrderLine`, the same check the counter makes). Time comes from the injected clock.
public final class GroupBook: Sendable {
    private struct State {
        var groups: [GroupID: GroupOrder] = [:]
        /// Each open page's subscription, with the one group it follows.
        var subscribers: [Int: (group: GroupID, continuation: AsyncStream<Void>.Continuation)] = [:]
        var nextSubscriber = 0
    }

    public let limits: OrderPageLimits
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    public init(limits: OrderPageLimits = OrderPageLimits(), now: @escaping @Sendable () -> Date = Date.init) {
        self.limits = limits
        self.now = now
    }

    // MARK: - Groups

    /// Starts a group with `browser` (on `network`) as its organiser (the only one who may send it), named `name`,
    /// for the member with `mobile` when one is given. Refused when the book holds `limits.groups`, or `network`
    /// holds its fair share of them (`FairShare`), so one network never fills the book.
    public func start(by browser: BrowserKey, from network: ClientNetwork, name: String, mobile: String?) throws(OrderPageRefusal)
        -> GroupID
    {
        let name = try checkedName(name)
        var member: MobileNumber?
        if let mobile = mobile?.trimmingCharacters(in: .whitespaces), !mobile.isEmpty {
            do { member = try MobileNumber(parsing: mobile) } catch {
                throw .mobile(String(mobile.prefix(20)))
            }
        }
        let started = now()
        let id = GroupID.make()
        let group = GroupOrder(id: id, organiser: browser, network: network.key, mobile: member, startedAt: started,
                               expiresAt: started.addingTimeInterval(limits.groupLifetime), people: [browser: name])
        try state.withLock { (state) throws(OrderPageRefusal) in
            Self.prune(&state, at: started)
            guard state.groups.count < limits.groups else { throw .tooManyGroups }
            let held = state.groups.values.reduce(0) { $0 + ($1.network == network.key ? 1 : 0) }
            guard FairShare.allows(holding: held, total: state.groups.count, cap: limits.groups) else {
                throw .tooManyGroupsFromNetwork
            }
            state.groups[id] = group
        }
        return id
    }

    /// Adds `browser` to the group as `name`; a browser already in it keeps the name it joined with.
    public func join(_ id: GroupID, by browser: BrowserKey, name: String) throws(OrderPageRefusal) {
        let name = try checkedName(name)
        try change(id) { (group) throws(OrderPageRefusal) in
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
            guard let group = state.groups[id] else { throw .noSuchGroup }
            return group.snapshot(for: viewer)
        }
    }

    /// Groups held now (open, being sent and sent).
    public var count: Int { state.withLock { $0.groups.count } }

    // MARK: - Lines

    /// Adds a line of `drink` with `choices` for `browser`, once it obeys the shop's rules.
    /// - Returns: the line's id.
    @discardableResult
    public func addLine(_ id: GroupID, by browser: BrowserKey, drink: Drink, choices: DrinkChoices) throws(OrderPageRefusal) -> Int {
        let line = try checkedLine(drink, choices)
        return try change(id) { (group) throws(OrderPageRefusal) -> Int in
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
        guard line.owner == browser else { throw .notYourLine }
        return line
    }

    /// Replaces `browser`'s own line `lineID` with `drink` and `choices`, once they obey the rules.
    public func replaceLine(_ id: GroupID, line lineID: Int, by browser: BrowserKey, drink: Drink, choices: DrinkChoices)
        throws(OrderPageRefusal)
    {
        let line = try checkedLine(drink, choices)
        try change(id) { (group) throws(OrderPageRefusal) in
            try Self.checkOpen(group, member: browser)
            let index = try Self.ownIndex(group, line: lineID, browser: browser)
            group.lines[index] = GroupLine(id: lineID, owner: browser, line: line)
        }
    }

    /// Deletes `browser`'s own line `lineID`.
    public func deleteLine(_ id: GroupID, line lineID: Int, by browser: BrowserKey) throws(OrderPageRefusal) {
        try change(id) { (group) throws(OrderPageRefusal) in
            try Self.checkOpen(group, member: browser)
            group.lines.remove(at: try Self.ownIndex(group, line: lineID, browser: browser))
        }
    }

    // MARK: - Sending

    /// Marks the group as being sent by its organiser and returns the one order to place; nothing in it
    /// changes until `sent` or `notSent`.
    public func beginSending(_ id: GroupID, by browser: BrowserKey) throws(OrderPageRefusal) -> OrderDraft {
        try beginSendingWithMember(id, by: browser).draft
    }

    /// `beginSending`, with the member number the organiser gave (their stamps), if any.
    public func beginSendingWithMember(_ id: GroupID, by browser: BrowserKey) throws(OrderPageRefusal)
        -> (draft: OrderDraft, member: MobileNumber?)
    {
        try change(id) { (group) throws(OrderPageRefusal) -> (draft: OrderDraft, member: MobileNumber?) in
            try Self.checkOpen(group, member: browser)
            guard browser == group.organiser else { throw .notOrganiser }
            guard !group.lines.isEmpty else { throw .emptyGroup }
            group.state = .sending
            return (group.draft(), group.mobile)
        }
    }

    /// The group's order was placed: the group is kept `sentLifetime` longer, to follow it.
    public func sent(_ id: GroupID, as ticket: OnlineTicket) {
        let at = now()
        try? change(id) { (group) throws(OrderPageRefusal) in
            group.state = .sent(ticket, at: at)
            group.expiresAt = at.addingTimeInterval(limits.sentLifetime)
        }
    }

    /// The order was not placed: the group takes changes again.
    public func notSent(_ id: GroupID) {
        try? change(id) { (group) throws(OrderPageRefusal) in
            if group.state == .sending { group.state = .open }
        }
    }

    // MARK: - Changes

    /// A signal on every change of the group `id` (its open pages then compare its version): a change of one
    /// group wakes only that group's pages, not every page open on the server.
    public func changes(of id: GroupID) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let key = state.withLock { state in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = (id, continuation)
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

    private func change<T>(_ id: GroupID, _ body: (inout GroupOrder) throws(OrderPageRefusal) -> T) throws(OrderPageRefusal) -> T {
        let at = now()
        let (result, subscribers) = try state.withLock { (state) throws(OrderPageRefusal) -> (T, [AsyncStream<Void>.Continuation]) in
            Self.prune(&state, at: at)
            guard var group = state.groups[id] else { throw .noSuchGroup }
            let result = try body(&group)
            group.version += 1
            state.groups[id] = group
            return (result, state.subscribers.values.filter { $0.group == id }.map(\.continuation))
        }
        for subscriber in subscribers { subscriber.yield() }
        return result
    }

    private static func prune(_ state: inout State, at now: Date) {
        state.groups = state.groups.filter { $0.value.expiresAt > now }
    }

    private static func checkOpen(_ group: GroupOrder, member browser: BrowserKey) throws(OrderPageRefusal) {
        switch group.state {
        case .open: break
        case .sending: throw .sending
        case .sent: throw .alreadySent
        }
        guard group.people[browser] != nil else { throw .notMember }
    }

    private static func ownIndex(_ group: GroupOrder, line lineID: Int, browser: BrowserKey) throws(OrderPageRefusal) -> Int {
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
