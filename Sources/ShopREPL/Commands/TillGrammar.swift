import DrinkShop
import DrinkShopCore
import Foundation

/// One of the till's commands, parsed.
public enum TillCommand: Sendable, Equatable {
    /// `pay #12 cash 500`; no amount pays what is due.
    case pay(OrderNumber, PaymentMethod, amount: Int?)
    /// `adjust #12 cup 2 bag 1`: adjustment codes with counts (a count of 0 removes one).
    case adjust(OrderNumber, [String: Int])
    /// `invoice #12 04595257` (or `/ABC1234`, a citizen certificate, a donation code; `none` clears).
    case invoice(OrderNumber, String?)
    case soldOut(String)
    case restock(String)
    case price(String, CupSize, Int)
    case staffList
    case staffAdd(String, StaffRole)
    case staffPIN(String)
    case staffNoPIN(String)
    case staffRemove(String)
    case shiftShow
    case shiftOpen(float: Int)
    /// `close COUNTED [--archive]`: count the drawer; `--archive` then archives the closed days.
    case close(counted: Int, archive: Bool)
    /// `archive [status | now | on | off]`: closed days moved out of the base (see `DayArchiver`).
    case archive(ArchiveRequest)
    case export(path: String, from: String?, to: String?)
    /// `member 0912345678`: stamps and pass.
    case member(String)
    /// `redeem #N [cups]`: free cups for the order's member's stamps.
    case redeem(OrderNumber, cups: Int)
    /// `pass 0912345678 月卡`: sell a pass.
    case buyPass(mobile: String, pass: String)
}

