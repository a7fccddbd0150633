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
    case runsFromTheShell(CommandSpec)
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
    /// An `einvoice` line that says what is wrong with it.
    case einvoiceWords(String)
    case noLoginName
    /// A PIN typed on a `login` or `staff` line: refused without running, echoing or keeping it.
    case pinOnTheLine

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

    /// The `staff` commands that name someone.
    public enum StaffVerb: Sendable, Equatable {
        case add, pin, nopin, remove
    }

    public var description: String {
        switch self {
        case .unterminatedQuote(let column): return "unterminated quote starting at column \(column) (引號沒有結束)"
        case .unknownCommand(let word, let near):
            return "unknown command \"\(word)\" (沒有這個指令); "
                + (near.isEmpty ? "type help for the list" : "did you mean \(near.joined(separator: " or "))?")
        case .noHelpTopic(let word): return "no command \"\(word)\" (沒有這個指令); type help for the list"
        case .runsFromTheShell(let spec):
            return "\(spec.name) runs from the shell, not at the prompt: drinkshop \(spec.usage) (請在終端機的命令列執行)"
        case .unexpected(let words): return "unexpected \"\(words.joined(separator: " "))\" (多了看不懂的字)"

        case .noOrder: return "what should the order be? (要點什麼？)"
        case .noDrink(let line): return "which drink?\(line.map { " (drink \($0))" } ?? "") name it before or after its options (請說飲品名稱)"
        case .orderNameTwice: return "say `for NAME` once per order (每張訂單只能有一個訂購人)"
        case .noOrderName: return "for whom? `for NAME` (請說訂購人)"
        case .noNoteText: return "note needs a text in quotes, e.g. note \"less milk\" (備註要寫在引號裡)"
        case .noteTwice(let line):
            return "note is given twice; give one note with everything in it, e.g. note \"less ice, no straw\""
                + (line.map { " (drink \($0))" } ?? "") + " (備註只能一個)"
        case .quantityTwice(let line): return "two quantities for drink \(line) (杯數重複)"
        case .notAnOption(let word):
            return "\"\(word)\" is not an option (不是選項); another drink for the line goes first: edit #N LINE DRINK [options]"
        case .nothingToChange: return "what should change? give options, xN or note \"...\" (請說要改什麼)"

        case .noPickupNumber: return "which order? give its pickup number, e.g. #12 (請給取餐號)"
        case .notAPickupNumber(let word):
            return "\"\(word)\" is not a pickup number like #12 (or #A-P3 for an order a counter kept while the store was away, #6@2026-11-30 for an earlier day's) (不是取餐號)"
        case .unknownStatus(let word): return "unknown status \"\(word)\" (沒有這種狀態)"
        case .voidNeedsReason(let number): return "say why: void \(number) REASON (作廢須填寫原因)"
        case .notACupNumber(let word): return "\"\(word)\" is not a cup number like 2 (不是杯號)"
        case .dayOptionNeedsDate(let option): return "\(option) needs a date, e.g. \(option) 2026-11-30 (請給日期)"
        case .dayOptionTwice(let option): return "\(option) is given twice; give it once (--from A --to B for several days) (選項重複)"
        case .dateWithRange: return "give either --date D or --from A --to B, not both (只能擇一)"
        case .toWithoutFrom: return "--to needs --from: --from 2026-11-01 --to 2026-11-30 (缺少起始日)"
        case .daysTwice: return "give the days either as --date/--from/--to or as dates, not both (日期只能用一種方式給)"
        case .moreThanTwoDates: return "give at most two dates (最多兩個日期)"
        case .notADate(let word): return "\"\(word)\" is not a date like 2026-12-01 (or today, yesterday) (日期格式錯誤)"
        case .reversedDays(let from, let to): return "\(from) is after \(to) (日期前後顛倒)"
        case .watchWithJSON: return "--watch and --json do not go together (不能同時使用)"
        case .watchWithDays: return "--watch shows the make line now; it takes no dates (製作中清單不需日期)"
        case .watchWithStatus: return "the make line shows placed and preparing orders; give no status with --watch (製作中清單不需狀態)"

        case .seedNeedsOneFile: return "give exactly one file (只能給一個檔案)"
        case .bannerDirection: return "banner takes next or prev (只能用 next 或 prev)"
        case .unknownPrinter(let word): return "which printer? label, receipt or online, not \"\(word.prefix(40))\" (請選標籤機、收據機或網路單標籤機)"
        case .printerAddresses: return "one address: tcp://HOST:PORT, a device or a file (quote a path with spaces) (只能給一個位址)"
        case .einvoiceWords(let problem): return problem + " (電子發票指令有誤)"
        case .onlineSwitch(let words): return "online takes on or off, not \"\(words.joined(separator: " ").prefix(40))\" (只能用 on 或 off)"
        case .noLoginName: return "who are you? login NAME (請輸入名字登入)"
        case .pinOnTheLine:
            return "a PIN is never typed on the command line: it was not run, shown or kept; login NAME and staff pin NAME "
                + "ask for it without showing it (一次性指令用 DRINKSHOP_PIN) (PIN 不要打在指令上)"

        case .noPaymentMethod(let number): return "how is it paid? e.g. pay \(number) cash 500 (請說付款方式)"
        case .payment(let error): return error.description
        case .notAnAmount(let word, let zeroAllowed):
            return "\"\(word)\" is not an amount of whole NT$" + (zeroAllowed ? "" : " from 1") + " (不是有效的金額)"
        case .noAdjustment(let number): return "which adjustment? e.g. adjust \(number) cup 2 (請說哪一種折讓)"
        case .countWithoutCode(let word): return "\"\(word)\" is a count without an adjustment code before it (數量前要有折讓代碼)"
        case .countOutOfRange(let count): return "a count is 0 to 99, not \(count) (數量須為 0 到 99)"
        case .adjustmentTwice(let code): return "\(code) is given twice (折讓重複)"
        case .invoiceDetails: return "give one 統一編號, carrier or donation code (or none) (發票資料只能給一種)"
        case .noDrinkNamed: return "which drink? (請說飲品名稱)"
        case .priceWords: return "give the drink, the size and the new price: price 熟成紅茶 M 40 (請給飲品、大小杯和新價格)"
        case .notASize(let word): return "\"\(word)\" is not a size (M/中杯 or L/大杯)"
        case .notAPrice(let word): return "\"\(word)\" is not a whole NT$ price (價格須為整數)"
        case .staffListTakesNothing: return "staff list takes nothing more (staff list 後面不用加字)"
        case .noStaffName(.add): return "who? staff add NAME [staff|manager] (請給店員名字)"
        case .noStaffName(.pin): return "whose PIN? staff pin NAME (the PIN is asked for, never typed on the line) (請給店員名字)"
        case .noStaffName(.nopin): return "whose PIN? staff nopin NAME (請給店員名字)"
        case .noStaffName(.remove): return "who? staff remove NAME (請給店員名字)"
        case .unknownStaffCommand(let verb): return "unknown staff command \"\(verb)\" (沒有這個店員指令)"
        case .shiftOpenWords: return "shift open FLOAT, e.g. shift open 2000 (開班請給零用金)"
        case .closeWords: return "give the cash counted in the drawer, e.g. close 5230 (關班請給錢櫃點算的現金)"
        case .archiveWords: return "archive [status | now | on | off] (封存請用 status、now、on 或 off)"
        case .unknownArchiveRequest(let word): return "\"\(word)\" is not status, now, on or off (封存指令看不懂)"
        case .exportWords: return "export --csv FILE [DATE [DATE]] (請給匯出檔名)"
        case .memberWords: return "give the member's mobile number, e.g. member 0912345678 (請給會員手機號碼)"
        case .redeemWords(let number): return "redeem \(number) [cups] (兌換集點飲品，可給杯數)"
        case .notFreeCups(let word): return "\"\(word)\" is not a number of free cups from 1 to 20 (免費杯數須為 1 到 20)"
        case .passWords: return "pass 09XXXXXXXX <pass name>, e.g. pass 0912345678 月卡 (請給會員手機號碼和卡名)"
        }
    }
}
