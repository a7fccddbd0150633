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

    static func dataDirectory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/drinkshop" }
        return home(environment) + "/.local/share/drinkshop"
    }

    /// The REPL's history file: `$XDG_STATE_HOME/drinkshop/history`.
    static func historyPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/drinkshop/history" }
        return home(environment) + "/.local/state/drinkshop/history"
    }

    private static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// The folder with `menu.json` and `promotions.json`: `DRINKSHOP_SEEDS`, else `./Seeds`, else a
    /// `Seeds` folder above the executable (a `swift run` or `swift build` tree).
    static func seedsDirectory(environment: [String: String]) -> String? {
        let manager = FileManager.default
        var candidates: [String] = []
        if let path = environment["DRINKSHOP_SEEDS"], !path.isEmpty { candidates.append(path) }
        candidates.append(manager.currentDirectoryPath + "/Seeds")
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(directory.appendingPathComponent("Seeds").path)
            directory.deleteLastPathComponent()
        }
        return candidates.first { manager.fileExists(atPath: $0 + "/menu.json") }
    }

    /// Creates the folder holding `path`, private to the user.
    static func prepareParent(of path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        guard !parent.isEmpty else { return }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }
}
