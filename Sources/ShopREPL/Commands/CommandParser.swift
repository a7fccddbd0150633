import DrinkShop
import Foundation
import DrinkShopCore

/// Turns words into a `Command`. Options may come in any order and in Chinese or English; the words
/// that are not options name the drink.
public enum CommandParser {
    /// Parses a typed line.
    public static func parse(line: String) throws(CommandError) -> Command? {
        let words = try Tokenizer.words(line)
        return try parse(words: words.map(\.text))?.keepingTyped(words)
    }

    /// Parses words already split by the shell (one-shot commands). A comma at the start or end of a
    /// word separates order lines as it does in the REPL (`熟成紅茶 M hot, 冷露歐蕾 L`); a comma inside a
    /// quoted note stays part of it. Nil for no words.
    public static func parse(shellWords: [String]) throws(CommandError) -> Command? {
        var words: [Tokenizer.Word] = []
        // A full-width space inside one argument (typed with a Chinese input method) separates words
        // as a space on the command line would; each word is brought to NFKC as typed lines are.
        let pieces = shellWords.flatMap { word in word.split(separator: "\u{3000}", omittingEmptySubsequences: true) }
        for piece in pieces {
            var typed = Substring(piece)
            var comma: [String] = []
            while let first = typed.first, first == "," || first == "，" { comma.append(String(first)); typed = typed.dropFirst() }
            var trailing: [String] = []
            while let last = typed.last, last == "," || last == "，" { trailing.insert(String(last), at: 0); typed = typed.dropLast() }
            words += comma.map { Tokenizer.Word(text: ",", typed: $0, spaced: true) }
            if !typed.isEmpty {
                let text = String(typed).compatibilityNormalized
                words.append(Tokenizer.Word(text: text, typed: String(typed), spaced: comma.isEmpty))
            }
            words += trailing.map { Tokenizer.Word(text: ",", typed: $0, spaced: false) }
        }
        return try parse(words: words.map(\.text))?.keepingTyped(words)
    }

    /// Whether a typed line holds a PIN: a `login` or `staff` line with a word of 4 to 8 digits (a mobile
    /// number has 10). Such a line is refused unrun (`CommandProblem.pinOnTheLine`, which echoes nothing) and
    /// never kept in history (the session's `isSecret`).
    public static func holdsPIN(line: String) -> Bool {
        guard let words = try? Tokenizer.tokenize(line), let first = words.first, let name = CommandName.find(first) else {
            return false
        }
        return holdsPIN(name, Array(words.dropFirst()))
    }

