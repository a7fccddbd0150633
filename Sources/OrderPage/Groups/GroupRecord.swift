import DrinkShop
import DrinkShopCore
import Foundation

/// A group as the store keeps it (the `state` of its `OnlineGroup` record, JSON): everything the book knows of
/// it but the record's id, with the browsers' keys as their digests (the group's link id is the record's `key`,
/// a digest too). Lines keep the price they were given when added, as the page showed it.
struct GroupRecord: Codable {
    struct Person: Codable {
        var browser: SecretDigest
        var name: String
    }

    struct Line: Codable {
        var id: Int
        var owner: SecretDigest
        var drink: String
        var category: String
        var size: String
        var ice: String
        var sugar: String
        var addOns: [String]
        var cups: Int
        var unitPrice: Int
        var note: String?
    }

    struct Ticket: Codable {
        var number: Int
        var day: BusinessDay
        var orderRef: String
        var total: Int
        var stamps: Int?
        var at: Date
    }

    var organiser: SecretDigest
    var network: String
    var mobile: String?
    var startedAt: Date
    var expiresAt: Date
    var people: [Person]
    var lines: [Line]
    var nextLine: Int
    var version: Int
    /// `open`, `sending` or `sent`.
    var state: String
    var sendingRef: String?
    var ticket: Ticket?

    init(_ group: GroupOrder) {
        organiser = group.organiser
        network = group.network
        mobile = group.mobile?.digits
        startedAt = group.startedAt
        expiresAt = group.expiresAt
        people = group.people.sorted { $0.key.hex < $1.key.hex }.map { Person(browser: $0.key, name: $0.value) }
        lines = group.lines.map { groupLine in
            let line = groupLine.line
            return Line(id: groupLine.id, owner: groupLine.owner, drink: line.drinkName, category: line.category.rawValue,
                        size: line.size.rawValue, ice: line.ice.rawValue, sugar: line.sugar.rawValue,
                        addOns: line.addOns.map(\.rawValue), cups: line.quantity, unitPrice: line.unitPrice, note: line.note)
        }
        nextLine = group.nextLine
        version = group.version
        sendingRef = group.sendingRef
        switch group.state {
        case .open: state = "open"
        case .sending: state = "sending"
        case .sent(let sent, let at):
            state = "sent"
            ticket = Ticket(number: sent.number, day: sent.day, orderRef: sent.orderRef, total: sent.total, stamps: sent.stamps, at: at)
        }
    }

    /// The group this record holds, as record `recordID` under `key`; nil when any part of it is not what the
    /// page writes.
    func group(key: SecretDigest, recordID: String?) -> GroupOrder? {
        var member: MobileNumber?
        if let mobile {
            guard let number = try? MobileNumber(parsing: mobile) else { return nil }
            member = number
        }
        var groupLines: [GroupLine] = []
        for line in lines {
            guard let category = DrinkCategory(rawValue: line.category), let size = CupSize(rawValue: line.size),
                  let ice = IceLevel(rawValue: line.ice), let sugar = SugarLevel(rawValue: line.sugar) else { return nil }
            var addOns: [AddOn] = []
            for text in line.addOns {
                guard let addOn = AddOn(rawValue: text) else { return nil }
                addOns.append(addOn)
            }
            guard let orderLine = try? OrderLine(drinkName: line.drink, category: category, size: size, ice: ice, sugar: sugar,
                                                 addOns: addOns, quantity: line.cups, unitPrice: line.unitPrice, note: line.note)
            else { return nil }
            groupLines.append(GroupLine(id: line.id, owner: line.owner, line: orderLine))
        }
        let groupState: GroupState
        switch (state, ticket) {
        case ("open", _): groupState = .open
        case ("sending", _): groupState = .sending
        case ("sent", let ticket?):
            groupState = .sent(OnlineTicket(number: ticket.number, day: ticket.day, orderRef: ticket.orderRef, total: ticket.total,
                                            stamps: ticket.stamps), at: ticket.at)
        default: return nil
        }
        var people: [SecretDigest: String] = [:]
        for person in self.people { people[person.browser] = person.name }
        var group = GroupOrder(key: key, organiser: organiser, network: network, mobile: member, startedAt: startedAt,
                               expiresAt: expiresAt, people: people)
        group.lines = groupLines
        group.nextLine = nextLine
        group.state = groupState
        group.sendingRef = sendingRef
        group.version = version
        group.recordID = recordID
        return group
    }

    /// `group` as the store's text.
    static func text(of group: GroupOrder) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        // Encoding plain strings, numbers and dates cannot fail.
        guard let data = try? encoder.encode(GroupRecord(group)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The group a kept record holds; nil when it is not one the page wrote.
    static func group(from kept: KeptGroup) -> GroupOrder? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        guard let key = SecretDigest(kept.key),
              let record = try? decoder.decode(GroupRecord.self, from: Data(kept.state.utf8)) else { return nil }
        return record.group(key: key, recordID: kept.recordID)
    }
}
