@testable import DrinkShop
import DrinkShopCore
import Foundation
import HTTPServer
import Testing
import TestSupport
@testable import OrderPage

/// The group rules without a server: whose line is whose, who sends, expiry, bounds, and the shop's rules.
@Suite struct GroupBookTests {
    let clock = TestClock(TestClock.noon)
    let amy = BrowserKey.make(), ben = BrowserKey.make(), cara = BrowserKey.make()

    static let blackTea = (try? Drink(name: "熟成紅茶", category: .classicTea, mediumPrice: 35, largePrice: 40, hotAvailable: true))!
    static let lemon = (try? Drink(name: "熟成檸果", category: .mixedTea, mediumPrice: 60, largePrice: nil, hotAvailable: false))!
    static let soldOut = (try? Drink(name: "草莓檸果", category: .seasonal, mediumPrice: 65, largePrice: 75, available: false))!

    /// Each person on a network of their own (the network's share of the groups has its own test).
    func network(_ browser: BrowserKey) -> ClientNetwork {
        ClientNetwork(host: browser == amy ? "192.0.2.1" : browser == ben ? "198.51.100.1" : "203.0.113.1")
    }

    func book(_ change: (inout OrderPageLimits) -> Void = { _ in }) -> GroupBook {
        var limits = OrderPageLimits()
        change(&limits)
        let clock = clock
        return GroupBook(limits: limits, now: { clock.now })
    }

    static func cup(_ size: CupSize = .large, _ ice: IceLevel = .less, _ sugar: SugarLevel = .half, addOns: [AddOn] = [],
                    cups: Int = 1, note: String? = nil) -> DrinkChoices
    {
        DrinkChoices(size: size, ice: ice, sugar: sugar, addOns: addOns, quantity: cups, note: note)
    }

