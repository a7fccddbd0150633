import DrinkShop
import DrinkShopCore
import Foundation

/// One command of drinkshop, declared in one place (as swift-argument-parser keeps a command in one type): the
/// words that name it, what `help` says, where it runs (at the counter, by its grammar, or from the shell), who
/// may run it, whether its output is a view to page, and what Tab offers after it. `CommandSpec.all` is the one
/// table, in the order `help` lists it; the parser, `help`, completion, the access check and the program's own
/// dispatch read it, so a command is added there (`CounterCommands.swift`, `TillCommands.swift`,
/// `ShellCommands.swift`) and in its handler (a `Command` case the interpreter runs, or the shell's program).
public struct CommandSpec: Sendable {
    public let name: String
    public let aliases: [String]
    public let usage: String
    public let summary: String
    public let details: [String]
    let place: Place
    /// Who may run it once PINs are set: the action the parsed command needs (nil: anyone at the counter,
    /// logged in or not: looking, help, logging in). Checked before the command reads or writes anything. A
    /// command whose need depends on the order it touches (cancelling a paid order is a void; a manager's
    /// adjustment) is checked here for the least it needs and again, for the rest, where the order is known.
    let access: @Sendable (Command) -> ShopAction?
    /// Whether the parsed command's output is a view made for reading at the counter (tables, receipts, help),
    /// fitted to the screen and paged there: never JSON (which a terminal must not cut), never a command that
    /// asks a question midway, never the full-screen make line.
    let isScreenView: @Sendable (Command) -> Bool
    /// Whether the command takes days (`--date D`, `--from A --to B`).
    let takesDays: Bool
    /// Whether a word of 4 to 8 digits on its line is a PIN (`login`, `staff`): such a line is refused unrun.
    let mayHoldPIN: Bool
    /// Whether the shared settings and PINs are read again before it runs (all but help and quit).
    let followsSharedSettings: Bool
    /// The candidates for the word being completed after the command's name.
    let completion: @Sendable (CompletionContext) -> [String]

    /// A command's words after its name (what every command shares already taken out) into a `Command`.
    typealias Grammar = @Sendable (inout CommandWords) throws(CommandError) -> Command

    enum Place: Sendable {
        case counter(Grammar)
        case shell(ShellCommand)
    }

    /// A command of the counter (at the prompt, and one-shot from the shell).
    init(_ name: String, aliases: [String] = [], usage: String, summary: String, details: [String] = [],
         takesDays: Bool = false, mayHoldPIN: Bool = false, followsSharedSettings: Bool = true,
         access: @escaping @Sendable (Command) -> ShopAction? = { _ in nil },
         isScreenView: @escaping @Sendable (Command) -> Bool = { _ in false },
         completion: @escaping @Sendable (CompletionContext) -> [String] = { _ in [] },
         grammar: @escaping Grammar) {
        self.name = name
        self.aliases = aliases
        self.usage = usage
        self.summary = summary
        self.details = details
        self.place = .counter(grammar)
        self.access = access
        self.isScreenView = isScreenView
        self.takesDays = takesDays
        self.mayHoldPIN = mayHoldPIN
        self.followsSharedSettings = followsSharedSettings
        self.completion = completion
    }

    /// A command that runs only from the shell (`drinkshop setup`); the prompt says how.
    init(shell: ShellCommand, usage: String, summary: String, details: [String] = []) {
        self.name = shell.rawValue
        self.aliases = []
        self.usage = usage
        self.summary = summary
        self.details = details
        self.place = .shell(shell)
        self.access = { _ in nil }
        self.isScreenView = { _ in false }
        self.takesDays = false
        self.mayHoldPIN = false
        self.followsSharedSettings = false
        self.completion = { _ in [] }
    }

    /// Every command, in the order `help` lists them: the counter's, the till's, then the shell's.
    public static let all: [CommandSpec] = atTheCounter + atTheTill + fromTheShell

    /// The command named or aliased `word` (case-insensitive).
    public static func find(_ word: String) -> CommandSpec? {
        let key = word.lowercased()
        return all.first { $0.name == key || $0.aliases.contains(key) }
    }

