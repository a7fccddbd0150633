import DrinkShop
import DrinkShopCore

/// A command line that could not be understood: what is wrong (with the word, column or drink it is
/// about), and the usage of the command if known.
public struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problem: CommandProblem
    public var usage: String?

    public init(_ problem: CommandProblem, usage: String? = nil) {
        self.problem = problem
        self.usage = usage
    }

    public var description: String {
        usage.map { "\(problem)\nusage: \($0)" } ?? problem.description
    }
}

/// What was wrong with a command line. Each case carries the words it is about; its message says what
/// was wrong and where, in the words staff type. Thrown alone by the parts of the grammar that do not
/// know the command (`DaySpan`), which then gets its usage.
public enum CommandProblem: Error, Sendable, Equatable, CustomStringConvertible {
    // The line and the command word.
    /// A quote opened at this column (from 1) is never closed.
    case unterminatedQuote(column: Int)
    /// The first word is no command; `near` are the commands it may have meant.
    case unknownCommand(String, near: [String])
    /// `help WORD` for a word that is no command.
    case noHelpTopic(String)
    /// A command of the shell (`serve`, `setup`…) typed at the prompt.
    case runsFromTheShell(CommandName)
    /// Words left over that the command does not take.
    case unexpected([String])

    // Orders and their lines.
    case noOrder
    /// A line with options but no drink; `line` is its number when the order has several.
    case noDrink(line: Int?)
    case orderNameTwice
    case noOrderName
    /// `note` as the last word.
    case noNoteText
    /// Two notes on one line; `line` is its number when the order has several.
    case noteTwice(line: Int?)
    case quantityTwice(line: Int)
    /// An edit's word that is no option (the drink of a line cannot change).
    case notAnOption(String)
    case nothingToChange

    // Which order, which day.
    case noPickupNumber
    case notAPickupNumber(String)
    case unknownStatus(String)
    case voidNeedsReason(OrderNumber)
    case notACupNumber(String)
    /// `--date`, `--from` or `--to` without its date.
    case dayOptionNeedsDate(String)
    case dayOptionTwice(String)
    case dateWithRange
    case toWithoutFrom
    /// Days given both as options and as dates.
    case daysTwice
    case moreThanTwoDates
    case notADate(String)
    /// The first date is after the second.
    case reversedDays(String, String)
    case watchWithJSON
    case watchWithDays
    case watchWithStatus

    // The counter's other commands.
    case seedNeedsOneFile
    case bannerDirection
    case unknownPrinter(String)
    case printerAddresses
    case onlineSwitch([String])
    case noLoginName

    // The till.
    case noPaymentMethod(OrderNumber)
    case payment(PaymentError)
    /// An amount of money: from 1 NT$, or from 0 where a count of the drawer may be nothing.
    case notAnAmount(String, zeroAllowed: Bool)
    case noAdjustment(OrderNumber)
    case countWithoutCode(String)
    case countOutOfRange(Int)
    case adjustmentTwice(String)
    case invoiceDetails
    case noDrinkNamed
    case priceWords
    case notASize(String)
    case notAPrice(String)
    case staffListTakesNothing
    /// `staff add|pin|nopin|remove` without a name.
    case noStaffName(StaffVerb)
    case unknownStaffCommand(String)
    case shiftOpenWords
    case closeWords
    case archiveWords
    case unknownArchiveRequest(String)
    case exportWords
    case memberWords
    case redeemWords(OrderNumber)
    case notFreeCups(String)
    case passWords
    /// A till parse asked of a command that is not the till's (a slip in the program, never typed).
    case notATillCommand(CommandName)

    /// The `staff` commands that name someone.
    public enum StaffVerb: Sendable, Equatable {
        case add, pin, nopin, remove
    }