    @Test func onlyTheBrowserThatAddedALineMayChangeOrDeleteIt() async throws {
        let book = book()
        let id = try await book.start(by: amy, from: network(amy), name: "Amy", mobile: nil)
        try await book.join(id, by: ben, name: "Ben")
        let line = try await book.addLine(id, by: amy, drink: Self.blackTea, choices: Self.cup())
        await #expect(throws: OrderPageRefusal.notYourLine) {
            try await book.replaceLine(id, line: line, by: ben, drink: Self.blackTea, choices: Self.cup(.medium))
        }
        await #expect(throws: OrderPageRefusal.notYourLine) { try await book.deleteLine(id, line: line, by: ben) }
        #expect(throws: OrderPageRefusal.notYourLine) { try book.ownLine(id, line: line, by: ben) }
        // A browser that never joined is not a member at all.
        await #expect(throws: OrderPageRefusal.notMember) { try await book.deleteLine(id, line: line, by: cara) }
        await #expect(throws: OrderPageRefusal.notMember) { try await book.addLine(id, by: cara, drink: Self.blackTea, choices: Self.cup()) }
        // Everyone sees every line; the owner changes and deletes theirs.
        #expect(try book.snapshot(id, for: ben).lines.count == 1)
        try await book.replaceLine(id, line: line, by: amy, drink: Self.blackTea, choices: Self.cup(.medium, cups: 2))
        #expect(try book.snapshot(id, for: amy).lines.map(\.line.lineTotal) == [70])
        try await book.deleteLine(id, line: line, by: amy)
        #expect(try book.snapshot(id, for: amy).lines.isEmpty)
        await #expect(throws: OrderPageRefusal.noSuchLine) { try await book.deleteLine(id, line: line, by: amy) }
    }

    @Test func onlyTheOrganiserSendsAndNothingChangesOnceSent() async throws {
        let book = book()
        let id = try await book.start(by: amy, from: network(amy), name: "Amy", mobile: "0912-345-678")
        try await book.join(id, by: ben, name: "Ben")
        await #expect(throws: OrderPageRefusal.emptyGroup) { try await book.beginSending(id, by: amy) }
        let line = try await book.addLine(id, by: ben, drink: Self.blackTea, choices: Self.cup(note: "少一點冰"))
        try await book.addLine(id, by: amy, drink: Self.lemon, choices: Self.cup(.medium, .regular, .free))
        await #expect(throws: OrderPageRefusal.notOrganiser) { try await book.beginSending(id, by: ben) }
        let draft = try await book.beginSending(id, by: amy)
        // While it is sent, the group takes no change; a second send is refused.
        await #expect(throws: OrderPageRefusal.sending) { try await book.deleteLine(id, line: line, by: ben) }
        await #expect(throws: OrderPageRefusal.sending) { try await book.beginSending(id, by: amy) }
        // One order, named after the organiser (the member's number masked), each line naming its person.
        #expect(draft.orderName == "Amy 0912-***-678")
        #expect(draft.lines.map(\.note) == ["for Ben · 少一點冰", "for Amy"])
        #expect(draft.lines.map(\.drink) == ["熟成紅茶", "熟成檸果"])
        #expect(draft.lines[0].options == [.size(.large), .ice(.less), .sugar(.half)])
        await book.notSent(id)
        try await book.deleteLine(id, line: line, by: ben)
        _ = try await book.beginSending(id, by: amy)
        await book.sent(id, as: OnlineTicket(number: 7, day: "2026-11-29", orderRef: "ordX", total: 60))
        await #expect(throws: OrderPageRefusal.alreadySent) { try await book.addLine(id, by: amy, drink: Self.blackTea, choices: Self.cup()) }
        await #expect(throws: OrderPageRefusal.alreadySent) { try await book.join(id, by: cara, name: "Cara") }
    }

    @Test func aGroupExpiresAndASentOneIsKeptToFollowIt() async throws {
        let book = book { $0.groupLifetime = 60 * 60; $0.sentLifetime = 30 * 60 }
        let stale = try await book.start(by: amy, from: network(amy), name: "Amy", mobile: nil)
        clock.advance(by: 50 * 60)
        let sent = try await book.start(by: ben, from: network(ben), name: "Ben", mobile: nil)
        try await book.addLine(sent, by: ben, drink: Self.blackTea, choices: Self.cup())
        clock.advance(by: 9 * 60)
        #expect(try book.snapshot(stale, for: amy).isOrganiser)
        clock.advance(by: 60)
        #expect(throws: OrderPageRefusal.noSuchGroup) { try book.snapshot(stale, for: amy) }
        await #expect(throws: OrderPageRefusal.noSuchGroup) { try await book.addLine(stale, by: amy, drink: Self.blackTea, choices: Self.cup()) }
        // Sent 10 minutes after it started: kept 30 minutes from then, past its own hour.
        _ = try await book.beginSending(sent, by: ben)
        await book.sent(sent, as: OnlineTicket(number: 1, day: "2026-11-29", orderRef: "ordY", total: 40))
        clock.advance(by: 29 * 60)
        #expect(try book.snapshot(sent, for: ben).lines.count == 1)
        clock.advance(by: 2 * 60)
        #expect(throws: OrderPageRefusal.noSuchGroup) { try book.snapshot(sent, for: ben) }
        #expect(book.count == 0)
    }

    @Test func theShopsRulesAreCheckedWhenALineIsAdded() async throws {
        let book = book()
        let id = try await book.start(by: amy, from: network(amy), name: "Amy", mobile: nil)
        // 菓玉 never hot: refused with the shop's words, then the corrected line is taken.
        await #expect(throws: OrderPageRefusal.rule(.addOnNotServedHot(.fruitJelly, ice: .hot), drink: "熟成紅茶")) {
            try await book.addLine(id, by: amy, drink: Self.blackTea, choices: Self.cup(.large, .hot, addOns: [.fruitJelly]))
        }
        #expect(OrderPageRefusal.rule(.addOnNotServedHot(.fruitJelly, ice: .hot), drink: "熟成紅茶").description
            .hasPrefix("菓玉無法於溫熱飲中製作"))
        try await book.addLine(id, by: amy, drink: Self.blackTea, choices: Self.cup(.large, .less, addOns: [.fruitJelly]))
        await #expect(throws: OrderPageRefusal.rule(.tooManyAddOns(count: 3), drink: "熟成紅茶")) {
            try await book.addLine(id, by: amy, drink: Self.blackTea, choices: Self.cup(addOns: [.fruitJelly, .agarPearl, .whiteTapioca]))
        }
        await #expect(throws: OrderPageRefusal.rule(.sizeUnavailable(drink: "熟成檸果", size: .large), drink: "熟成檸果")) {
            try await book.addLine(id, by: amy, drink: Self.lemon, choices: Self.cup(.large))
        }
        await #expect(throws: OrderPageRefusal.rule(.notServedHot(drink: "熟成檸果", ice: .warm), drink: "熟成檸果")) {
            try await book.addLine(id, by: amy, drink: Self.lemon, choices: Self.cup(.medium, .warm))
        }
        await #expect(throws: OrderPageRefusal.rule(.soldOut(drink: "草莓檸果"), drink: "草莓檸果")) {
            try await book.addLine(id, by: amy, drink: Self.soldOut, choices: Self.cup())
        }
        await #expect(throws: OrderPageRefusal.rule(.missingRequired([.ice, .sugar]), drink: "熟成紅茶")) {
            try await book.addLine(id, by: amy, drink: Self.blackTea, choices: DrinkChoices(size: .medium))
        }
        #expect(try book.snapshot(id, for: amy).lines.map(\.line.optionSummary) == ["大杯•少冰•半糖•加菓玉"])
    }

    @Test func namesNotesCupsAndSizesAreBounded() async throws {
        let book = book { $0.linesPerGroup = 2; $0.peoplePerGroup = 2; $0.groups = 2; $0.nameLength = 5; $0.noteLength = 8 }
        await #expect(throws: OrderPageRefusal.name(.empty)) { try await book.start(by: amy, from: network(amy), name: "  ", mobile: nil) }
        await #expect(throws: OrderPageRefusal.name(.tooLong(max: 5))) { try await book.start(by: amy, from: network(amy), name: "Amelia", mobile: nil) }
        await #expect(throws: OrderPageRefusal.name(.controlCharacters)) { try await book.start(by: amy, from: network(amy), name: "A\nmy", mobile: nil) }
        await #expect(throws: OrderPageRefusal.name(.looksLikePhoneNumber)) { try await book.start(by: amy, from: network(amy), name: "0912345678", mobile: nil) }
        await #expect(throws: OrderPageRefusal.mobile("0912")) { try await book.start(by: amy, from: network(amy), name: "Amy", mobile: "0912") }
        let id = try await book.start(by: amy, from: network(amy), name: "Amy", mobile: "")
        try await book.join(id, by: ben, name: "Ben")
        await #expect(throws: OrderPageRefusal.tooManyPeople(2)) { try await book.join(id, by: cara, name: "Cara") }
        await #expect(throws: OrderPageRefusal.cups(21, allowed: 1...20)) {
            try await book.addLine(id, by: amy, drink: Self.blackTea, choices: Self.cup(cups: 21))
        }
        await #expect(throws: OrderPageRefusal.cups(0, allowed: 1...20)) {
            try await book.addLine(id, by: amy, drink: Self.blackTea, choices: Self.cup(cups: 0))
        }
        await #expect(throws: OrderPageRefusal.note(.tooLong(length: 9, max: 8))) {
            try await book.addLine(id, by: amy, drink: Self.blackTea, choices: Self.cup(note: "123456789"))
        }
        await #expect(throws: OrderPageRefusal.note(.controlCharacters)) {
            try await book.addLine(id, by: amy, drink: Self.blackTea, choices: Self.cup(note: "a\tb"))
        }
        try await book.addLine(id, by: amy, drink: Self.blackTea, choices: Self.cup(note: "  少冰  "))
        try await book.addLine(id, by: ben, drink: Self.blackTea, choices: Self.cup())
        await #expect(throws: OrderPageRefusal.groupFull(lines: 2)) { try await book.addLine(id, by: ben, drink: Self.blackTea, choices: Self.cup()) }
        #expect(try book.snapshot(id, for: amy).lines.first?.line.note == "少冰")
        _ = try await book.start(by: ben, from: network(ben), name: "Ben", mobile: nil)
        await #expect(throws: OrderPageRefusal.tooManyGroups) { try await book.start(by: cara, from: network(cara), name: "Cara", mobile: nil) }
    }

    @Test func oneNetworkTakesNoMoreThanItsFairShareOfTheGroupsAndAnotherStillStartsOne() async throws {
        let book = book { $0.groups = 10 }
        // Every address of one machine is one network: 127.0.0.2, .3, ... each a new browser.
        var started = 0
        var refusal: OrderPageRefusal?
        for host in 2..<40 where refusal == nil {
            do {
                _ = try await book.start(by: BrowserKey.make(), from: ClientNetwork(remoteAddress: "127.0.0.\(host):5000"), name: "Bot", mobile: nil)
                started += 1
            } catch {
                refusal = error
            }
        }
        #expect(started == 5, "half of the ten")
        #expect(refusal == .tooManyGroupsFromNetwork)
        #expect(refusal?.status == 429)
        // Someone on another network still starts a group.
        _ = try await book.start(by: cara, from: ClientNetwork(remoteAddress: "127.1.0.1:5000"), name: "Cara", mobile: nil)
        #expect(book.count == 6)
    }

    @Test func groupIdsAndBrowserKeysAre128RandomBits() {
        let made = (0..<200).map { _ in Secret128.make().hex }
        #expect(Set(made).count == 200)
        #expect(made.allSatisfy { $0.count == 32 && Secret128($0) != nil })
        // Every hex digit turns up in every position over enough draws: nothing fixed in the value.
        for position in 0..<32 {
            let digits = Set(made.map { Array($0)[position] })
            #expect(digits.count >= 8)
        }
        #expect(Secret128("ABCDEF0123456789abcdef0123456789") == nil)
        #expect(Secret128("abc") == nil)
        #expect(Secret128(String(repeating: "g", count: 32)) == nil)
    }

    @Test func aChangeWakesTheGroupsPagesAndNoOtherGroups() async throws {
        let book = book()
        let id = try await book.start(by: amy, from: network(amy), name: "Amy", mobile: nil)
        let other = try await book.start(by: ben, from: network(ben), name: "Ben", mobile: nil)
        let changes = book.changes(of: id)
        let otherChanges = book.changes(of: other)
        let version = try book.snapshot(id, for: amy).version
        try await book.join(id, by: cara, name: "Cara")
        try await book.addLine(id, by: amy, drink: Self.blackTea, choices: Self.cup())
        #expect(try book.snapshot(id, for: amy).version > version)
        book.finish()
        var woken = 0
        for await _ in changes { woken += 1 }
        #expect(woken == 1)
        // Ben's page was not woken by Amy's group.
        var otherWoken = 0
        for await _ in otherChanges { otherWoken += 1 }
        #expect(otherWoken == 0)
    }
}
