import DrinkShop
import DrinkShopCore

/// The till's commands (payments, menu control, staff, the drawer, archive, export, members), in the order `help`
/// lists them, after the counter's (`CounterCommands.swift`). Each is declared whole here; its handler is its
/// `Command` case in the interpreter (`ShopInterpreter+Commands.swift`).
extension CommandSpec {
    static let atTheTill: [CommandSpec] = [
        CommandSpec("pay", aliases: ["付"], usage: "pay #N <method> [amount]", summary: "take payment; cash answers the change due",
                    details: ["methods: cash 現金, card 信用卡, linepay, jkopay 街口, easycard 悠遊卡, other",
                              "example: pay #12 cash 500 — an amount below what is due is a part payment",
                              "no amount pays exactly what is due"],
                    access: { _ in .takePayment },
                    completion: { $0.afterOrderNumber($0.matching(PaymentMethod.allCases.map(\.rawValue))) }) { (arguments: inout CommandWords) throws(CommandError) in
            let number = try arguments.pickupNumber()
            guard let methodWord = arguments.words.first else { throw arguments.fail(.noPaymentMethod(number)) }
            arguments.words.removeFirst()
            var methodText = methodWord
            // Two-word methods: "line pay".
            if methodWord.lowercased() == "line", arguments.words.first?.lowercased() == "pay" {
                arguments.words.removeFirst()
                methodText = "linepay"
            }
            let method: PaymentMethod
            do throws(PaymentError) { method = try PaymentMethod.parse(methodText) } catch { throw arguments.fail(.payment(error)) }
            guard arguments.words.count <= 1 else { throw arguments.fail(.unexpected(Array(arguments.words.dropFirst()))) }
            var amount: Int?
            if let word = arguments.words.first { amount = try arguments.money(word) }
            return .pay(number, method, amount: amount)
        },
        CommandSpec("adjust", usage: "adjust #N <code> [count] ...",
                    summary: "apply the counter's adjustments (own cup, bag fee, staff price) to an order",
                    details: ["example: adjust #12 cup 2 bag 1; a count of 0 removes it",
                              "codes come from the seed file's \"adjustments\"; shown in report and receipt"],
                    access: { _ in .editOrder }, completion: { $0.afterOrderNumber([]) }) { (arguments: inout CommandWords) throws(CommandError) in
            let number = try arguments.pickupNumber()
            guard !arguments.isEmpty else { throw arguments.fail(.noAdjustment(number)) }
            var uses: [String: Int] = [:]
            while let code = arguments.words.first {
                arguments.words.removeFirst()
                guard Int(code) == nil else { throw arguments.fail(.countWithoutCode(code)) }
                var count = 1
                if let next = arguments.words.first, let value = Int(next.hasPrefix("x") ? String(next.dropFirst()) : next) {
                    guard (0...99).contains(value) else { throw arguments.fail(.countOutOfRange(value)) }
                    count = value
                    arguments.words.removeFirst()
                }
                guard uses[code.lowercased()] == nil else { throw arguments.fail(.adjustmentTwice(code)) }
                uses[code.lowercased()] = count
            }
            return .adjust(number, uses)
        },
        CommandSpec("invoice", aliases: ["統編"], usage: "invoice #N <統一編號 | /ABC1234 | AB12345678901234 | donation code | none>",
                    summary: "record invoice details (checked, not issued)",
                    access: { _ in .editOrder }, completion: { $0.afterOrderNumber([]) }) { (arguments: inout CommandWords) throws(CommandError) in
            let number = try arguments.pickupNumber()
            guard arguments.words.count == 1 else { throw arguments.fail(.invoiceDetails) }
            let text = arguments.words[0]
            return .invoice(number, ["none", "clear", "無"].contains(text.lowercased()) ? nil : text)
        },
        CommandSpec("einvoice", aliases: ["發票"],
                    usage: "einvoice [tracks [PERIOD] | seller BAN NAME --address ADDRESS [--qr-key KEY] [--turnkey DIR] | track PERIOD AB 12345000-12345249 | status | blanks PERIOD | issue #N]",
                    summary: "the 統一發票 the till issues: seller, number ranges (字軌), Turnkey's files",
                    details: ["einvoice seller 12345675 可不可熟成紅茶台北店 --address 台北市… --qr-key KEY --turnkey /srv/turnkey (manager)",
                              "  without --qr-key the key (32 hex characters) is asked unseen (one-shot: DRINKSHOP_QR_KEY); never shown",
                              "einvoice track 11512 AB 12345000-12345249: a range the platform gave, whole books of 50 (manager)",
                              "einvoice track FILE.xml: the ranges of the platform's E0501 配號 file, all or none (manager)",
                              "einvoice tracks: each range, who holds which book, what is left; einvoice status: Turnkey's files",
                              "einvoice blanks 11512: after the period, its blank numbers as E0402 (manager)",
                              "einvoice issue #N: the invoice of a paid order a crash left without one (manager)",
                              "an invoice is issued when an order is paid in full, as invoice #N says (printed, carrier, donation, 統編)"],
                    access: { request in
                        switch request {
                        case .einvoice(.tracks), .einvoice(.status): .takePayment
                        default: .invoiceSetup
                        }
                    },
                    isScreenView: { if case .einvoice(.tracks) = $0 { true } else { false } },
                    completion: { $0.previous.count == 1 ? $0.matching(["tracks", "seller", "track", "status", "blanks", "issue"]) : [] }
        ) { (arguments: inout CommandWords) throws(CommandError) in
            let verb = arguments.words.first?.lowercased() ?? "tracks"
            if !arguments.isEmpty { arguments.words.removeFirst() }
            switch verb {
            case "tracks", "字軌":
                guard arguments.words.count <= 1 else { throw arguments.fail(.einvoiceWords("einvoice tracks takes at most a period, like 11512")) }
                return .einvoice(.tracks(period: arguments.words.first))
            case "track":
                guard !arguments.isEmpty else {
                    throw arguments.fail(.einvoiceWords("einvoice track needs the period, the track and the range, like einvoice track 11512 AB 12345000-12345249"))
                }
                // One word ending in `.xml` names the platform's E0501 file; anything else is a range as typed.
                if arguments.words.count == 1, arguments.words[0].lowercased().hasSuffix(".xml") {
                    return .einvoice(.trackFile(path: arguments.words[0]))
                }
                return .einvoice(.track(arguments.words.joined(separator: " ")))
            case "status": return .einvoice(.status)
            case "blanks":
                guard arguments.words.count == 1 else { throw arguments.fail(.einvoiceWords("einvoice blanks needs one period, like 11512")) }
                return .einvoice(.blanks(period: arguments.words[0]))
            case "issue":
                let number = try arguments.pickupNumber()
                guard arguments.isEmpty else { throw arguments.fail(.unexpected(arguments.words)) }
                return .einvoice(.issue(number))
            case "seller":
                var plain: [String] = []
                var options: [String: [String]] = [:]
                var current: String?
                for word in arguments.words {
                    let lowered = word.lowercased()
                    if ["--address", "--qr-key", "--turnkey"].contains(lowered) {
                        guard options[lowered] == nil else { throw arguments.fail(.einvoiceWords("\(word) is given twice")) }
                        options[lowered] = []
                        current = lowered
                    } else if lowered.hasPrefix("--") {
                        throw arguments.fail(.einvoiceWords("einvoice seller takes --address, --qr-key and --turnkey, not \(word.prefix(20))"))
                    } else if let key = current {
                        options[key, default: []].append(word)
                    } else {
                        plain.append(word)
                    }
                }
                guard plain.count >= 2 else {
                    throw arguments.fail(.einvoiceWords("einvoice seller needs the shop's 統一編號 and name, like einvoice seller 12345675 可不可熟成紅茶台北店 --address 台北市…"))
                }
                guard let address = options["--address"], !address.isEmpty else {
                    throw arguments.fail(.einvoiceWords("einvoice seller needs --address, the shop's address as registered"))
                }
                for key in ["--qr-key", "--turnkey"] where options[key] != nil && options[key]?.count != 1 {
                    throw arguments.fail(.einvoiceWords("\(key) takes one word"))
                }
                return .einvoice(.seller(number: plain[0], name: plain.dropFirst().joined(separator: " "),
                                         address: address.joined(separator: " "), qrKey: options["--qr-key"]?.first,
                                         turnkey: options["--turnkey"]?.first))
            default:
                throw arguments.fail(.einvoiceWords("einvoice takes tracks, seller, track, status, blanks or issue, not \(verb.prefix(20))"))
            }
        },
        CommandSpec("soldout", aliases: ["售完"], usage: "soldout <drink | add-on | ingredient | size | drink size>",
                    summary: "mark something sold out on every counter and the page (manager once PINs are set)",
                    details: ["examples: soldout 加白玉 · soldout 白玉 (and 加白玉 and the drinks made with it) · soldout 大杯 · soldout 熟成紅茶 大杯",
                              "a name that is only part of one, or names several things, is asked about (one-shot: refused with the choices)"],
                    access: { _ in .soldOut }, completion: { $0.matching($0.drinks.map(\.name)) }) { (arguments: inout CommandWords) throws(CommandError) in
            guard !arguments.isEmpty else { throw arguments.fail(.noDrinkNamed) }
            return .soldOut(arguments.text)
        },
        CommandSpec("restock", aliases: ["補貨"], usage: "restock <drink | add-on | ingredient | size | drink size>",
                    summary: "put something sold out back on sale (manager once PINs are set)", details: ["example: restock 加白玉"],
                    access: { _ in .restock }, completion: { $0.matching($0.drinks.map(\.name)) }) { (arguments: inout CommandWords) throws(CommandError) in
            guard !arguments.isEmpty else { throw arguments.fail(.noDrinkNamed) }
            return .restock(arguments.text)
        },
        CommandSpec("price", usage: "price <drink> <M|L> <NT$>", summary: "change a drink's price (manager once PINs are set)",
                    details: ["example: price 熟成紅茶 M 40"],
                    access: { _ in .changePrice }, completion: { $0.matching($0.drinks.map(\.name)) }) { (arguments: inout CommandWords) throws(CommandError) in
            guard arguments.words.count >= 3 else { throw arguments.fail(.priceWords) }
            let priceWord = arguments.words.removeLast()
            let sizeWord = arguments.words.removeLast()
            guard case .size(let size)? = OptionVocabulary.option(for: sizeWord) else { throw arguments.fail(.notASize(sizeWord)) }
            guard let price = Int(priceWord) else { throw arguments.fail(.notAPrice(priceWord)) }
            return .price(arguments.text, size, price)
        },
        CommandSpec("staff", usage: "staff [list | add NAME [staff|manager] | pin NAME | nopin NAME | remove NAME]",
                    summary: "staff, roles and PINs (manager once PINs are set)",
                    details: ["pin asks for the new PIN twice without showing it (one-shot: DRINKSHOP_NEW_PIN)",
                              "the first PIN must be a manager's; once any PIN is set, login asks for it"],
                    mayHoldPIN: true,
                    access: { $0 == .staffList ? nil : .staffChanges },
                    isScreenView: { $0 == .staffList },
                    completion: { $0.matching(["add", "role", "pin", "nopin", "list", "staff", "manager"]) }) { (arguments: inout CommandWords) throws(CommandError) in
            let verb = arguments.words.first?.lowercased() ?? "list"
            if !arguments.isEmpty { arguments.words.removeFirst() }
            switch verb {
            case "list", "ls":
                guard arguments.isEmpty else { throw arguments.fail(.staffListTakesNothing) }
                return .staffList
            case "add", "role":
                var role = StaffRole.staff
                if arguments.words.count >= 2, let parsed = StaffRole(parsing: arguments.words[arguments.words.count - 1]) {
                    role = parsed
                    arguments.words.removeLast()
                }
                guard !arguments.isEmpty else { throw arguments.fail(.noStaffName(.add)) }
                return .staffAdd(arguments.text, role)
            case "pin":
                guard !arguments.isEmpty else { throw arguments.fail(.noStaffName(.pin)) }
                return .staffPIN(arguments.text)
            case "nopin":
                guard !arguments.isEmpty else { throw arguments.fail(.noStaffName(.nopin)) }
                return .staffNoPIN(arguments.text)
            case "remove", "rm":
                guard !arguments.isEmpty else { throw arguments.fail(.noStaffName(.remove)) }
                return .staffRemove(arguments.text)
            default:
                throw arguments.fail(.unknownStaffCommand(verb))
            }
        },
        CommandSpec("shift", usage: "shift [open FLOAT]",
                    summary: "show the open shift and the cash expected, or open one with its cash float",
                    access: { $0 == .shiftShow ? nil : .openShift }, completion: { $0.matching(["open"]) }) { (arguments: inout CommandWords) throws(CommandError) in
            if arguments.isEmpty { return .shiftShow }
            guard arguments.words[0].lowercased() == "open", arguments.words.count == 2 else { throw arguments.fail(.shiftOpenWords) }
            return .shiftOpen(float: try arguments.money(arguments.words[1], zeroAllowed: true))
        },
        CommandSpec("close", aliases: ["交班"], usage: "close COUNTED [--archive]",
                    summary: "count the drawer: expected vs counted, over/short recorded (manager once PINs are set)",
                    details: ["--archive then moves the closed days (those before today) out of the base into the archive",
                              "(also every close once `archive on` is set); see help archive"],
                    access: { _ in .closeDay },
                    completion: { $0.previous.count == 1 ? $0.matching(["--archive"]) : [] }) { (arguments: inout CommandWords) throws(CommandError) in
            let archive = arguments.words.contains { $0.lowercased() == "--archive" }
            arguments.words.removeAll { $0.lowercased() == "--archive" }
            guard arguments.words.count == 1 else { throw arguments.fail(.closeWords) }
            return .close(counted: try arguments.money(arguments.words[0], zeroAllowed: true), archive: archive)
        },
        CommandSpec("archive", aliases: ["歸檔"], usage: "archive [status | now | on | off]",
                    summary: "move closed days out of the base into a local archive; reports still read them",
                    details: ["status (the default): the archive file, the days in it, whether close archives",
                              "now: copy every day before today into the archive, check the copies, then remove them",
                              "  from the base (orders still open and an open shift stay); run it again after any failure",
                              "on / off: whether every `close` archives (a setting for every counter; manager)",
                              "the file: DRINKSHOP_ARCHIVE, else archive-<base>.sqlite in the data folder",
                              "(the embedded store: <store>.archive.sqlite beside it)"],
                    access: { command in
                        switch command {
                        case .archive(.now): .closeDay
                        case .archive(.on), .archive(.off): .changeSetting
                        default: nil
                        }
                    },
                    // Its one word, right after the command's name (`previous` holds the name).
                    completion: { $0.previous.count == 1 ? $0.matching(["now", "on", "off", "status"]) : [] }) { (arguments: inout CommandWords) throws(CommandError) in
            guard arguments.words.count <= 1 else { throw arguments.fail(.archiveWords) }
            guard let request = ArchiveRequest(rawValue: arguments.words.first?.lowercased() ?? "status") else {
                throw arguments.fail(.unknownArchiveRequest(arguments.words[0]))
            }
            return .archive(request)
        },
        CommandSpec("export", usage: "export --csv FILE [DATE [DATE]]",
                    summary: "write FILE-orders.csv, FILE-lines.csv, FILE-payments.csv (UTF-8 with BOM for Excel)",
                    completion: { $0.matching(["--csv"]) }) { (arguments: inout CommandWords) throws(CommandError) in
            guard let flag = arguments.words.first, flag.lowercased() == "--csv", arguments.words.count >= 2 else {
                throw arguments.fail(.exportWords)
            }
            let path = arguments.words[1]
            let dates = Array(arguments.words.dropFirst(2))
            guard dates.count <= 2 else { throw arguments.fail(.moreThanTwoDates) }
            var from: String?
            var to: String?
            if let first = dates.first, let last = dates.last {
                from = try arguments.day(first)
                to = try arguments.day(last)
            }
            return .export(path: path, from: from, to: to)
        },
        CommandSpec("member", aliases: ["會員"], usage: "member 09XXXXXXXX", summary: "a member's stamps and pass",
                    details: ["an order `for 0912345678` is the member's: a stamp per cup, the pass discount when active"]) { (arguments: inout CommandWords) throws(CommandError) in
            guard arguments.words.count == 1 else { throw arguments.fail(.memberWords) }
            return .member(arguments.words[0])
        },
        CommandSpec("redeem", aliases: ["兌換"], usage: "redeem #N [cups]",
                    summary: "free cups of the reward size for the member's stamps (before payment)",
                    access: { _ in .redeemStamps }, completion: { $0.afterOrderNumber([]) }) { (arguments: inout CommandWords) throws(CommandError) in
            let number = try arguments.pickupNumber()
            guard arguments.words.count <= 1 else { throw arguments.fail(.redeemWords(number)) }
            var cups = 1
            if let word = arguments.words.first {
                guard let value = Int(word.hasPrefix("x") ? String(word.dropFirst()) : word), (1...20).contains(value) else {
                    throw arguments.fail(.notFreeCups(word))
                }
                cups = value
            }
            return .redeem(number, cups: cups)
        },
        CommandSpec("pass", usage: "pass 09XXXXXXXX <pass name>", summary: "sell a member pass (refused while theirs is still active)",
                    access: { _ in .sellPass }) { (arguments: inout CommandWords) throws(CommandError) in
            guard arguments.words.count >= 2 else { throw arguments.fail(.passWords) }
            return .buyPass(mobile: arguments.words[0], pass: arguments.words.dropFirst().joined(separator: " "))
        },
    ]
}