    public var description: String {
        switch self {
        case .unterminatedQuote(let column): return "unterminated quote starting at column \(column)"
        case .unknownCommand(let word, let near):
            return "unknown command \"\(word)\"; " + (near.isEmpty ? "type help for the list" : "did you mean \(near.joined(separator: " or "))?")
        case .noHelpTopic(let word): return "no command \"\(word)\"; type help for the list"
        case .runsFromTheShell(let name):
            return "\(name.rawValue) runs from the shell, not at the prompt: drinkshop \(name.info.usage)"
        case .unexpected(let words): return "unexpected \"\(words.joined(separator: " "))\""

        case .noOrder: return "what should the order be?"
        case .noDrink(let line): return "which drink?\(line.map { " (drink \($0))" } ?? "") name it before or after its options"
        case .orderNameTwice: return "say `for NAME` once per order"
        case .noOrderName: return "for whom? `for NAME`"
        case .noNoteText: return "note needs a text in quotes, e.g. note \"less milk\""
        case .noteTwice(let line):
            return "note is given twice; give one note with everything in it, e.g. note \"less ice, no straw\""
                + (line.map { " (drink \($0))" } ?? "")
        case .quantityTwice(let line): return "two quantities for drink \(line)"
        case .notAnOption(let word):
            return "\"\(word)\" is not an option; the drink of a line cannot change (cancel it and order again)"
        case .nothingToChange: return "what should change? give options, xN or note \"...\""

        case .noPickupNumber: return "which order? give its pickup number, e.g. #12"
        case .notAPickupNumber(let word):
            return "\"\(word)\" is not a pickup number like #12 (or #P3 for an unsent order, #6@2026-11-30 for an earlier day's)"
        case .unknownStatus(let word): return "unknown status \"\(word)\""
        case .voidNeedsReason(let number): return "say why: void \(number) REASON"
        case .notACupNumber(let word): return "\"\(word)\" is not a cup number like 2"
        case .dayOptionNeedsDate(let option): return "\(option) needs a date, e.g. \(option) 2026-11-30"
        case .dayOptionTwice(let option): return "\(option) is given twice; give it once (--from A --to B for several days)"
        case .dateWithRange: return "give either --date D or --from A --to B, not both"
        case .toWithoutFrom: return "--to needs --from: --from 2026-11-01 --to 2026-11-30"
        case .daysTwice: return "give the days either as --date/--from/--to or as dates, not both"
        case .moreThanTwoDates: return "give at most two dates"
        case .notADate(let word): return "\"\(word)\" is not a date like 2026-12-01 (or today, yesterday)"
        case .reversedDays(let from, let to): return "\(from) is after \(to)"
        case .watchWithJSON: return "--watch and --json do not go together"
        case .watchWithDays: return "--watch shows the make line now; it takes no dates"
        case .watchWithStatus: return "the make line shows placed and preparing orders; give no status with --watch"

        case .seedNeedsOneFile: return "give exactly one file"
        case .bannerDirection: return "banner takes next or prev"
        case .unknownPrinter(let word): return "which printer? label or receipt, not \"\(word.prefix(40))\""
        case .printerAddresses: return "one address: tcp://HOST:PORT, a device or a file (quote a path with spaces)"
        case .onlineSwitch(let words): return "online takes on or off, not \"\(words.joined(separator: " ").prefix(40))\""
        case .noLoginName: return "who are you? login NAME"

        case .noPaymentMethod(let number): return "how is it paid? e.g. pay \(number) cash 500"
        case .payment(let error): return error.description
        case .notAnAmount(let word, let zeroAllowed):
            return "\"\(word)\" is not an amount of whole NT$" + (zeroAllowed ? "" : " from 1")
        case .noAdjustment(let number): return "which adjustment? e.g. adjust \(number) cup 2"
        case .countWithoutCode(let word): return "\"\(word)\" is a count without an adjustment code before it"
        case .countOutOfRange(let count): return "a count is 0 to 99, not \(count)"
        case .adjustmentTwice(let code): return "\(code) is given twice"
        case .invoiceDetails: return "give one 統一編號, carrier or donation code (or none)"
        case .noDrinkNamed: return "which drink?"
        case .priceWords: return "give the drink, the size and the new price: price 熟成紅茶 M 40"
        case .notASize(let word): return "\"\(word)\" is not a size (M/中杯 or L/大杯)"
        case .notAPrice(let word): return "\"\(word)\" is not a whole NT$ price"
        case .staffListTakesNothing: return "staff list takes nothing more"
        case .noStaffName(.add): return "who? staff add NAME [staff|manager]"
        case .noStaffName(.pin): return "whose PIN? staff pin NAME (the PIN is asked for, never typed on the line)"
        case .noStaffName(.nopin): return "whose PIN? staff nopin NAME"
        case .noStaffName(.remove): return "who? staff remove NAME"
        case .unknownStaffCommand(let verb): return "unknown staff command \"\(verb)\""
        case .shiftOpenWords: return "shift open FLOAT, e.g. shift open 2000"
        case .closeWords: return "give the cash counted in the drawer, e.g. close 5230"
        case .archiveWords: return "archive [status | now | on | off]"
        case .unknownArchiveRequest(let word): return "\"\(word)\" is not status, now, on or off"
        case .exportWords: return "export --csv FILE [DATE [DATE]]"
        case .memberWords: return "give the member's mobile number, e.g. member 0912345678"
        case .redeemWords(let number): return "redeem \(number) [cups]"
        case .notFreeCups(let word): return "\"\(word)\" is not a number of free cups from 1 to 20"
        case .passWords: return "pass 09XXXXXXXX <pass name>, e.g. pass 0912345678 月卡"
        case .notATillCommand(let name): return "\(name.rawValue) is not a till command"
        }
    }
}
