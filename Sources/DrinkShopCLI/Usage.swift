import LineEditor
import ShopREPL

enum Usage {
    static let short = "usage: drinkshop [--db PATH] [command ...]   (drinkshop --help for more)"

    static var long: String {
        var text = """
        drinkshop: the ordering backend of a KEBUKE-style bubble-tea shop

        usage:
          drinkshop [options]                 the counter REPL on the store
          drinkshop [options] <command> ...   one command, e.g. drinkshop order 白玉歐蕾 大杯 半糖 少冰 x2 for Amy
          drinkshop [options] <shell command> ...   (below)

        shell commands:
        \(shellCommands)
        options (before or after the command):
          --db PATH        the embedded store (default: $DRINKSHOP_DB, else $XDG_DATA_HOME/drinkshop/drinkshop.sqlite)
          --staff NAME     who places orders when nobody has logged in (default: $DRINKSHOP_STAFF or $USER)
          --create         with --db or DRINKSHOP_DB: make the store if it does not exist yet
          --no-color       plain output (colours are also off when NO_COLOR is set or output is not a terminal)
          --color          colours even when writing to a pipe
          --help, --version

        environment:
          DRINKSHOP_SEEDS      a folder with menu.json (and promotions.json) that seeds a new store;
                               unset, the KEBUKE menu and promotions built into drinkshop are used
          DRINKSHOP_STAFF      who places orders when nobody has logged in
          DRINKSHOP_DEBUG_LOG  a file where store failures are recorded in detail (SQL included) for support
          DRINKSHOP_LABEL_PRINTER    the cup-sticker printer (TSPL): tcp://HOST[:PORT], /dev/usb/lp0 or a file;
                                     each order placed prints its stickers there
          DRINKSHOP_RECEIPT_PRINTER  the receipt printer (ESC/POS), the same forms
          DRINKSHOP_DAY_STARTS when the business day starts (e.g. 05:00; pickup numbers restart then);
                               written to the store's settings, so every counter agrees (default midnight)
          DRINKSHOP_TIME_ZONE  the shop's time zone (e.g. Asia/Taipei), written to the store's settings;
                               a store without one takes the zone of the first counter that opens it
          DRINKSHOP_ARCHIVE    where closed days are archived (close --archive, archive now); default
                               <store>.archive.sqlite beside the embedded store, archive-<base id>.sqlite
                               in the data directory for a remote base

        a remote base instead of the embedded store (a real Airtable base, or another drinkshop serve):
          AIRTABLE_TOKEN (or AIRTABLE_API_KEY) and AIRTABLE_BASE_ID   select it
          AIRTABLE_ENDPOINT_URL   another server (default https://api.airtable.com)
          AIRTABLE_RATE_LIMIT     requests per second the counter allows itself (default 5)
          DRINKSHOP_OUTBOX        where orders wait while the base cannot be reached
                                  (default: outbox-<base id>.sqlite in the data directory)
          DRINKSHOP_AIRTABLE_PLAN the plan whose monthly call quota usage and the warnings compare with
        every drinkshop process of this machine on one base shares one rate budget and call count
        ($XDG_STATE_HOME/drinkshop/pacing/)

        commands:

        """
        for spec in CommandSpec.all where !spec.runsFromTheShell {
            text += "  \(spec.usage)\n      \(spec.summary)\n"
        }
        return text
    }

    /// The commands that run only from the shell, from the one command table.
    private static var shellCommands: String {
        CommandSpec.all.filter(\.runsFromTheShell).map { spec in
            "  drinkshop \(spec.usage)\n      \(spec.summary)\n" + spec.details.map { "      \($0)\n" }.joined()
        }.joined()
    }
}

enum HelpText {
    static func command(_ name: String, style: ColorPolicy) throws -> String {
        guard let spec = CommandSpec.find(name) else { throw UsageError("no command \(name)") }
        return "usage: drinkshop \(spec.usage)\n  \(spec.summary)\n" + spec.details.map { "  \($0)\n" }.joined()
    }
}
