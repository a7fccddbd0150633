/// Every command: its name, aliases, usage and help, in one table that `help`, the parser's usage
/// messages and Tab completion all read.
public struct CommandInfo: Sendable {
    public var name: String
    public var aliases: [String]
    public var usage: String
    public var summary: String
    public var details: [String]
}

public enum CommandCatalog {
    public static let all: [CommandInfo] = [
        CommandInfo(name: "menu", aliases: ["m"], usage: "menu [category | text] [--json]",
                    summary: "show the menu, a category, or drinks matching text",
                    details: ["categories: 季節限定 單品茶 調茶 雲蓋 歐蕾 (or seasonal, tea, mix, cream, milk)",
                              "text matches Chinese or English names, or their beginnings",
                              "♨ can be served hot; sold-out drinks are marked 售完"]),
        CommandInfo(name: "order", aliases: ["o"],
                    usage: "order <drink> <size> <sugar> <ice> [add-ons...] [xN] [note \"...\"] [, <drink> ...] [for NAME]",
                    summary: "place an order; separate several drinks with commas",
                    details: ["options in any order, in Chinese or English: 大杯/L, 半糖/half, 少冰/less ice, 白玉...",
                              "example: order 白玉歐蕾 大杯 半糖 少冰 x2 for Amy",
                              "example: order 熟成紅茶 M no sugar hot, 冷露歐蕾 L 微糖 去冰 加白玉 note \"少一點奶\""]),
        CommandInfo(name: "orders", aliases: ["ls"], usage: "orders [open | all | placed | preparing | ready | picked up | cancelled] [--json]",
                    summary: "list today's orders (open ones by default)", details: []),
        CommandInfo(name: "edit", aliases: ["e"], usage: "edit #N [line] <options...> [xN] [note \"...\"]",
                    summary: "change a placed order's line (it is repriced)",
                    details: ["example: edit #12 2 大杯 無糖 x3",
                              "add-ons given replace the line's add-ons; `no add-ons` removes them"]),
        CommandInfo(name: "advance", aliases: ["next", "a"], usage: "advance #N",
                    summary: "move an order on: placed → preparing → ready → picked up", details: []),
        CommandInfo(name: "cancel", aliases: [], usage: "cancel #N [reason ...]",
                    summary: "cancel a placed or preparing order", details: []),
        CommandInfo(name: "delete", aliases: ["rm"], usage: "delete #N [--yes]",
                    summary: "delete an order for good (asks to confirm)", details: []),
        CommandInfo(name: "seed", aliases: [], usage: "seed FILE.json",
                    summary: "load or update the menu (and promotions) from a JSON file", details: []),
        CommandInfo(name: "banner", aliases: [], usage: "banner [next | prev]",
                    summary: "show the current banner, or move to the next or previous one", details: []),
        CommandInfo(name: "promos", aliases: ["promotions"], usage: "promos",
                    summary: "list promotions and whether they are active now", details: []),
        CommandInfo(name: "report", aliases: [], usage: "report [--json]",
                    summary: "today's sales: cups, revenue, discounts, by drink and category", details: []),
        CommandInfo(name: "login", aliases: [], usage: "login NAME",
                    summary: "identify yourself; orders record who placed them", details: []),
        CommandInfo(name: "logout", aliases: [], usage: "logout", summary: "forget who is at the counter", details: []),
        CommandInfo(name: "help", aliases: ["?"], usage: "help [command]", summary: "list commands or explain one",
                    details: []),
        CommandInfo(name: "quit", aliases: ["exit", "q"], usage: "quit", summary: "leave (Ctrl-D works too)",
                    details: []),
    ]

    /// The command named or aliased `word` (case-insensitive).
    public static func find(_ word: String) -> CommandInfo? {
        let key = word.lowercased()
        return all.first { $0.name == key || $0.aliases.contains(key) }
    }
}
