import Airtable
import Foundation
import Glibc

/// A note beside a store (`<file>.checked`) saying which state of the file SQLite's page check last
/// passed, so a counter need not read every page of a big store at every start.
///
/// The state is the file's identity, size and modification time, and the size of its WAL. A process
/// that opened a checked (or trusted) store and wrote to it only through SQLite leaves a note for the
/// state it leaves behind (`record`, after a checkpoint); anything else that changes the file (another
/// program, a copy, a damaged disk block rewritten) changes that state, and the next start checks every
/// page again. A note older than `maximumAge` is not trusted either, so silent damage is looked for at
/// least once a day.
public enum IntegrityStamp {
    public static let maximumAge: TimeInterval = 24 * 3600

    /// Where the note for the store at `path` is kept.
    public static func notePath(for path: String) -> String { path + ".checked" }

    /// The file's state now, or nil when it cannot be read.
    public static func state(of path: String) -> String? {
        var main = stat()
        guard stat(path, &main) == 0 else { return nil }
        var wal = stat()
        let walSize = stat(path + "-wal", &wal) == 0 ? Int64(wal.st_size) : 0
        let modified = Int64(main.st_mtim.tv_sec) * 1_000_000_000 + Int64(main.st_mtim.tv_nsec)
        return "\(main.st_dev):\(main.st_ino):\(main.st_size):\(modified):\(walSize)"
    }

    /// When the store's pages were last checked, if the note matches the file as it is now and is recent.
    public static func lastCheck(of path: String, now: Date = Date()) -> Date? {
        guard let text = try? String(contentsOfFile: notePath(for: path), encoding: .utf8) else { return nil }
        let parts = text.split(separator: "\n").map(String.init)
        guard parts.count == 2, let current = state(of: path), parts[0] == current, let seconds = Double(parts[1]) else {
            return nil
        }
        let checked = Date(timeIntervalSince1970: seconds)
        guard now.timeIntervalSince(checked) < maximumAge, checked <= now.addingTimeInterval(60) else { return nil }
        return checked
    }

    /// Notes the file's present state as checked at `checkedAt` (a folder that cannot be written keeps no
    /// note: the next start then checks).
    public static func record(_ path: String, checkedAt: Date) {
        guard let current = state(of: path) else { return }
        let note = notePath(for: path)
        let temporary = note + ".tmp-\(getpid())"
        let text = current + "\n" + String(checkedAt.timeIntervalSince1970) + "\n"
        // A process that changed nothing (a report, a listing) finds its note already written: writing it
        // again cost every command a temporary file, an fsync and two renames.
        if (try? String(contentsOfFile: note, encoding: .utf8)) == text { return }
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else { return }
        if rename(temporary, note) != 0 { unlink(temporary) }
    }

    /// Forgets the note (the file was found damaged, or is about to be replaced).
    public static func forget(_ path: String) {
        unlink(notePath(for: path))
    }
}

extension LocalBase {
    /// Moves the WAL's pages into the file and empties the WAL (as far as other open connections allow),
    /// so the file's state can be noted (`IntegrityStamp`).
    public func checkpoint() async throws(AirtableError) {
        try await perform { context in
            try context.file.connection.query("PRAGMA wal_checkpoint(TRUNCATE)") { _ in }
        }
    }
}