extension CommandName {
    var tillInfo: CommandInfo {
        switch self {
        case .pay:
            return CommandInfo(name: rawValue, aliases: ["付"], usage: "pay #N <method> [amount]",
                               summary: "take payment; cash answers the change due",
                               details: ["methods: cash 現金, card 信用卡, linepay, jkopay 街口, easycard 悠遊卡, other",
                                         "example: pay #12 cash 500 — an amount below what is due is a part payment",
                                         "no amount pays exactly what is due"])
        case .adjust:
            return CommandInfo(name: rawValue, aliases: [], usage: "adjust #N <code> [count] ...",
                               summary: "apply the counter's adjustments (own cup, bag fee, staff price) to an order",
                               details: ["example: adjust #12 cup 2 bag 1; a count of 0 removes it",
                                         "codes come from the seed file's \"adjustments\"; shown in report and receipt"])
        case .invoice:
            return CommandInfo(name: rawValue, aliases: ["統編"], usage: "invoice #N <統一編號 | /ABC1234 | AB12345678901234 | donation code | none>",
                               summary: "record invoice details (checked, not issued)", details: [])
        case .soldout:
            return CommandInfo(name: rawValue, aliases: ["售完"], usage: "soldout <drink | add-on | ingredient | size | drink size>",
                               summary: "mark something sold out on every counter and the page (manager once PINs are set)",
                               details: ["examples: soldout 加白玉 · soldout 白玉 (and 加白玉 and the drinks made with it) · soldout 大杯 · soldout 熟成紅茶 大杯",
                                         "a name that is only part of one, or names several things, is asked about (one-shot: refused with the choices)"])
        case .restock:
            return CommandInfo(name: rawValue, aliases: ["補貨"], usage: "restock <drink | add-on | ingredient | size | drink size>",
                               summary: "put something sold out back on sale (manager once PINs are set)", details: ["example: restock 加白玉"])
        case .price:
            return CommandInfo(name: rawValue, aliases: [], usage: "price <drink> <M|L> <NT$>",
                               summary: "change a drink's price (manager once PINs are set)",
                               details: ["example: price 熟成紅茶 M 40"])
        case .staff:
            return CommandInfo(name: rawValue, aliases: [], usage: "staff [list | add NAME [staff|manager] | pin NAME | nopin NAME | remove NAME]",
                               summary: "staff, roles and PINs (manager once PINs are set)",
                               details: ["pin asks for the new PIN twice without showing it (one-shot: DRINKSHOP_NEW_PIN)",
                                         "the first PIN must be a manager's; once any PIN is set, login asks for it"])
        case .shift:
            return CommandInfo(name: rawValue, aliases: [], usage: "shift [open FLOAT]",
                               summary: "show the open shift and the cash expected, or open one with its cash float", details: [])
        case .close:
            return CommandInfo(name: rawValue, aliases: ["交班"], usage: "close COUNTED [--archive]",
                               summary: "count the drawer: expected vs counted, over/short recorded (manager once PINs are set)",
                               details: ["--archive then moves the closed days (those before today) out of the base into the archive",
                                         "(also every close once `archive on` is set); see help archive"])
        case .archive:
            return CommandInfo(name: rawValue, aliases: ["歸檔"], usage: "archive [status | now | on | off]",
                               summary: "move closed days out of the base into a local archive; reports still read them",
                               details: ["status (the default): the archive file, the days in it, whether close archives",
                                         "now: copy every day before today into the archive, check the copies, then remove them",
                                         "  from the base (orders still open and an open shift stay); run it again after any failure",
                                         "on / off: whether every `close` archives (a setting for every counter; manager)",
                                         "the file: DRINKSHOP_ARCHIVE, else archive-<base>.sqlite in the data folder",
                                         "(the embedded store: <store>.archive.sqlite beside it)"])
        case .export:
            return CommandInfo(name: rawValue, aliases: [], usage: "export --csv FILE [DATE [DATE]]",
                               summary: "write FILE-orders.csv, FILE-lines.csv, FILE-payments.csv (UTF-8 with BOM for Excel)",
                               details: [])
        case .member:
            return CommandInfo(name: rawValue, aliases: ["會員"], usage: "member 09XXXXXXXX",
                               summary: "a member's stamps and pass",
                               details: ["an order `for 0912345678` is the member's: a stamp per cup, the pass discount when active"])
        case .redeem:
            return CommandInfo(name: rawValue, aliases: ["兌換"], usage: "redeem #N [cups]",
                               summary: "free cups of the reward size for the member's stamps (before payment)", details: [])
        case .pass:
            return CommandInfo(name: rawValue, aliases: [], usage: "pass 09XXXXXXXX <pass name>",
                               summary: "sell a member pass (refused while theirs is still active)", details: [])
        case .menu, .order, .orders, .edit, .advance, .cancel, .void, .delete, .label, .receipt, .printer, .online, .seed, .banner, .promos,
             .report, .log, .login, .logout, .help, .quit, .setup, .serve, .usage, .initialize, .check, .recover,
             .backup, .backups, .restore:
            return info  // not the till's: `CommandName.info` says it
        }
    }
}

