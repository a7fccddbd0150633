import Foundation
import Glibc

/// A failure to read or write the history file, naming the file and what the system said.
public struct HistoryFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The history file.
    public var path: String
    /// What was being done: "read", "append to", "rewrite".
    public var action: String
    /// The system's reason.
    public var reason: String

    public var description: String { "cannot \(action) the history file \(path): \(reason)" }
}

/// Line history kept in a file across runs: one line per entry, UTF-8, newest last.
///
/// Each accepted line is appended at once, so a crash loses nothing typed before it. The file is cut
/// back to the newest `limit` lines when it is loaded and whenever it has grown to twice that, so it
/// stays small however long the shop runs. The file is private to its owner (mode 0600): orders name
/// customers.
public struct HistoryFile: Sendable {
    /// Where the file lives.
    public let path: String
    /// How many lines are kept.
    public let limit: Int

    /// A history file at `path` keeping the newest `limit` lines.
    public init(path: String, limit: Int = 1000) {
        self.path = path
        self.limit = max(limit, 1)
    }

    /// The history in the file (empty when there is no file yet), cutting the file back if it has grown
    /// past `limit` lines.
    public func load() throws(HistoryFileError) -> LineHistory {
        let lines: [String]
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return LineHistory(limit: limit)
        } catch {
            throw HistoryFileError(path: path, action: "read", reason: Self.reason(error))
        }
        let history = LineHistory(entries: lines, limit: limit)
        if lines.count > limit { try rewrite(history.entries) }
        return history
    }

    /// Appends one line, creating the file (and its folder) when needed.
    public func append(_ line: String) throws(HistoryFileError) {
        try makeFolder()
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("append to") }
        defer { close(descriptor) }
        // One write call, so lines from two shops sharing the file never interleave.
        guard FileDescriptorIO.writeAll(descriptor, line + "\n") else { throw failure("append to") }
    }

    /// Replaces the file's contents with `entries`, atomically.
    public func rewrite(_ entries: [String]) throws(HistoryFileError) {
        try makeFolder()
        let text = entries.map { $0 + "\n" }.joined()
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        } catch {
            throw HistoryFileError(path: path, action: "rewrite", reason: Self.reason(error))
        }
    }

    private func makeFolder() throws(HistoryFileError) {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw HistoryFileError(path: path, action: "create the folder of", reason: Self.reason(error))
        }
    }

    private func failure(_ action: String) -> HistoryFileError {
        HistoryFileError(path: path, action: action, reason: String(cString: strerror(errno)))
    }

    private static func reason(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
