@testable import DrinkShop
import DrinkShopCore
import LineEditor
import Testing
@testable import ShopREPL

@Suite struct TokenizerTests {
    @Test func splitsOnSpacesQuotesAndCommas() throws {
        #expect(try Tokenizer.tokenize(#"order 白玉歐蕾 大杯, 熟成紅茶 M note "少 冰, 謝謝" for O'Brien"#)
                == ["order", "白玉歐蕾", "大杯", ",", "熟成紅茶", "M", "note", "少 冰, 謝謝", "for", "O'Brien"])
        #expect(try Tokenizer.tokenize("order 熟成紅茶，冷露歐蕾") == ["order", "熟成紅茶", ",", "冷露歐蕾"])
        #expect(try Tokenizer.tokenize(#"note 「不要吸管」 x "a \"b\"""#) == ["note", "不要吸管", "x", #"a "b""#])
        #expect(try Tokenizer.tokenize("   ") == [])
    }

    @Test func anUnclosedQuoteSaysWhere() {
        #expect(throws: CommandError(.unterminatedQuote(column: 14))) {
            try Tokenizer.tokenize(#"order x note "oops"#)
        }
        #expect(CommandError(.unterminatedQuote(column: 14)).description == "unterminated quote starting at column 14 (引號沒有結束)")
    }
}

@Suite struct CommandParserTests {
    private func parse(_ line: String) throws -> Command? { try CommandParser.parse(line: line)?.command }

