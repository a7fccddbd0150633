import Foundation

/// Where the embedded store lives and where the seed files are.
enum StoreLocation {
    /// `--db PATH`, else `DRINKSHOP_DB`, else `$XDG_DATA_HOME/drinkshop/drinkshop.sqlite`
    /// (`~/.local/share/drinkshop/drinkshop.sqlite` when XDG_DATA_HOME is unset).
    static func databasePath(option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment["DRINKSHOP_DB"], !path.isEmpty { return path }
        return dataDirectory(environment: environment) + "/drinkshop.sqlite"
    }

    /// Whether neither `--db` nor `DRINKSHOP_DB` chose the store (so the default location is used).
    static func isDefault(option: String?, environment: [String: String]) -> Bool {
        (option ?? "").isEmpty && (environment["DRINKSHOP_DB"] ?? "").isEmpty
    }

    static func dataDirectory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/drinkshop" }
        return home(environment) + "/.local/share/drinkshop"
    }

    /// The REPL's history file: `$XDG_STATE_HOME/drinkshop/history`.
    static func historyPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/drinkshop/history" }
        return home(environment) + "/.local/state/drinkshop/history"
    }

    /// Where one-shot commands keep a proven PIN for a few minutes: `$XDG_STATE_HOME/drinkshop/grants`.
    static func grantsDirectory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/drinkshop/grants" }
        return home(environment) + "/.local/state/drinkshop/grants"
    }

    private static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// The folder named by `DRINKSHOP_SEEDS` (holding `menu.json` and maybe `promotions.json`), or nil
    /// when it is unset: a new store is then seeded from the copy compiled into the executable
    /// (`BundledSeeds`), so an installed binary needs no `Seeds/` folder beside it.
    static func seedsDirectory(environment: [String: String]) -> String? {
        guard let path = environment["DRINKSHOP_SEEDS"], !path.isEmpty else { return nil }
        return path
    }

    /// Creates the folder holding `path`, private to the user.
    static func prepareParent(of path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        guard !parent.isEmpty else { return }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }
}
