import Foundation
import Glibc

/// Questions about the terminal behind a file descriptor, asked of the operating system.
public enum TerminalDevice {
    /// Whether `fileDescriptor` is a terminal (`isatty`).
    public static func isTerminal(_ fileDescriptor: Int32) -> Bool {
        isatty(fileDescriptor) == 1
    }

    /// `text` fitted to the terminal `fileDescriptor` writes to: wrapped at its width at spaces or between CJK
    /// characters, never inside a word (`wrapped(toWidth:)`), so the terminal never breaks a word itself. A
    /// pipe or file gets it as it is: whole lines for whoever reads them.
    public static func fitted(_ text: String, for fileDescriptor: Int32) -> String {
        guard isTerminal(fileDescriptor) else { return text }
        return text.wrapped(toWidth: columns(fileDescriptor))
    }

    /// The terminal's width in columns (`TIOCGWINSZ`), or `fallback` when it cannot be told.
    public static func columns(_ fileDescriptor: Int32, fallback: Int = 80) -> Int {
        guard let size = windowSize(fileDescriptor), size.ws_col > 0 else { return fallback }
        return Int(size.ws_col)
    }

    /// What `TIOCGWINSZ` says of the terminal, or nil where it cannot say.
    private static func windowSize(_ fileDescriptor: Int32) -> winsize? {
        var size = winsize()
        let status = ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size)
        return status == 0 ? size : nil
    }

    /// The terminal's rows and columns (`TIOCGWINSZ`); where the terminal cannot say, `LINES` and
    /// `COLUMNS` from `environment`, else 24 by 80. Asked again each time, so a resized window is followed.
    public static func size(_ fileDescriptor: Int32, environment: [String: String]) -> (rows: Int, columns: Int) {
        let size = windowSize(fileDescriptor)
        let told = { (name: String, fallback: Int) in
            environment[name].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 > 0 ? $0 : nil }
                ?? fallback
        }
        let rows = size.map { Int($0.ws_row) }.flatMap { $0 > 0 ? $0 : nil } ?? told("LINES", 24)
        let columns = size.map { Int($0.ws_col) }.flatMap { $0 > 0 ? $0 : nil } ?? told("COLUMNS", 80)
        return (rows, columns)
    }

    /// Whether the `TERM` variable names a terminal that understands cursor movement: set, non-empty
    /// and not `dumb`.
    public static func supportsLineEditing(environment: [String: String]) -> Bool {
        guard let term = environment["TERM"], !term.isEmpty else { return false }
        return term != "dumb"
    }

    /// This process's environment variables.
    public static var environment: [String: String] { ProcessInfo.processInfo.environment }
}
