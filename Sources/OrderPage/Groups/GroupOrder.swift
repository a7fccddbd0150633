import DrinkShop
import DrinkShopCore
import Foundation

/// One drink in a group, with the browser that added it (only that browser may change or delete it).
public struct GroupLine: Sendable, Equatable {
    /// The line's number in its group, from 1, never reused.
    public let id: Int
    /// The browser that added it (its key's digest: the store keeps no key).
    public let owner: SecretDigest
    /// The drink with its options, checked against the shop's rules and priced when added or changed.
    public let line: OrderLine
}

/// Where a group is: taking lines, being sent, or sent as one order.
public enum GroupState: Sendable, Equatable {
    case open
    case sending
    case sent(OnlineTicket, at: Date)
}

/// A group order (揪團) as its page shows it to one browser: everyone's lines, who is who, and what this
/// browser may do.
public struct GroupSnapshot: Sendable {
    public let id: GroupID
    /// The name of whoever started it.
    public let organiserName: String
    public let startedAt: Date
    public let expiresAt: Date
    public let state: GroupState
    /// Every line, in the order added.
    public let lines: [GroupLine]
    /// Each browser's name in the group, by its key's digest.
    public let people: [SecretDigest: String]
    /// Moves on with every change, so an open page knows when to show the list again.
    public let version: Int
    /// The browser looking, if it sent its key.
    public let viewer: BrowserKey?

    public var isMember: Bool { viewerDigest.map { people[$0] != nil } ?? false }
    public var isOrganiser: Bool { viewerDigest == organiser }
    public var viewerName: String? { viewerDigest.flatMap { people[$0] } }
    public func name(of line: GroupLine) -> String { people[line.owner] ?? "?" }
    public func isMine(_ line: GroupLine) -> Bool { viewerDigest == line.owner }

    let organiser: SecretDigest
    /// The viewer's key's digest, as the group knows its people.
    let viewerDigest: SecretDigest?

    /// The lines as the order's lines.
    public var orderLines: [OrderLine] { lines.map(\.line) }
    public var cups: Int { lines.reduce(0) { $0 + $1.line.quantity } }
    public var subtotal: Int { lines.reduce(0) { $0 + $1.line.lineTotal } }
}

/// A group as the book keeps it (and the store, as `GroupRecord`): secrets only as their digests.
struct GroupOrder {
    /// The digest of the group's link id.
    let key: SecretDigest
    let organiser: SecretDigest
    /// The organiser's network (`ClientNetwork`'s key), which the group counts against.
    let network: String
    let mobile: MobileNumber?
    let startedAt: Date
    var expiresAt: Date
    var people: [SecretDigest: String]
    var lines: [GroupLine] = []
    var nextLine = 1
    var state: GroupState = .open
    /// While `sending`: the key the order's records get (`Counter.newOrderRef`), kept before the order is
    /// placed, so a server that stopped meanwhile finds the order by it and never places it twice.
    var sendingRef: String?
    var version = 0
    /// The store's record of the group; nil until first written (and in a book without a store).
    var recordID: String?

    func snapshot(_ id: GroupID, for viewer: BrowserKey?) -> GroupSnapshot {
        GroupSnapshot(id: id, organiserName: people[organiser] ?? "", startedAt: startedAt, expiresAt: expiresAt,
                      state: state, lines: lines, people: people, version: version, viewer: viewer, organiser: organiser,
                      viewerDigest: viewer?.digest)
    }

    /// The one order the counter receives: named after the organiser (with the member's number masked), one
    /// line per group line. An order line has no name of its own, so each person's name goes into the line's
    /// note (`for Amy`, before their own note: `for Amy · 少冰塊`), where the counter, the cup sticker and the
    /// receipt show it.
    func draft() -> OrderDraft {
        let organiserName = people[organiser] ?? "online"
        let orderName = mobile.map { "\(organiserName) \($0.masked)" } ?? organiserName
        let lines = lines.map { groupLine -> LineDraft in
            let line = groupLine.line
            let options: [DrinkOption] = [.size(line.size), .ice(line.ice), .sugar(line.sugar)] + line.addOns.map(DrinkOption.addOn)
            return LineDraft(drink: line.drinkName, options: options, quantity: line.quantity,
                             note: LinePerson.note(for: people[groupLine.owner] ?? "?", line.note))
        }
        return OrderDraft(orderName: orderName, lines: lines)
    }
}

extension GroupSnapshot {
    /// The sent group as its order is now: each line as the counter holds it (staff may have swapped its drink,
    /// which changes its price), still under the person who added it, its note without the `for NAME` the order
    /// carries; the version moves on with each change staff make, so an open page draws it again. The lines stay
    /// the group's when the order's no longer match them one for one.
    func showing(_ order: OnlineOrder) -> GroupSnapshot {
        let shown = order.lines.count != lines.count ? lines : zip(lines, order.lines).map { groupLine, line -> GroupLine in
            let note = LinePerson.parse(line.note).map(\.note) ?? line.note
            let own = (try? OrderLine(drinkName: line.drinkName, category: line.category, size: line.size, ice: line.ice,
                                      sugar: line.sugar, addOns: line.addOns, quantity: line.quantity, unitPrice: line.unitPrice,
                                      note: note)) ?? line
            return GroupLine(id: groupLine.id, owner: groupLine.owner, line: own)
        }
        return GroupSnapshot(id: id, organiserName: organiserName, startedAt: startedAt, expiresAt: expiresAt, state: state,
                             lines: shown, people: people, version: version + order.revision, viewer: viewer,
                             organiser: organiser, viewerDigest: viewerDigest)
    }
}