    @Test func readsAnOrderWithOptionsInAnyOrderAndSeveralDrinks() throws {
        let command = try parse(#"order 半糖 白玉歐蕾 less ice L x2, white jade au lait M no sugar hot 白玉 note "no straw" for Amy Chen"#)
        let expected = OrderDraft(orderName: "Amy Chen", lines: [
            LineDraft(drink: "白玉歐蕾", options: [.sugar(.half), .ice(.less), .size(.large)], quantity: 2),
            LineDraft(drink: "white jade au lait", options: [.size(.medium), .sugar(.free), .ice(.hot), .addOn(.whiteTapioca)],
                      note: "no straw"),
        ])
        #expect(command == .order(expected))
    }

    @Test func readsEveryOtherCommand() throws {
        #expect(try parse("menu 歐蕾 --json") == .menu(filter: "歐蕾", json: true))
        #expect(try parse("menu") == .menu(filter: nil, json: false))
        #expect(try parse("orders") == .orders(.open, json: false))
        #expect(try parse("orders picked up --json") == .orders(.status(.pickedUp), json: true))
        #expect(try parse("orders all") == .orders(.all, json: false))
        #expect(try parse("edit #12 2 大杯 無糖 x3") == .edit(.pickup(12), line: 2,
                                                            LineChangeDraft(options: [.size(.large), .sugar(.free)], quantity: 3)))
        #expect(try parse("edit 3 no add-ons") == .edit(.pickup(3), line: nil, LineChangeDraft(clearAddOns: true)))
        #expect(try parse("advance #4") == .advance(.pickup(4)))
        #expect(try parse("cancel #4 customer left") == .cancel(.pickup(4), reason: "customer left"))
        #expect(try parse("delete #4 --yes") == .delete(.pickup(4), confirmed: true))
        #expect(try parse("seed Seeds/menu.json") == .seed(path: "Seeds/menu.json"))
        #expect(try parse("banner prev") == .banner(.previous))
        #expect(try parse("login Ken") == .login("Ken"))
        #expect(try parse("help order") == .help(topic: "order"))
        #expect(try parse("QUIT") == .quit)
        #expect(try parse("  ") == nil)
    }

    @Test("a reason keeps the CJK punctuation and spacing staff typed, at the prompt and on the command line")
    func aReasonIsKeptAsTyped() throws {
        #expect(try CommandParser.parse(line: "void #3 售完，客人改點")?.command == .void(.pickup(3), reason: "售完，客人改點"))
        #expect(try CommandParser.parse(line: "cancel #3  客人說：不要了！ OK")?.command == .cancel(.pickup(3), reason: "客人說：不要了！ OK"))
        #expect(try CommandParser.parse(line: "cancel #3 late, cold")?.command == .cancel(.pickup(3), reason: "late, cold"))
        #expect(try CommandParser.parse(shellWords: ["void", "#3", "售完，客人改點"])?.command == .void(.pickup(3), reason: "售完，客人改點"))
        #expect(try CommandParser.parse(shellWords: ["cancel", "#3", "售完，", "客人改點！"])?.command == .cancel(.pickup(3), reason: "售完， 客人改點！"))
        // The grammar still reads the words in NFKC.
        #expect(try CommandParser.parse(line: "cancel ＃３ 售完")?.command == .cancel(.pickup(3), reason: "售完"))
    }

    @Test func oneShotWordsSplitCommasAtWordEdges() throws {
        let command = try CommandParser.parse(shellWords: ["order", "熟成紅茶", "M", "hot,", "冷露歐蕾", "L", "半糖", "去冰",
                                                           "note", "少冰, 謝謝"])?.command
        guard case .order(let draft)? = command else {
            Issue.record("not an order: \(String(describing: command))")
            return
        }
        #expect(draft.lines.map(\.drink) == ["熟成紅茶", "冷露歐蕾"])
        #expect(draft.lines[1].note == "少冰, 謝謝")
    }

    @Test(arguments: [
        ("fly", "unknown command \"fly\""),
        ("ordr 熟成紅茶", "did you mean order"),
        ("order", "what should the order be?"),
        ("order M half less ice", "which drink?"),
        ("order 熟成紅茶 M for", "for whom?"),
        ("order 熟成紅茶 M note", "note needs a text"),
        ("order 熟成紅茶 M x2 x3", "two quantities"),
        ("order 熟成紅茶 M for A, 冷露歐蕾 L for B", "once per order"),
        ("edit", "which order?"),
        ("edit #x L", "not a pickup number"),
        ("edit #2", "what should change?"),
        ("edit #2 L 冷露歐蕾", "another drink for the line goes first"),
        ("orders someday", "unknown status"),
        ("seed", "exactly one file"),
        ("banner sideways", "next or prev"),
        ("advance #2 now", "unexpected"),
        ("promos please", "unexpected"),
    ])
    func explainsWhatIsWrong(line: String, message: String) {
        do {
            _ = try CommandParser.parse(line: line)
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func quantitiesComeInSeveralSpellings() {
        #expect(CommandParser.quantity("x2") == 2)
        #expect(CommandParser.quantity("×3") == 3)
        #expect(CommandParser.quantity("*4") == 4)
        #expect(CommandParser.quantity("5杯") == 5)
        #expect(CommandParser.quantity("x") == nil)
        #expect(CommandParser.quantity("xl") == nil)
        #expect(CommandParser.quantity("2") == nil)
    }
}

@Suite struct CommandTableTests {
    @Test func everyCommandIsFoundByItsNameAndAliasesAndListedByHelpAndCompletion() throws {
        let help = try HelpView.text(topic: nil, style: ColorPolicy(usesStyles: false))
        let completer = ShopCompleter()
        for spec in CommandSpec.all {
            #expect(CommandSpec.find(spec.name.uppercased()) == spec)
            for alias in spec.aliases { #expect(CommandSpec.find(alias) == spec) }
            // The prompt's help and completion offer what runs at the prompt; the shell's commands are in
            // `drinkshop --help` (EndToEndTests) and `help NAME` says where they run.
            #expect(help.contains(spec.usage) != spec.runsFromTheShell)
            #expect(completer.complete(line: "", cursor: 0).contains(spec.name) != spec.runsFromTheShell)
            if spec.runsFromTheShell {
                #expect(try HelpView.text(topic: spec.name, style: ColorPolicy(usesStyles: false)).contains("(from the shell)"))
            }
        }
        let aliases = CommandSpec.all.flatMap(\.aliases) + CommandSpec.all.map(\.name)
        #expect(Set(aliases).count == aliases.count, "a word names two commands")
    }

    /// The commands in the order `help`, `drinkshop --help` and Tab listed them before the table was one
    /// (issue 34): a command added goes where its group's list says, and nothing moves by accident.
    static let order = ["menu", "order", "orders", "edit", "advance", "cancel", "void", "delete", "label", "receipt", "printer",
                        "online", "seed", "banner", "promos", "report", "log", "login", "logout", "help", "quit",
                        "pay", "adjust", "invoice", "einvoice", "soldout", "restock", "price", "staff", "shift", "close", "archive", "export",
                        "member", "redeem", "pass",
                        "setup", "serve", "usage", "init", "check", "recover", "backup", "backups", "restore"]

    @Test("help and completion list every command in the order they always did")
    func helpAndCompletionKeepTheirOrder() throws {
        #expect(CommandSpec.all.map(\.name) == Self.order)
        let counter = Self.order.filter { CommandSpec.find($0)?.runsFromTheShell == false }
        #expect(ShopCompleter().complete(line: "", cursor: 0) == counter)
        #expect(ShopCompleter().complete(line: "help ", cursor: 5) == counter)
        let help = try HelpView.text(topic: nil, style: ColorPolicy(usesStyles: false))
        let listed = help.split(separator: "\n").dropFirst(2).compactMap { line in
            counter.first { line.hasPrefix($0 + " ") || line == $0 }
        }
        #expect(listed == counter)
    }

    @Test("every command has its help, and every command of the counter a grammar, an access entry and a line it takes")
    func everyCommandIsDeclaredWhole() throws {
        for spec in CommandSpec.all {
            #expect(spec.usage.hasPrefix(spec.name), "\(spec.name): \(spec.usage)")
            #expect(!spec.summary.isEmpty, "\(spec.name)")
            #expect(try HelpView.text(topic: spec.name, style: ColorPolicy(usesStyles: false)).contains(spec.summary))
            if spec.runsFromTheShell {
                #expect(throws: CommandError(.runsFromTheShell(spec), usage: spec.usage)) { try CommandParser.parse(line: spec.name) }
                continue
            }
            // Its grammar takes the lines the access test tries, and each is this command's.
            let lines = try #require(CommandAccessTests.lines[spec.name], "\(spec.name) has no line in CommandAccessTests")
            #expect(!lines.isEmpty, "\(spec.name)")
            for line in lines {
                let parsed = try #require(try CommandParser.parse(line: line), "\(line)")
                #expect(parsed.spec == spec, "\(line)")
                // Its access entry: what the line needs is what it needed before the table was one.
                #expect(parsed.requiredAction == CommandAccessTests.needs[line], "\(line)")
            }
        }
        #expect(Set(CommandAccessTests.lines.keys) == Set(CommandSpec.all.filter { !$0.runsFromTheShell }.map(\.name)))
        #expect(Set(CommandAccessTests.needs.keys).isSubset(of: Set(CommandAccessTests.lines.values.joined())))
    }
}

@Suite struct PrintingCommandParserTests {
    private func usage(_ name: String) -> String { CommandSpec.find(name)?.usage ?? "" }
    private func parse(_ line: String) throws -> Command? { try CommandParser.parse(line: line)?.command }

    @Test func labelsReceiptsAndTheMakeLineParse() throws {
        #expect(try parse("label #12") == .label(.pickup(12), cup: nil, preview: false))
        #expect(try parse("label 12 2 --preview") == .label(.pickup(12), cup: 2, preview: true))
        #expect(try parse("labels --preview #P3") == .label(.provisional(3), cup: nil, preview: true))
        #expect(try parse("receipt #7 --preview") == .receipt(.pickup(7), preview: true))
        #expect(try parse("orders --watch") == .watchOrders)
        #expect(try parse("ls --watch") == .watchOrders)
    }

    @Test func badLabelAndWatchRequestsSayWhatIsWrong() {
        #expect(throws: CommandError(.notACupNumber("0"), usage: usage("label"))) {
            try parse("label #3 0")
        }
        #expect(throws: CommandError(.unexpected(["extra"]), usage: usage("label"))) {
            try parse("label #3 1 extra")
        }
        #expect(throws: CommandError(.noPickupNumber, usage: usage("receipt"))) {
            try parse("receipt")
        }
        #expect(throws: CommandError(.watchWithJSON, usage: usage("orders"))) {
            try parse("orders --watch --json")
        }
        #expect(throws: CommandError(.watchWithStatus, usage: usage("orders"))) { try parse("orders ready --watch") }
        // The messages say what was wrong and where, in the words typed, and the command's usage after.
        #expect(CommandError(.notACupNumber("0"), usage: usage("label")).description
            == "\"0\" is not a cup number like 2 (不是杯號)\nusage: \(usage("label"))")
        #expect(CommandProblem.unexpected(["extra", "words"]).description == "unexpected \"extra words\" (多了看不懂的字)")
        #expect(CommandProblem.noPickupNumber.description == "which order? give its pickup number, e.g. #12 (請給取餐號)")
        #expect(CommandProblem.noDrink(line: 2).description == "which drink? (drink 2) name it before or after its options (請說飲品名稱)")
        #expect(CommandProblem.unknownCommand("ordr", near: ["order", "orders"]).description
            == "unknown command \"ordr\" (沒有這個指令); did you mean order or orders?")
    }
}
