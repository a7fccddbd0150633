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
    private func parse(_ line: String) throws -> Command? { try CommandParser.parse(line: line) }

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
        #expect(try CommandParser.parse(line: "void #3 售完，客人改點") == .void(.pickup(3), reason: "售完，客人改點"))
        #expect(try CommandParser.parse(line: "cancel #3  客人說：不要了！ OK") == .cancel(.pickup(3), reason: "客人說：不要了！ OK"))
        #expect(try CommandParser.parse(line: "cancel #3 late, cold") == .cancel(.pickup(3), reason: "late, cold"))
        #expect(try CommandParser.parse(shellWords: ["void", "#3", "售完，客人改點"]) == .void(.pickup(3), reason: "售完，客人改點"))
        #expect(try CommandParser.parse(shellWords: ["cancel", "#3", "售完，", "客人改點！"]) == .cancel(.pickup(3), reason: "售完， 客人改點！"))
        // The grammar still reads the words in NFKC.
        #expect(try CommandParser.parse(line: "cancel ＃３ 售完") == .cancel(.pickup(3), reason: "售完"))
    }

    @Test func oneShotWordsSplitCommasAtWordEdges() throws {
        let command = try CommandParser.parse(shellWords: ["order", "熟成紅茶", "M", "hot,", "冷露歐蕾", "L", "半糖", "去冰",
                                                           "note", "少冰, 謝謝"])
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
        for name in CommandName.allCases {
            #expect(CommandName.find(name.rawValue.uppercased()) == name)
            for alias in name.info.aliases { #expect(CommandName.find(alias) == name) }
            // The prompt's help and completion offer what runs at the prompt; the shell's commands are in
            // `drinkshop --help` (EndToEndTests) and `help NAME` says where they run.
            #expect(help.contains(name.info.usage) != name.runsFromTheShell)
            #expect(completer.complete(line: "", cursor: 0).contains(name.rawValue) != name.runsFromTheShell)
            if name.runsFromTheShell {
                #expect(try HelpView.text(topic: name.rawValue, style: ColorPolicy(usesStyles: false)).contains("(from the shell)"))
            }
        }
        let aliases = CommandName.allCases.flatMap(\.info.aliases) + CommandName.allCases.map(\.rawValue)
        #expect(Set(aliases).count == aliases.count, "a word names two commands")
    }
}

@Suite struct PrintingCommandParserTests {
    private func parse(_ line: String) throws -> Command? { try CommandParser.parse(line: line) }

    @Test func labelsReceiptsAndTheMakeLineParse() throws {
        #expect(try parse("label #12") == .label(.pickup(12), cup: nil, preview: false))
        #expect(try parse("label 12 2 --preview") == .label(.pickup(12), cup: 2, preview: true))
        #expect(try parse("labels --preview #P3") == .label(.provisional(3), cup: nil, preview: true))
        #expect(try parse("receipt #7 --preview") == .receipt(.pickup(7), preview: true))
        #expect(try parse("orders --watch") == .watchOrders)
        #expect(try parse("ls --watch") == .watchOrders)
    }

    @Test func badLabelAndWatchRequestsSayWhatIsWrong() {
        #expect(throws: CommandError(.notACupNumber("0"), usage: CommandName.label.info.usage)) {
            try parse("label #3 0")
        }
        #expect(throws: CommandError(.unexpected(["extra"]), usage: CommandName.label.info.usage)) {
            try parse("label #3 1 extra")
        }
        #expect(throws: CommandError(.noPickupNumber, usage: CommandName.receipt.info.usage)) {
            try parse("receipt")
        }
        #expect(throws: CommandError(.watchWithJSON, usage: CommandName.orders.info.usage)) {
            try parse("orders --watch --json")
        }
        #expect(throws: CommandError(.watchWithStatus, usage: CommandName.orders.info.usage)) { try parse("orders ready --watch") }
        // The messages say what was wrong and where, in the words typed, and the command's usage after.
        #expect(CommandError(.notACupNumber("0"), usage: CommandName.label.info.usage).description
            == "\"0\" is not a cup number like 2 (不是杯號)\nusage: \(CommandName.label.info.usage)")
        #expect(CommandProblem.unexpected(["extra", "words"]).description == "unexpected \"extra words\" (多了看不懂的字)")
        #expect(CommandProblem.noPickupNumber.description == "which order? give its pickup number, e.g. #12 (請給取餐號)")
        #expect(CommandProblem.noDrink(line: 2).description == "which drink? (drink 2) name it before or after its options (請說飲品名稱)")
        #expect(CommandProblem.unknownCommand("ordr", near: ["order", "orders"]).description
            == "unknown command \"ordr\" (沒有這個指令); did you mean order or orders?")
    }
}
