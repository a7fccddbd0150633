import DrinkShop
import DrinkShopCore

/// The counter's commands (orders, printers, the menu, the day's views, logging in), in the order `help` lists
/// them; the till's follow (`TillCommands.swift`). Each is declared whole here; its handler is its `Command`
/// case in the interpreter (`ShopInterpreter+Commands.swift`).
extension CommandSpec {
    static let atTheCounter: [CommandSpec] = [
        CommandSpec("menu", aliases: ["m"], usage: "menu [category | text] [--json]",
                    summary: "show the menu, a category, or drinks matching text",
                    details: ["categories: 季節限定 單品茶 調茶 雲蓋 歐蕾 (or seasonal, tea, mix, cream, milk)",
                              "text matches Chinese or English names, or their beginnings",
                              "♨ can be served hot; sold-out drinks are marked 售完"],
                    isScreenView: { if case .menu(_, json: true) = $0 { false } else { true } },
                    completion: { $0.matching(DrinkCategory.allCases.map(\.rawValue) + $0.drinks.map(\.name)) }) { (arguments: inout CommandWords) throws(CommandError) in
            .menu(filter: arguments.isEmpty ? nil : arguments.text, json: arguments.json)
        },
        CommandSpec("order", aliases: ["o"],
                    usage: "order <drink> <size> <sugar> <ice> [add-ons...] [xN] [note \"...\"] [, <drink> ...] [for NAME]",
                    summary: "place an order; separate several drinks with commas",
                    details: ["options in any order, in Chinese or English: 大杯/L, 半糖/half, 少冰/less ice, 白玉...",
                              "example: order 白玉歐蕾 大杯 半糖 少冰 x2 for Amy",
                              "example: order 熟成紅茶 M no sugar hot, 冷露歐蕾 L 微糖 去冰 加白玉 note \"少一點奶\""],
                    access: { _ in .placeOrder }, isScreenView: { _ in true }, completion: { $0.orderWords() }) { (arguments: inout CommandWords) throws(CommandError) in
            guard !arguments.isEmpty else { throw arguments.fail(.noOrder) }
            return .order(try CommandParser.orderDraft(arguments.words, usage: arguments.usage))
        },
        CommandSpec("orders", aliases: ["ls"],
                    usage: "orders [open | all | placed | preparing | ready | picked up | cancelled] [--date D | --from A [--to B]] [--json | --watch]",
                    summary: "list today's orders (open ones by default, with those earlier days left open)",
                    details: ["--date 2026-11-30 lists that business day; --from/--to a range of days",
                              "an order left open from an earlier day shows its day: #6@2026-11-30",
                              "#6 means today's #6, else the open #6 of an earlier day; #6@2026-11-30 names one day's",
                              "orders --watch: the make line, full screen: placed and preparing orders, oldest first,",
                              "updated as they change; ↑/↓ (or j/k) select, Enter or space advances, q leaves"],
                    takesDays: true,
                    access: { $0 == .watchOrders ? .advanceOrder : nil },
                    isScreenView: { if case .orders(_, let json, _) = $0 { !json } else { false } },
                    completion: { $0.matching(["open", "all", "--watch", "--json", "--date", "--from", "--to"] + OrderStatus.allCases.map(\.rawValue)) }
        ) { (arguments: inout CommandWords) throws(CommandError) in
            if arguments.take(flag: "--watch") {
                guard !arguments.json else { throw arguments.fail(.watchWithJSON) }
                guard arguments.days == nil else { throw arguments.fail(.watchWithDays) }
                guard arguments.isEmpty else { throw arguments.fail(.watchWithStatus) }
                return .watchOrders
            }
            return .orders(try CommandParser.ordersFilter(arguments.words, usage: arguments.usage), json: arguments.json,
                           days: arguments.days)
        },
        CommandSpec("edit", aliases: ["e"], usage: "edit #N [line] [drink] <options...> [xN] [note \"...\"]",
                    summary: "change a placed order's line, or swap its drink (it is repriced)",
                    details: ["example: edit #12 2 大杯 無糖 x3; edit #12 1 熟成紅茶 swaps line 1's drink, keeping its choices",
                              "add-ons given replace the line's add-ons; `no add-ons` removes them"],
                    access: { _ in .editOrder }, isScreenView: { _ in true },
                    completion: { $0.afterOrderNumber($0.matching(OptionVocabulary.allSpellings) + $0.matching(["note", "no add-ons"])) }
        ) { (arguments: inout CommandWords) throws(CommandError) in
            let number = try arguments.pickupNumber()
            var line: Int?
            if let word = arguments.words.first, let index = Int(word) {
                line = index
                arguments.words.removeFirst()
            }
            let change = try CommandParser.lineChange(arguments.words, usage: arguments.usage)
            guard !change.isEmpty else { throw arguments.fail(.nothingToChange) }
            return .edit(number, line: line, change)
        },
        CommandSpec("advance", aliases: ["next", "a"], usage: "advance #N [--unpaid]",
                    summary: "move an order on: placed → preparing → ready → picked up",
                    details: ["handing over an order with money due asks first (one-shot: --unpaid);",
                              "an unpaid handover goes to the audit trail and the day's report"],
                    access: { _ in .advanceOrder }, completion: { $0.afterOrderNumber([]) }) { (arguments: inout CommandWords) throws(CommandError) in
            let number = try arguments.pickupNumber()
            let unpaid = arguments.words.first == "--unpaid"
            if unpaid { arguments.words.removeFirst() }
            return try arguments.nothingMore(.advance(number, unpaid: unpaid))
        },
        CommandSpec("cancel", usage: "cancel #N [reason ...]",
                    summary: "cancel a placed or preparing order (kept, with the reason, for the report)",
                    access: { _ in .cancelOrder }, completion: { $0.afterOrderNumber([]) }) { (arguments: inout CommandWords) throws(CommandError) in
            let number = try arguments.pickupNumber()
            return .cancel(number, reason: arguments.isEmpty ? nil : arguments.text)
        },
        CommandSpec("void", usage: "void #N reason ...",
                    summary: "void an order being made, ready or picked up: kept, not revenue, in the report",
                    details: ["example: void #4 spilled at the counter", "who voided it and why go to the audit trail (log)"],
                    access: { _ in .void }, completion: { $0.afterOrderNumber([]) }) { (arguments: inout CommandWords) throws(CommandError) in
            let number = try arguments.pickupNumber()
            guard !arguments.isEmpty else { throw arguments.fail(.voidNeedsReason(number)) }
            return .void(number, reason: arguments.text)
        },
        CommandSpec("delete", aliases: ["rm"], usage: "delete #N [--yes]",
                    summary: "delete a placed order for good (asks to confirm; later ones are voided)",
                    access: { _ in .deleteOrder }, completion: { $0.afterOrderNumber($0.matching(["--yes"])) }) { (arguments: inout CommandWords) throws(CommandError) in
            let confirmed = arguments.take(flag: "--yes") || arguments.take(flag: "-y")
            let number = try arguments.pickupNumber()
            return try arguments.nothingMore(.delete(number, confirmed: confirmed))
        },
        CommandSpec("label", aliases: ["labels"], usage: "label #N [CUP] [--preview]",
                    summary: "print an order's cup stickers again (all cups, or cup CUP)",
                    details: ["the label printer is DRINKSHOP_LABEL_PRINTER: tcp://HOST:9100, a device or a file",
                              "--preview shows the stickers here instead of printing them"],
                    completion: { $0.afterOrderNumber($0.matching(["--preview"])) }) { (arguments: inout CommandWords) throws(CommandError) in
            let preview = arguments.take(flag: "--preview")
            let number = try arguments.pickupNumber()
            switch arguments.words.count {
            case 0: return .label(number, cup: nil, preview: preview)
            case 1:
                guard let cup = Int(arguments.words[0]), cup > 0 else { throw arguments.fail(.notACupNumber(arguments.words[0])) }
                return .label(number, cup: cup, preview: preview)
            default: throw arguments.fail(.unexpected(Array(arguments.words.dropFirst())))
            }
        },
        CommandSpec("receipt", usage: "receipt #N [--preview]", summary: "print an order's receipt",
                    details: ["the receipt printer is DRINKSHOP_RECEIPT_PRINTER: tcp://HOST:9100, a device or a file",
                              "--preview shows the receipt here instead of printing it"],
                    completion: { $0.afterOrderNumber($0.matching(["--preview"])) }) { (arguments: inout CommandWords) throws(CommandError) in
            let preview = arguments.take(flag: "--preview")
            let number = try arguments.pickupNumber()
            return try arguments.nothingMore(.receipt(number, preview: preview))
        },
        CommandSpec("printer", aliases: ["printers"], usage: "printer [label | receipt | online] [ADDRESS | none]",
                    summary: "show the printers, or set one for every counter (manager)",
                    details: ["ADDRESS: tcp://HOST[:PORT] (a network printer's raw port, 9100 if left out), a device such as /dev/usb/lp0, or a file",
                              "kept in the store's settings; DRINKSHOP_LABEL_PRINTER / DRINKSHOP_RECEIPT_PRINTER override it on one counter",
                              "online: where the stickers of orders from /order print, the label printer of the counter set to take them; none: drinkshop serve's label printer",
                              "example: printer label tcp://192.168.1.50:9100;  printer receipt none"],
                    access: { if case .printer(_, address: nil) = $0 { nil } else { .changeSetting } },
                    completion: { $0.previous.count == 1 ? $0.matching(PrinterRole.allCases.map(\.rawValue)) : $0.matching(["none"]) }
        ) { (arguments: inout CommandWords) throws(CommandError) in
            guard let first = arguments.words.first else { return .printer(nil, address: nil) }
            guard let role = PrinterRole(rawValue: first.lowercased()) else { throw arguments.fail(.unknownPrinter(first)) }
            switch arguments.words.count {
            case 1: return .printer(role, address: nil)
            case 2: return .printer(role, address: arguments.words[1].lowercased() == "none" ? "" : arguments.words[1])
            default: throw arguments.fail(.printerAddresses)
            }
        },
        CommandSpec("online", aliases: ["網路點單"], usage: "online [on | off]",
                    summary: "whether customers may order from the page at /order (manager)",
                    details: ["the page is served by drinkshop serve at /order (no token): customers order alone or in a group (揪團)",
                              "and pay at the counter; its orders are placed by \"網路點單 online\" and show in orders",
                              "a setting for every counter, kept in the store; off (the default) refuses new orders at once",
                              "example: online on;  online off;  online (shows which)"],
                    access: { $0 == .online(nil) ? nil : .changeSetting },
                    // Its one word, right after the command's name (`previous` holds the name).
                    completion: { $0.previous.count == 1 ? $0.matching(["on", "off"]) : [] }) { (arguments: inout CommandWords) throws(CommandError) in
            switch arguments.lowered {
            case []: return .online(nil)
            case ["on"]: return .online(true)
            case ["off"]: return .online(false)
            default: throw arguments.fail(.onlineSwitch(arguments.words))
            }
        },
        CommandSpec("seed", usage: "seed [--replace] FILE.json",
                    summary: "load or update the menu (and promotions) from a JSON file",
                    details: ["a drink or promotion already on the menu changes only in the fields the file gives",
                              "--replace: the file is the whole truth for the records it names (fields left out are cleared)",
                              "records the file does not name are never touched"],
                    access: { _ in .seedMenu },
                    completion: { ($0.partial.hasPrefix("-") ? $0.matching(["--replace"]) : []) + $0.listFiles($0.partial) }
        ) { (arguments: inout CommandWords) throws(CommandError) in
            let replace = arguments.take(flag: "--replace")
            guard arguments.words.count == 1 else { throw arguments.fail(.seedNeedsOneFile) }
            return .seed(path: arguments.words[0], replace: replace)
        },
        CommandSpec("banner", usage: "banner [next | prev]",
                    summary: "show the current banner, or move to the next or previous one",
                    completion: { $0.matching(["next", "prev"]) }) { (arguments: inout CommandWords) throws(CommandError) in
            switch arguments.lowered {
            case []: return .banner(nil)
            case ["next"], ["n"]: return .banner(.next)
            case ["prev"], ["previous"], ["p"]: return .banner(.previous)
            default: throw arguments.fail(.bannerDirection)
            }
        },
        CommandSpec("promos", aliases: ["promotions"], usage: "promos", summary: "list promotions and whether they are active now",
                    isScreenView: { _ in true }) { (arguments: inout CommandWords) throws(CommandError) in
            try arguments.nothingMore(.promos)
        },
        CommandSpec("report", usage: "report [--date D | --from A [--to B] | DATE [DATE]] [--json]",
                    summary: "a day's sales (cups, revenue, discounts, cancellations and voids) and today's till (日結)",
                    details: ["cancelled and voided orders are listed with who and why, apart from revenue",
                              "audit entries (cancels, voids, deletes, edits) of the days are counted",
                              "then the till report (by payment method, staff, hour, drawer...) of the same days",
                              "report DATE [DATE] is report --date DATE / --from DATE --to DATE: one report;",
                              "dates: 2026-12-01, today, yesterday; two dates give a range, both days included",
                              "--json: one object with both, {\"sales\": …, \"till\": …}"],
                    takesDays: true,
                    isScreenView: { if case .report(json: true, _) = $0 { false } else { true } },
                    completion: { $0.matching(["--date", "--from", "--to"]) }) { (arguments: inout CommandWords) throws(CommandError) in
            guard arguments.isEmpty else {
                guard arguments.days == nil else { throw arguments.fail(.daysTwice) }
                return .report(json: arguments.json, days: try arguments.reportDays())
            }
            return .report(json: arguments.json, days: arguments.days)
        },
        CommandSpec("log", aliases: ["audit"], usage: "log [--date D | --from A [--to B]]",
                    summary: "the audit trail: who cancelled, voided, deleted or edited what, when and why",
                    takesDays: true, isScreenView: { _ in true }, completion: { $0.matching(["--date", "--from", "--to"]) }) { (arguments: inout CommandWords) throws(CommandError) in
            try arguments.nothingMore(.log(days: arguments.days))
        },
        CommandSpec("login", usage: "login NAME", summary: "identify yourself; orders record who placed them",
                    mayHoldPIN: true) { (arguments: inout CommandWords) throws(CommandError) in
            guard !arguments.isEmpty else { throw arguments.fail(.noLoginName) }
            return .login(arguments.text)
        },
        CommandSpec("logout", usage: "logout", summary: "forget who is at the counter") { (arguments: inout CommandWords) throws(CommandError) in
            try arguments.nothingMore(.logout)
        },
        help,
        CommandSpec("quit", aliases: ["exit", "q"], usage: "quit", summary: "leave (Ctrl-D works too)",
                    followsSharedSettings: false) { _ in
            .quit
        },
    ]

    /// `help`: also what the program answers from the shell, without a store (`drinkshop help`).
    public static let help = CommandSpec(
        "help", aliases: ["?"], usage: "help [command]", summary: "list commands or explain one", followsSharedSettings: false,
        isScreenView: { _ in true },
        completion: { $0.matching(CommandSpec.all.filter { !$0.runsFromTheShell }.map(\.name)) }
    ) { (arguments: inout CommandWords) throws(CommandError) in
        .help(topic: arguments.words.first)
    }
}
