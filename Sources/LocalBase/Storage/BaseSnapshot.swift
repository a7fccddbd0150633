import Airtable
import AirtableFormula
import Foundation
import Glibc

extension LocalBase {
    /// A consistent copy of the base file at `path`, written to `destination` (which must not exist yet) with
    /// SQLite's `VACUUM INTO`: one read transaction, so a base that other processes are writing meanwhile is
    /// copied as it stood at one commit, never torn as a file copy of a WAL base can be. The source is opened
    /// read-only and never written. The copy is flushed to the disk (`fsync`) before this returns; making it
    /// visible under its final name (and flushing the folder) is the caller's step.
    ///
    /// Blocking: call it off the cooperative pool.
    public static func snapshot(ofFileAt path: String, into destination: String) throws(AirtableError) {
        guard FileManager.default.fileExists(atPath: path) else { throw .localStore("there is no store at \(path)") }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw .localStore("\(destination) already exists; a copy is written only into a new file")
        }
        do {
            let source = try SQLiteConnection.openForReading(path: path)
            // A writer's checkpoint can hold the file for a moment; wait for it rather than fail.
            try source.execute("PRAGMA busy_timeout = 10000")
            try source.run("VACUUM INTO ?1", [.text(destination)])
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw airtableError(error, path: path)
        }
        try flushToDisk(destination)
    }

    /// `fsync` of a file or folder, so what was written there survives a power cut once this returns.
    public static func flushToDisk(_ path: String) throws(AirtableError) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .localStore("cannot open \(path) to flush it to the disk: \(String(cString: strerror(errno)))")
        }
        defer { Glibc.close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw .localStore("cannot flush \(path) to the disk: \(String(cString: strerror(errno)))")
        }
    }
}
