import DrinkShop
import Foundation
import DrinkShopCore

/// Turns words into a `Command`, by the grammar the one command table (`CommandSpec`) gives each command.
/// Options may come in any order and in Chinese or English; the words that are not options name the drink.
public enum CommandParser {
    /// Parses a typed line.
    public static func parse(line: String) throws(CommandError) -> ParsedCommand? {
        let words = try Tokenizer.words(line)
        return try parse(words: words.map(\.text))?.keepingTyped(words)
    }

    /// Parses words already split by the shell (one-shot commands). A comma at the start or end of a
    /// word separates order lines as it does in the REPL (`熟成紅茶 M hot, 冷露歐蕾 L`); a comma inside a
    /// quoted note stays part of it. Nil for no words.
    public static func parse(shellWords: [String]) throws(CommandError) -> ParsedCommand? {
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

    /// Whether a typed line holds a PIN: a `login` or `staff` line (`CommandSpec.mayHoldPIN`) with a word of 4 to 8
    /// digits (a mobile number has 10). Such a line is refused unrun (`CommandProblem.pinOnTheLine`, which echoes
    /// nothing) and never kept in history (the session's `isSecret`).
    public static func holdsPIN(line: String) -> Bool {
        guard let words = try? Tokenizer.tokenize(line), let first = words.first, let spec = CommandSpec.find(first) else {
            return false
        }
        return holdsPIN(spec, Array(words.dropFirst()))
    }

    /// Whether a typed line holds a secret and so is never kept in history: a PIN (`holdsPIN`), or the e-invoice's
    /// QR key (`einvoice seller … --qr-key KEY`, which is run: it is how a manager gives the key).
    public static func holdsSecret(line: String) -> Bool {
        if holdsPIN(line: line) { return true }
        guard let words = try? Tokenizer.tokenize(line), let first = words.first, CommandSpec.find(first)?.name == "einvoice" else {
            return false
        }
        return words.contains { $0.lowercased().hasPrefix("--qr-key") }
    }

    private static func holdsPIN(_ spec: CommandSpec, _ arguments: [String]) -> Bool {
        guard spec.mayHoldPIN else { return false }
        return arguments.contains { word in (4...8).contains(word.count) && word.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// Parses words already split into tokens, by the grammar of the command the first word names
    /// (`CommandSpec`). Nil for an empty line.
    public static func parse(words: [String]) throws(CommandError) -> ParsedCommand? {
        guard let first = words.first else { return nil }
        guard let spec = CommandSpec.find(first) else {
            let known = CommandSpec.all.map(\.name)
            throw CommandError(.unknownCommand(first, near: known.filter { editDistance($0, first.lowercased()) <= 2 }))
        }
        var arguments = Array(words.dropFirst())
        let usage = spec.usage
        if holdsPIN(spec, arguments) { throw CommandError(.pinOnTheLine) }
        let json = take(flag: "--json", from: &arguments)
        var days: DaySpan?
        if spec.takesDays {
            do { days = try DaySpan.take(from: &arguments) } catch { throw CommandError(error, usage: usage) }
        }
        switch spec.place {
        case .shell:
            throw CommandError(.runsFromTheShell(spec), usage: usage)
        case .counter(let grammar):
            var commandWords = CommandWords(words: arguments, json: json, days: days, usage: usage)
            return ParsedCommand(spec: spec, command: try grammar(&commandWords))
        }
    }

    // MARK: - Pieces

    private static func take(flag: String, from arguments: inout [String]) -> Bool {
        guard let index = arguments.firstIndex(where: { $0.lowercased() == flag }) else { return false }
        arguments.remove(at: index)
        return true
    }

    static func ordersFilter(_ arguments: [String], usage: String) throws(CommandError) -> OrdersFilter {
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
