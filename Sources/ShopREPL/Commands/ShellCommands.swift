/// The programs that run only from the shell (DrinkShopCLI runs them; the prompt says how).
public enum ShellCommand: String, Sendable {
    case setup, serve, usage, initialize = "init", check, recover, backup, backups, restore
}

/// The commands that run only from the shell, in the order `drinkshop --help` lists them, after the counter's.
extension CommandSpec {
    static let fromTheShell: [CommandSpec] = [
        CommandSpec(shell: .setup, usage: "setup",
                    summary: "create the shop's tables and fields in the remote base (or print what to create by hand); never touches records",
                    details: ["the remote base is AIRTABLE_BASE_ID, reached with AIRTABLE_TOKEN"]),
        CommandSpec(shell: .serve, usage: "serve [--host H] [--port N] [--tokens FILE] [--rate-limit N] [--views FILE] [--webhook-allow URL]",
                    summary: "serve the embedded base with Airtable's REST API, the pickup screen at /display and the ordering page at /order",
                    details: ["/display and /order need no token: the screen shows numbers only; the page takes orders while",
                              "`online on` is set (groups kept 2 h in memory)",
                              "--tokens FILE: one token per line with read, read-write or scopes (see README)",
                              "--views FILE defines views (DrinkShop's own JSON, not Airtable's API); webhooks notify public",
                              "https URLs only, and each local receiver named by --webhook-allow (repeatable)",
                              "serve --upstream URL --base appX [--cache-tables Drink,Promotion] [--cache-check 600]",
                              "      [--cache-max-age 3600] [--hold-writes 300] [--hold-tables OrderDrink] [--hold-refill 86400]",
                              "      [--public-url URL]:",
                              "a gateway: one Airtable base (token in AIRTABLE_TOKEN) served to every counter through one rate",
                              "budget, the menu from a cache kept fresh by webhooks when --public-url is given; order updates",
                              "answered from its copy, kept in its journal and sent within --hold-writes seconds, ten a request"]),
        CommandSpec(shell: .usage, usage: "usage",
                    summary: "calls made to the remote base today and this month, against the plan's quota",
                    details: ["the plan: DRINKSHOP_AIRTABLE_PLAN=free|team|business|enterprise"]),
        CommandSpec(shell: .initialize, usage: "init --db PATH",
                    summary: "make a new store at PATH (seeded with the menu); a missing store is never created silently"),
        CommandSpec(shell: .check, usage: "check [--db PATH] | check --books [DATE | --from DATE --to DATE]",
                    summary: "the store file's integrity check, or the books (對帳): the ledger against orders, drawer and report",
                    details: ["check --books exits 0 when the books balance, 1 when not, 2 when it cannot check"]),
        CommandSpec(shell: .recover, usage: "recover [--db PATH] --into NEW.sqlite",
                    summary: "copy every readable record of a damaged store into a new file"),
        CommandSpec(shell: .backup, usage: "backup [--db PATH] [--to DIR] [--copy-to DIR] [--keep ROTATION]",
                    summary: "a checked, consistent copy of the live store and its archive, named by the time",
                    details: ["DIR: --to, else DRINKSHOP_BACKUP_DIR, else backups/ beside the store",
                              "--copy-to DIR (or DRINKSHOP_BACKUP_COPY): a second place, e.g. a share on another machine",
                              "--keep hourly=24,daily=31,monthly=12 (or DRINKSHOP_BACKUP_KEEP): which backups stay"]),
        CommandSpec(shell: .backups, usage: "backups [--db PATH] [--to DIR]",
                    summary: "the backups kept, newest first, with each one's last order and last close"),
        CommandSpec(shell: .restore, usage: "restore BACKUP [--db NEW.sqlite] [--skip 100]",
                    summary: "a backup into a new store (never over one); today's pickup numbers skip ahead",
                    details: ["BACKUP: a name drinkshop backups lists, or the backup's folder"]),
    ]
}
