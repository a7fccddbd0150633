/// What `help` says about a command, and the usage its errors show.
public struct CommandInfo: Sendable {
    public var name: String
    public var aliases: [String]
    public var usage: String
    public var summary: String
    public var details: [String]
}

/// Every command of drinkshop, in the order `help` lists them: the counter's (at the prompt and one-shot
/// from the shell) and those that run only from the shell (`setup`, `serve`, `usage`, `init`, `check`,
/// `recover`). The one table: the parser, `help`, Tab completion and the program's own dispatch switch over
/// it exhaustively, so a command added here does not compile until each of them knows it.
public enum CommandName: String, CaseIterable, Sendable {
    case menu, order, orders, edit, advance, cancel, void, delete, label, receipt, printer, online, seed, banner, promos, report, log, login, logout, help, quit
    // The till (`TillGrammar.swift`).
    case pay, adjust, invoice, soldout, restock, price, staff, shift, close, archive, export, member, redeem, pass
    // From the shell only (DrinkShopCLI runs them; the prompt says how).
    case setup, serve, usage, initialize = "init", check, recover, backup, backups, restore

    /// Whether the command runs only from the shell (`drinkshop setup`), not at the prompt.
    public var runsFromTheShell: Bool {
        switch self {
        case .setup, .serve, .usage, .initialize, .check, .recover, .backup, .backups, .restore: true
        case .menu, .order, .orders, .edit, .advance, .cancel, .void, .delete, .label, .receipt, .printer, .online, .seed,
             .banner, .promos, .report, .log, .login, .logout, .help, .quit, .pay, .adjust, .invoice, .soldout, .restock,
             .price, .staff, .shift, .close, .archive, .export, .member, .redeem, .pass: false
        }
    }

    /// Whether the command takes days (`--date D`, `--from A --to B`).
    var takesDays: Bool {
        switch self {
        case .orders, .report, .log: true
        case .menu, .order, .edit, .advance, .cancel, .void, .delete, .label, .receipt, .printer, .online, .seed, .banner,
             .promos, .login, .logout, .help, .quit, .pay, .adjust, .invoice, .soldout, .restock, .price, .staff, .shift,
             .close, .archive, .export, .member, .redeem, .pass, .setup, .serve, .usage, .initialize, .check, .recover,
             .backup, .backups, .restore: false
        }
    }

    /// The command named or aliased `word` (case-insensitive).
    public static func find(_ word: String) -> CommandName? {
        let key = word.lowercased()
        return allCases.first { $0.rawValue == key || $0.info.aliases.contains(key) }
    }