/// Parses the till's commands.
enum TillGrammar {
    static func parse(_ name: CommandName, _ arguments: [String], usage: String) throws(CommandError) -> TillCommand {
        func fail(_ problem: CommandProblem) -> CommandError { CommandError(problem, usage: usage) }
        var words = arguments
        switch name {
        case .pay:
            let number = try pickup(&words, usage: usage)
            guard let methodWord = words.first else { throw fail(.noPaymentMethod(number)) }
            words.removeFirst()
            var methodText = methodWord
            // Two-word methods: "line pay".
            if methodWord.lowercased() == "line", words.first?.lowercased() == "pay" {
                words.removeFirst()
                methodText = "linepay"
            }
            let method: PaymentMethod
            do { method = try PaymentMethod.parse(methodText) } catch { throw fail(.payment(error)) }
            guard words.count <= 1 else { throw fail(.unexpected(Array(words.dropFirst()))) }
            let amount = try words.first.map { (word) throws(CommandError) -> Int in try money(word, usage: usage) }
            return .pay(number, method, amount: amount)
        case .adjust:
            let number = try pickup(&words, usage: usage)
            guard !words.isEmpty else { throw fail(.noAdjustment(number)) }
            var uses: [String: Int] = [:]
            while let code = words.first {
                words.removeFirst()
                guard Int(code) == nil else { throw fail(.countWithoutCode(code)) }
                var count = 1
                if let next = words.first, let value = Int(next.hasPrefix("x") ? String(next.dropFirst()) : next) {
                    guard (0...99).contains(value) else { throw fail(.countOutOfRange(value)) }
                    count = value
                    words.removeFirst()
                }
                guard uses[code.lowercased()] == nil else { throw fail(.adjustmentTwice(code)) }
                uses[code.lowercased()] = count
            }
            return .adjust(number, uses)
        case .invoice:
            let number = try pickup(&words, usage: usage)
            guard words.count == 1 else { throw fail(.invoiceDetails) }
            return .invoice(number, ["none", "clear", "無"].contains(words[0].lowercased()) ? nil : words[0])
        case .soldout, .restock:
            guard !words.isEmpty else { throw fail(.noDrinkNamed) }
            let drink = words.joined(separator: " ")
            return name == .soldout ? .soldOut(drink) : .restock(drink)
        case .price:
            guard words.count >= 3 else { throw fail(.priceWords) }
            let priceWord = words.removeLast()
            let sizeWord = words.removeLast()
            guard case .size(let size)? = OptionVocabulary.option(for: sizeWord) else {
                throw fail(.notASize(sizeWord))
            }
            guard let price = Int(priceWord) else { throw fail(.notAPrice(priceWord)) }
            return .price(words.joined(separator: " "), size, price)
        case .staff:
            let verb = words.first?.lowercased() ?? "list"
            if !words.isEmpty { words.removeFirst() }
            switch verb {
            case "list", "ls":
                guard words.isEmpty else { throw fail(.staffListTakesNothing) }
                return .staffList
            case "add", "role":
                var role = StaffRole.staff
                if words.count >= 2, let parsed = StaffRole(parsing: words[words.count - 1]) {
                    role = parsed
                    words.removeLast()
                }
                guard !words.isEmpty else { throw fail(.noStaffName(.add)) }
                return .staffAdd(words.joined(separator: " "), role)
            case "pin":
                guard !words.isEmpty else { throw fail(.noStaffName(.pin)) }
                return .staffPIN(words.joined(separator: " "))
            case "nopin":
                guard !words.isEmpty else { throw fail(.noStaffName(.nopin)) }
                return .staffNoPIN(words.joined(separator: " "))
            case "remove", "rm":
                guard !words.isEmpty else { throw fail(.noStaffName(.remove)) }
                return .staffRemove(words.joined(separator: " "))
            default:
                throw fail(.unknownStaffCommand(verb))
            }
        case .shift:
            if words.isEmpty { return .shiftShow }
            guard words[0].lowercased() == "open", words.count == 2 else { throw fail(.shiftOpenWords) }
            return .shiftOpen(float: try money(words[1], usage: usage, zeroAllowed: true))
        case .close:
            let archive = words.contains { $0.lowercased() == "--archive" }
            words.removeAll { $0.lowercased() == "--archive" }
            guard words.count == 1 else { throw fail(.closeWords) }
            return .close(counted: try money(words[0], usage: usage, zeroAllowed: true), archive: archive)
        case .archive:
            guard words.count <= 1 else { throw fail(.archiveWords) }
            guard let request = ArchiveRequest(rawValue: words.first?.lowercased() ?? "status") else {
                throw fail(.unknownArchiveRequest(words[0]))
            }
            return .archive(request)
        case .export:
            guard let flag = words.first, flag.lowercased() == "--csv", words.count >= 2 else {
                throw fail(.exportWords)
            }
            let path = words[1]
            let dates = Array(words.dropFirst(2))
            guard dates.count <= 2 else { throw fail(.moreThanTwoDates) }
            let from = try dates.first.map { (word) throws(CommandError) -> String in try day(word, usage: usage) }
            let to = try dates.last.map { (word) throws(CommandError) -> String in try day(word, usage: usage) }
            return .export(path: path, from: from, to: to)
        case .member:
            guard words.count == 1 else { throw fail(.memberWords) }
            return .member(words[0])
        case .redeem:
            let number = try pickup(&words, usage: usage)
            guard words.count <= 1 else { throw fail(.redeemWords(number)) }
            let cups = try words.first.map { (word) throws(CommandError) -> Int in
                guard let value = Int(word.hasPrefix("x") ? String(word.dropFirst()) : word), (1...20).contains(value) else {
                    throw fail(.notFreeCups(word))
                }
                return value
            } ?? 1
            return .redeem(number, cups: cups)
        case .pass:
            guard words.count >= 2 else { throw fail(.passWords) }
            return .buyPass(mobile: words[0], pass: words.dropFirst().joined(separator: " "))
        case .menu, .order, .orders, .edit, .advance, .cancel, .void, .delete, .label, .receipt, .printer, .online, .seed, .banner, .promos,
             .report, .log, .login, .logout, .help, .quit, .setup, .serve, .usage, .initialize, .check, .recover,
             .backup, .backups, .restore:
            throw fail(.notATillCommand(name))
        }
    }

