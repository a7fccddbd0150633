import ShopREPL

enum Usage {
    static let short = "usage: drinkshop [--db PATH] [command ...]   (drinkshop --help for more)"

    static var long: String {
        var text = """
        drinkshop: the ordering backend of a KEBUKE-style bubble-tea shop

        usage:
          drinkshop [options]                 the counter REPL on the store
          drinkshop [options] <command> ...   one command, e.g. drinkshop order 白玉歐蕾 大杯 半糖 少冰 x2 for Amy
          drinkshop [options] serve [--host 127.0.0.1] [--port 8080] [--tokens FILE] [--rate-limit N]
                                              serve the embedded base with Airtable's REST API
          drinkshop serve --upstream URL --base appX [--cache-tables Drink,Promotion] [--cache-check 5]
                                              a gateway: one base of Airtable (token in AIRTABLE_TOKEN) served to
                                              every counter through one rate budget, the menu from a cache
          drinkshop usage                     calls made to the remote base today and this month, against the
                                              plan's quota (DRINKSHOP_AIRTABLE_PLAN=free|team|business|enterprise)
          drinkshop setup                     create the shop's tables and fields in the remote base
                                              (or print what to create by hand); never touches records

        options (before or after the command):
          --db PATH        the embedded store (default: $DRINKSHOP_DB, else $XDG_DATA_HOME/drinkshop/drinkshop.sqlite)
          --staff NAME     who places orders when nobody has logged in (default: $DRINKSHOP_STAFF or $USER)
          --no-color       plain output (colours are also off when NO_COLOR is set or output is not a terminal)
          --color          colours even when writing to a pipe
          --help, --version

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
        for info in CommandCatalog.all { text += "  \(info.usage)\n      \(info.summary)\n" }
        return text
    }
}

enum HelpText {
    static func command(_ name: String, style: ColorPolicy) throws -> String {
        guard let info = CommandCatalog.find(name) else { throw UsageError("no command \(name)") }
        return "usage: drinkshop \(info.usage)\n  \(info.summary)\n" + info.details.map { "  \($0)\n" }.joined()
    }
}