    private static func holdsPIN(_ name: CommandName, _ arguments: [String]) -> Bool {
        guard name == .login || name == .staff else { return false }
        return arguments.contains { word in (4...8).contains(word.count) && word.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// Parses words already split into tokens. Nil for an empty line.
    public static func parse(words: [String]) throws(CommandError) -> Command? {
        guard let first = words.first else { return nil }
        guard let name = CommandName.find(first) else {
            let known = CommandName.allCases.map(\.rawValue)
            throw CommandError(.unknownCommand(first, near: known.filter { editDistance($0, first.lowercased()) <= 2 }))
        }
        var arguments = Array(words.dropFirst())
        let usage = name.info.usage
        func fail(_ problem: CommandProblem) -> CommandError { CommandError(problem, usage: usage) }
        if holdsPIN(name, arguments) { throw CommandError(.pinOnTheLine) }
        let json = take(flag: "--json", from: &arguments)
        var days: DaySpan?
        if name.takesDays {
            do { days = try DaySpan.take(from: &arguments) } catch { throw fail(error) }
        }

        switch name {
        case .menu:
            return .menu(filter: arguments.isEmpty ? nil : arguments.joined(separator: " "), json: json)
        case .order:
            guard !arguments.isEmpty else { throw fail(.noOrder) }
            return .order(try orderDraft(arguments, usage: usage))
        case .orders:
            if take(flag: "--watch", from: &arguments) {
                guard !json else { throw fail(.watchWithJSON) }
                guard days == nil else { throw fail(.watchWithDays) }
                guard arguments.isEmpty else { throw fail(.watchWithStatus) }
                return .watchOrders
            }
            return .orders(try ordersFilter(arguments, usage: usage), json: json, days: days)
        case .edit:
            let (number, rest) = try pickupNumber(arguments, usage: usage)
            var remaining = rest
            var line: Int?
            if let word = remaining.first, let index = Int(word) {
                line = index
                remaining.removeFirst()
            }
            let change = try lineChange(remaining, usage: usage)
            guard !change.isEmpty else { throw fail(.nothingToChange) }
            return .edit(number, line: line, change)
        case .advance:
            var (number, rest) = try pickupNumber(arguments, usage: usage)
            let unpaid = rest.first == "--unpaid"
            if unpaid { rest.removeFirst() }
            guard rest.isEmpty else { throw fail(.unexpected(rest)) }
            return .advance(number, unpaid: unpaid)
        case .cancel:
            let (number, rest) = try pickupNumber(arguments, usage: usage)
            return .cancel(number, reason: rest.isEmpty ? nil : rest.joined(separator: " "))
        case .void:
            let (number, rest) = try pickupNumber(arguments, usage: usage)
            guard !rest.isEmpty else { throw fail(.voidNeedsReason(number)) }
            return .void(number, reason: rest.joined(separator: " "))
        case .delete:
            let confirmed = take(flag: "--yes", from: &arguments) || take(flag: "-y", from: &arguments)
            let (number, rest) = try pickupNumber(arguments, usage: usage)
            guard rest.isEmpty else { throw fail(.unexpected(rest)) }
            return .delete(number, confirmed: confirmed)
        case .label:
            let preview = take(flag: "--preview", from: &arguments)
            let (number, rest) = try pickupNumber(arguments, usage: usage)
            switch rest.count {
            case 0: return .label(number, cup: nil, preview: preview)
            case 1:
                guard let cup = Int(rest[0]), cup > 0 else { throw fail(.notACupNumber(rest[0])) }
                return .label(number, cup: cup, preview: preview)
            default: throw fail(.unexpected(Array(rest.dropFirst())))
            }
        case .receipt:
            let preview = take(flag: "--preview", from: &arguments)
            let (number, rest) = try pickupNumber(arguments, usage: usage)
            guard rest.isEmpty else { throw fail(.unexpected(rest)) }
            return .receipt(number, preview: preview)
        case .seed:
            let replace = take(flag: "--replace", from: &arguments)
            guard arguments.count == 1 else { throw fail(.seedNeedsOneFile) }
            return .seed(path: arguments[0], replace: replace)
        case .banner:
            switch arguments.map({ $0.lowercased() }) {
            case []: return .banner(nil)
            case ["next"], ["n"]: return .banner(.next)
            case ["prev"], ["previous"], ["p"]: return .banner(.previous)
            default: throw fail(.bannerDirection)
            }
        case .printer:
            guard let first = arguments.first else { return .printer(nil, address: nil) }
            guard let role = PrinterRole(rawValue: first.lowercased()) else {
                throw fail(.unknownPrinter(first))
            }
            switch arguments.count {
            case 1: return .printer(role, address: nil)
            case 2: return .printer(role, address: arguments[1].lowercased() == "none" ? "" : arguments[1])
            default: throw fail(.printerAddresses)
            }
        case .online:
            switch arguments.map({ $0.lowercased() }) {
            case []: return .online(nil)
            case ["on"]: return .online(true)
            case ["off"]: return .online(false)
            default: throw fail(.onlineSwitch(arguments))
            }
        case .promos: return try noArguments(.promos, arguments, usage: usage)
        case .report:
            guard arguments.isEmpty else {
                guard days == nil else { throw fail(.daysTwice) }
                return .report(json: json, days: try TillGrammar.reportDays(arguments, usage: usage))
            }
            return .report(json: json, days: days)
        case .log: return try noArguments(.log(days: days), arguments, usage: usage)
        case .login:
            guard !arguments.isEmpty else { throw fail(.noLoginName) }
            return .login(arguments.joined(separator: " "))
        case .logout: return try noArguments(.logout, arguments, usage: usage)
        case .help: return .help(topic: arguments.first)
        case .quit: return .quit
        case .pay, .adjust, .invoice, .soldout, .restock, .price, .staff, .shift, .close, .archive, .export, .member, .redeem, .pass:
            return .till(try TillGrammar.parse(name, arguments, usage: usage))
        case .setup, .serve, .usage, .initialize, .check, .recover,
             .backup, .backups, .restore:
            throw fail(.runsFromTheShell(name))
        }
    }

    // MARK: - Pieces

    private static func noArguments(_ command: Command, _ arguments: [String], usage: String) throws(CommandError)
        -> Command
    {
        guard arguments.isEmpty else {
            throw CommandError(.unexpected(arguments), usage: usage)
        }
        return command
    }

    private static func take(flag: String, from arguments: inout [String]) -> Bool {
        guard let index = arguments.firstIndex(where: { $0.lowercased() == flag }) else { return false }
        arguments.remove(at: index)
        return true
    }

    /// `#12` or `12` (or `#P3`, an order taken offline) at the front.
    private static func pickupNumber(_ arguments: [String], usage: String) throws(CommandError)
        -> (OrderNumber, [String])
    {
        guard let word = arguments.first else {
            throw CommandError(.noPickupNumber, usage: usage)
        }
        guard let number = OrderNumber(parsing: word) else {
            throw CommandError(.notAPickupNumber(word), usage: usage)
        }
        return (number, Array(arguments.dropFirst()))
    }

    private static func ordersFilter(_ arguments: [String], usage: String) throws(CommandError) -> OrdersFilter {
        let text = arguments.joined(separator: " ").lowercased()
        switch text {
        case "", "open": return .open
        case "all": return .all
        default:
            guard let status = OrderStatus(parsing: text) else {
                throw CommandError(.unknownStatus(text), usage: usage)
            }
            return .status(status)
        }
    }
}