    /// `report DATE [DATE]`: the same days as `--date`/`--from --to` say (`today`, `yesterday` allowed).
    static func reportDays(_ arguments: [String], usage: String) throws(CommandError) -> DaySpan {
        guard arguments.count <= 2 else { throw CommandError(.moreThanTwoDates, usage: usage) }
        let from = try day(arguments[0], usage: usage)
        let to = try day(arguments[arguments.count - 1], usage: usage)
        // Two dates are compared here; a word (today, 昨天) is a day only once the till resolves it, which
        // refuses a reversed period then (`yesterday today` is in order though "yesterday" sorts after "today").
        let words = BusinessDay.offset(ofWord: from) != nil || BusinessDay.offset(ofWord: to) != nil
        guard words || from <= to else { throw CommandError(.reversedDays(from, to), usage: usage) }
        return DaySpan(first: from, last: to)
    }

    /// `2026-12-01`, `today`, `yesterday` (resolved to a date by the till, `BusinessDay(_:today:)`), checked for shape.
    static func day(_ word: String, usage: String) throws(CommandError) -> String {
        if BusinessDay.offset(ofWord: word) != nil { return word.lowercased() }
        let parts = word.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
              let dayNumber = Int(parts[2]), (2000...2999).contains(year), (1...12).contains(month), (1...31).contains(dayNumber)
        else {
            throw CommandError(.notADate(word), usage: usage)
        }
        return String(format: "%04d-%02d-%02d", year, month, dayNumber)
    }

    private static func pickup(_ words: inout [String], usage: String) throws(CommandError) -> OrderNumber {
        guard let word = words.first else {
            throw CommandError(.noPickupNumber, usage: usage)
        }
        guard let number = OrderNumber(parsing: word) else {
            throw CommandError(.notAPickupNumber(word), usage: usage)
        }
        words.removeFirst()
        return number
    }

    private static func money(_ word: String, usage: String, zeroAllowed: Bool = false) throws(CommandError) -> Int {
        let digits = word.hasPrefix("$") ? String(word.dropFirst()) : word
        guard let value = Int(digits), value >= (zeroAllowed ? 0 : 1), value <= 1_000_000 else {
            throw CommandError(.notAnAmount(word, zeroAllowed: zeroAllowed), usage: usage)
        }
        return value
    }
}

/// What `archive` is asked to do.
public enum ArchiveRequest: String, Sendable, Equatable {
    case status, now, on, off
}