    /// The program that runs the command from the shell; nil for the counter's commands.
    public var shellCommand: ShellCommand? {
        if case .shell(let command) = place { command } else { nil }
    }

    /// Whether the command runs only from the shell (`drinkshop setup`), not at the prompt.
    public var runsFromTheShell: Bool { shellCommand != nil }
}

extension CommandSpec: Equatable {
    /// One command is one name.
    public static func == (left: CommandSpec, right: CommandSpec) -> Bool { left.name == right.name }
}

/// A command line understood: the command's entry in the table and what it asks for.
public struct ParsedCommand: Sendable, Equatable {
    public let spec: CommandSpec
    public let command: Command

    /// The action it needs once PINs are set (nil: anyone at the counter).
    public var requiredAction: ShopAction? { spec.access(command) }

    var isScreenView: Bool { spec.isScreenView(command) }
}

/// A command's words after its name, with what every command shares taken out (`--json`, the days), and the
/// pieces its grammar reads them with; a problem carries the command's usage.
struct CommandWords {
    var words: [String]
    let json: Bool
    let days: DaySpan?
    let usage: String

    func fail(_ problem: CommandProblem) -> CommandError { CommandError(problem, usage: usage) }

    var isEmpty: Bool { words.isEmpty }

    /// The words, lowercased.
    var lowered: [String] { words.map { $0.lowercased() } }

    /// The words joined by spaces.
    var text: String { words.joined(separator: " ") }

    /// Whether `flag` was given (any case); it is taken out.
    mutating func take(flag: String) -> Bool {
        guard let index = words.firstIndex(where: { $0.lowercased() == flag }) else { return false }
        words.remove(at: index)
        return true
    }

    /// `#12` or `12` (or `#A-P3`, an order a counter kept while the store was away), taken from the front.
    mutating func pickupNumber() throws(CommandError) -> OrderNumber {
        guard let word = words.first else { throw fail(.noPickupNumber) }
        guard let number = OrderNumber(parsing: word) else { throw fail(.notAPickupNumber(word)) }
        words.removeFirst()
        return number
    }

    /// `command`, when nothing else was given.
    func nothingMore(_ command: Command) throws(CommandError) -> Command {
        guard words.isEmpty else { throw fail(.unexpected(words)) }
        return command
    }

    /// An amount of money (`500`, `$500`), 1 (or 0) to 1,000,000.
    func money(_ word: String, zeroAllowed: Bool = false) throws(CommandError) -> Int {
        let digits = word.hasPrefix("$") ? String(word.dropFirst()) : word
        guard let value = Int(digits), value >= (zeroAllowed ? 0 : 1), value <= 1_000_000 else {
            throw fail(.notAnAmount(word, zeroAllowed: zeroAllowed))
        }
        return value
    }

    /// `2026-12-01`, `today`, `yesterday` (resolved to a date by the till, `BusinessDay(_:today:)`), checked for shape.
    func day(_ word: String) throws(CommandError) -> String {
        if BusinessDay.offset(ofWord: word) != nil { return word.lowercased() }
        let parts = word.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
              let dayNumber = Int(parts[2]), (2000...2999).contains(year), (1...12).contains(month), (1...31).contains(dayNumber)
        else {
            throw fail(.notADate(word))
        }
        return String(format: "%04d-%02d-%02d", year, month, dayNumber)
    }

    /// `report DATE [DATE]`: the same days as `--date`/`--from --to` say (`today`, `yesterday` allowed).
    func reportDays() throws(CommandError) -> DaySpan {
        guard words.count <= 2 else { throw fail(.moreThanTwoDates) }
        let from = try day(words[0])
        let to = try day(words[words.count - 1])
        // Two dates are compared here; a word (today, 昨天) is a day only once the till resolves it, which
        // refuses a reversed period then (`yesterday today` is in order though "yesterday" sorts after "today").
        let named = BusinessDay.offset(ofWord: from) != nil || BusinessDay.offset(ofWord: to) != nil
        guard named || from <= to else { throw fail(.reversedDays(from, to)) }
        return DaySpan(first: from, last: to)
    }
}
