import Foundation

/// The command line, split into global options (which may come before or after the command) and
/// the command's own words.
struct Invocation {
    var databasePath: String?
    var staff: String?
    var color: Bool?
    var showHelp = false
    var showVersion = false
    /// `--create`: a missing store at `--db` may be created (as `drinkshop init` does).
    var create = false
    /// The command and its words; empty for the REPL.
    var words: [String] = []

    /// Options that take a value, and the flags, recognised anywhere on the line.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var invocation = Invocation()
        var index = 0
        var passthrough = false
        while index < arguments.count {
            let argument = arguments[index]
            if passthrough {
                invocation.words.append(argument)
                index += 1
                continue
            }
            let (name, inlineValue) = split(argument)
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard index + 1 < arguments.count else { throw UsageError("\(name) needs a value") }
                index += 1
                return arguments[index]
            }
            switch name {
            case "--": passthrough = true
            case "--db": invocation.databasePath = try value()
            case "--staff": invocation.staff = try value()
            case "--no-color": invocation.color = false
            case "--color": invocation.color = true
            case "--help", "-h": invocation.showHelp = true
            case "--version": invocation.showVersion = true
            case "--create": invocation.create = true
            default: invocation.words.append(argument)
            }
            index += 1
        }
        return invocation
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}

/// A command line that cannot be run as given.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