    public var info: CommandInfo {
        switch self {
        case .menu:
            return CommandInfo(name: rawValue, aliases: ["m"], usage: "menu [category | text] [--json]",
                               summary: "show the menu, a category, or drinks matching text",
                               details: ["categories: 季節限定 單品茶 調茶 雲蓋 歐蕾 (or seasonal, tea, mix, cream, milk)",
                                         "text matches Chinese or English names, or their beginnings",
                                         "♨ can be served hot; sold-out drinks are marked 售完"])
        case .order:
            return CommandInfo(name: rawValue, aliases: ["o"],
                               usage: "order <drink> <size> <sugar> <ice> [add-ons...] [xN] [note \"...\"] [, <drink> ...] [for NAME]",
                               summary: "place an order; separate several drinks with commas",
                               details: ["options in any order, in Chinese or English: 大杯/L, 半糖/half, 少冰/less ice, 白玉...",
                                         "example: order 白玉歐蕾 大杯 半糖 少冰 x2 for Amy",
                                         "example: order 熟成紅茶 M no sugar hot, 冷露歐蕾 L 微糖 去冰 加白玉 note \"少一點奶\""])
        case .orders:
            return CommandInfo(name: rawValue, aliases: ["ls"],
                               usage: "orders [open | all | placed | preparing | ready | picked up | cancelled] [--date D | --from A [--to B]] [--json | --watch]",
                               summary: "list today's orders (open ones by default, with those earlier days left open)",
                               details: ["--date 2026-11-30 lists that business day; --from/--to a range of days",
                                         "an order left open from an earlier day shows its day: #6@2026-11-30",
                                         "#6 means today's #6, else the open #6 of an earlier day; #6@2026-11-30 names one day's",
                                         "orders --watch: the make line, full screen: placed and preparing orders, oldest first,",
                                         "updated as they change; ↑/↓ (or j/k) select, Enter or space advances, q leaves"])
        case .edit:
            return CommandInfo(name: rawValue, aliases: ["e"], usage: "edit #N [line] [drink] <options...> [xN] [note \"...\"]",
                               summary: "change a placed order's line, or swap its drink (it is repriced)",
                               details: ["example: edit #12 2 大杯 無糖 x3; edit #12 1 熟成紅茶 swaps line 1's drink, keeping its choices",
                                         "add-ons given replace the line's add-ons; `no add-ons` removes them"])
        case .advance:
            return CommandInfo(name: rawValue, aliases: ["next", "a"], usage: "advance #N [--unpaid]",
                               summary: "move an order on: placed → preparing → ready → picked up",
                               details: ["handing over an order with money due asks first (one-shot: --unpaid);",
                                         "an unpaid handover goes to the audit trail and the day's report"])
        case .cancel:
            return CommandInfo(name: rawValue, aliases: [], usage: "cancel #N [reason ...]",
                               summary: "cancel a placed or preparing order (kept, with the reason, for the report)", details: [])
        case .void:
            return CommandInfo(name: rawValue, aliases: [], usage: "void #N reason ...",
                               summary: "void an order being made, ready or picked up: kept, not revenue, in the report",
                               details: ["example: void #4 spilled at the counter", "who voided it and why go to the audit trail (log)"])
        case .delete:
            return CommandInfo(name: rawValue, aliases: ["rm"], usage: "delete #N [--yes]",
                               summary: "delete a placed order for good (asks to confirm; later ones are voided)", details: [])
        case .label:
            return CommandInfo(name: rawValue, aliases: ["labels"], usage: "label #N [CUP] [--preview]",
                               summary: "print an order's cup stickers again (all cups, or cup CUP)",
                               details: ["the label printer is DRINKSHOP_LABEL_PRINTER: tcp://HOST:9100, a device or a file",
                                         "--preview shows the stickers here instead of printing them"])
        case .receipt:
            return CommandInfo(name: rawValue, aliases: [], usage: "receipt #N [--preview]",
                               summary: "print an order's receipt",
                               details: ["the receipt printer is DRINKSHOP_RECEIPT_PRINTER: tcp://HOST:9100, a device or a file",
                                         "--preview shows the receipt here instead of printing it"])
        case .seed:
            return CommandInfo(name: rawValue, aliases: [], usage: "seed [--replace] FILE.json",
                               summary: "load or update the menu (and promotions) from a JSON file",
                               details: ["a drink or promotion already on the menu changes only in the fields the file gives",
                                         "--replace: the file is the whole truth for the records it names (fields left out are cleared)",
                                         "records the file does not name are never touched"])
        case .banner:
            return CommandInfo(name: rawValue, aliases: [], usage: "banner [next | prev]",
                               summary: "show the current banner, or move to the next or previous one", details: [])
        case .printer:
            return CommandInfo(name: rawValue, aliases: ["printers"], usage: "printer [label | receipt | online] [ADDRESS | none]",
                               summary: "show the printers, or set one for every counter (manager)",
                               details: ["ADDRESS: tcp://HOST[:PORT] (a network printer's raw port, 9100 if left out), a device such as /dev/usb/lp0, or a file",
                                         "kept in the store's settings; DRINKSHOP_LABEL_PRINTER / DRINKSHOP_RECEIPT_PRINTER override it on one counter",
                                         "online: where the stickers of orders from /order print, the label printer of the counter set to take them; none: drinkshop serve's label printer",
                                         "example: printer label tcp://192.168.1.50:9100;  printer receipt none"])
        case .online:
            return CommandInfo(name: rawValue, aliases: ["網路點單"], usage: "online [on | off]",
                               summary: "whether customers may order from the page at /order (manager)",
                               details: ["the page is served by drinkshop serve at /order (no token): customers order alone or in a group (揪團)",
                                         "and pay at the counter; its orders are placed by \"網路點單 online\" and show in orders",
                                         "a setting for every counter, kept in the store; off (the default) refuses new orders at once",
                                         "example: online on;  online off;  online (shows which)"])
        case .promos:
            return CommandInfo(name: rawValue, aliases: ["promotions"], usage: "promos",
                               summary: "list promotions and whether they are active now", details: [])
        case .report:
            return CommandInfo(name: rawValue, aliases: [], usage: "report [--date D | --from A [--to B] | DATE [DATE]] [--json]",
                               summary: "a day's sales (cups, revenue, discounts, cancellations and voids) and today's till (日結)",
                               details: ["cancelled and voided orders are listed with who and why, apart from revenue",
                                         "audit entries (cancels, voids, deletes, edits) of the days are counted",
                                         "then the till report (by payment method, staff, hour, drawer...) of the same days",
                                         "report DATE [DATE] is report --date DATE / --from DATE --to DATE: one report;",
                                         "dates: 2026-12-01, today, yesterday; two dates give a range, both days included",
                                         "--json: one object with both, {\"sales\": …, \"till\": …}"])
        case .log:
            return CommandInfo(name: rawValue, aliases: ["audit"], usage: "log [--date D | --from A [--to B]]",
                               summary: "the audit trail: who cancelled, voided, deleted or edited what, when and why", details: [])
        case .login:
            return CommandInfo(name: rawValue, aliases: [], usage: "login NAME",
                               summary: "identify yourself; orders record who placed them", details: [])
        case .logout:
            return CommandInfo(name: rawValue, aliases: [], usage: "logout", summary: "forget who is at the counter", details: [])
        case .help:
            return CommandInfo(name: rawValue, aliases: ["?"], usage: "help [command]", summary: "list commands or explain one",
                               details: [])
        case .quit:
            return CommandInfo(name: rawValue, aliases: ["exit", "q"], usage: "quit", summary: "leave (Ctrl-D works too)",
                               details: [])
        case .pay, .adjust, .invoice, .soldout, .restock, .price, .staff, .shift, .close, .archive, .export, .member, .redeem, .pass:
            return tillInfo
        case .setup:
            return CommandInfo(name: rawValue, aliases: [], usage: "setup",
                               summary: "create the shop's tables and fields in the remote base (or print what to create by hand); never touches records",
                               details: ["the remote base is AIRTABLE_BASE_ID, reached with AIRTABLE_TOKEN"])
        case .serve:
            return CommandInfo(name: rawValue, aliases: [], usage: "serve [--host H] [--port N] [--tokens FILE] [--rate-limit N] [--views FILE] [--webhook-allow URL]",
                               summary: "serve the embedded base with Airtable's REST API, the pickup screen at /display and the ordering page at /order",
                               details: ["/display and /order need no token: the screen shows numbers only; the page takes orders while",
                                         "`online on` is set (groups kept 2 h in memory)",
                                         "--tokens FILE: one token per line with read, read-write or scopes (see README)",
                                         "--views FILE defines views (DrinkShop's own JSON, not Airtable's API); webhooks notify public",
                                         "https URLs only, and each local receiver named by --webhook-allow (repeatable)",
                                         "serve --upstream URL --base appX [--cache-tables Drink,Promotion] [--cache-check 5] [--public-url URL]:",
                                         "a gateway: one Airtable base (token in AIRTABLE_TOKEN) served to every counter through one rate",
                                         "budget, the menu from a cache kept fresh by webhooks when --public-url is given"])
        case .usage:
            return CommandInfo(name: rawValue, aliases: [], usage: "usage",
                               summary: "calls made to the remote base today and this month, against the plan's quota",
                               details: ["the plan: DRINKSHOP_AIRTABLE_PLAN=free|team|business|enterprise"])
        case .initialize:
            return CommandInfo(name: rawValue, aliases: [], usage: "init --db PATH",
                               summary: "make a new store at PATH (seeded with the menu); a missing store is never created silently",
                               details: [])
        case .check:
            return CommandInfo(name: rawValue, aliases: [], usage: "check [--db PATH] | check --books [DATE | --from DATE --to DATE]",
                               summary: "the store file's integrity check, or the books (對帳): the ledger against orders, drawer and report",
                               details: ["check --books exits 0 when the books balance, 1 when not, 2 when it cannot check"])
        case .recover:
            return CommandInfo(name: rawValue, aliases: [], usage: "recover [--db PATH] --into NEW.sqlite",
                               summary: "copy every readable record of a damaged store into a new file", details: [])
        case .backup:
            return CommandInfo(name: rawValue, aliases: [], usage: "backup [--db PATH] [--to DIR] [--copy-to DIR] [--keep ROTATION]",
                               summary: "a checked, consistent copy of the live store and its archive, named by the time",
                               details: ["DIR: --to, else DRINKSHOP_BACKUP_DIR, else backups/ beside the store",
                                         "--copy-to DIR (or DRINKSHOP_BACKUP_COPY): a second place, e.g. a share on another machine",
                                         "--keep hourly=24,daily=31,monthly=12 (or DRINKSHOP_BACKUP_KEEP): which backups stay"])
        case .backups:
            return CommandInfo(name: rawValue, aliases: [], usage: "backups [--db PATH] [--to DIR]",
                               summary: "the backups kept, newest first, with each one's last order and last close", details: [])
        case .restore:
            return CommandInfo(name: rawValue, aliases: [], usage: "restore BACKUP [--db NEW.sqlite] [--skip 100]",
                               summary: "a backup into a new store (never over one); today's pickup numbers skip ahead",
                               details: ["BACKUP: a name drinkshop backups lists, or the backup's folder"])
        }
    }
}
