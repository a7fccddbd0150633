import Airtable
import Dispatch
import Foundation
@preconcurrency import Glibc

/// The file in which every process of a machine keeps one base's `PacingState`, so they all spend one
/// rate budget and one count of calls.
///
/// Each change opens the file, takes an exclusive `flock`, reads the state, writes it back in one
/// `pwrite` of a fixed size, and closes it. The kernel releases the lock when a process dies, so a
/// killed process never leaves the budget stuck, and a torn or unreadable file reads as a fresh state.
/// The blocking calls (`flock` waits for the other processes' few microseconds under the lock) run on the
/// file's own serial queue, never on the cooperative pool.
public final class PacingFile: Sendable {
    /// Where the state lives.
    public let path: String
    /// The first word of the file, naming its format: the program that shares the file says it, so files
    /// its earlier versions wrote are still read.
    public let formatName: String
    private let queue: DispatchQueue

    /// The format name of a file whose program names none.
    public static let defaultFormatName = "airtable-pacing"

    /// The state is written padded to this many bytes, so every write replaces the whole of it.
    static let recordSize = 256

    public init(path: String, formatName: String = PacingFile.defaultFormatName) {
        self.path = path
        self.formatName = formatName
        queue = DispatchQueue(label: "pacing-file")
    }

    /// The file of one base at one endpoint inside `directory`: `appXXXX-1a2b3c4d.pacing` (the suffix
    /// tells endpoints apart, so a test server and Airtable never share a budget).
    public static func path(directory: String, endpoint: String, baseID: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in endpoint.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let safeBase = String(baseID.unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII ? Character(scalar) : "_"
        })
        return directory + "/" + safeBase + "-" + String(format: "%08x", hash) + ".pacing"
    }

    /// Applies `change` to the state under the lock and writes the result back; returns what `change`
    /// returned.
    public func update<Result: Sendable>(_ change: @escaping @Sendable (inout PacingState) -> Result)
        async throws(PacingFileError) -> Result
    {
        let outcome: Swift.Result<Result, PacingFileError> = await withCheckedContinuation { continuation in
            queue.async { [path, formatName] in
                continuation.resume(returning: Swift.Result { () throws(PacingFileError) -> Result in
                    try PacingFile.locked(path: path, formatName: formatName, exclusive: true) { state in change(&state) }
                })
            }
        }
        return try outcome.get()
    }

    /// The state as it stands (a shared lock, nothing written); a missing file is a fresh state.
    public func read() async throws(PacingFileError) -> PacingState {
        guard FileManager.default.fileExists(atPath: path) else { return PacingState() }
        let outcome: Swift.Result<PacingState, PacingFileError> = await withCheckedContinuation { continuation in
            queue.async { [path, formatName] in
                continuation.resume(returning: Swift.Result { () throws(PacingFileError) -> PacingState in
                    try PacingFile.locked(path: path, formatName: formatName, exclusive: false) { $0 }
                })
            }
        }
        return try outcome.get()
    }

    /// Opens, locks, reads, lets `body` change the state, writes it back when `exclusive`, and closes
    /// (closing releases the lock). Blocking: call it on the queue.
    private static func locked<Result>(path: String, formatName: String, exclusive: Bool, _ body: (inout PacingState) -> Result)
        throws(PacingFileError) -> Result
    {
        if exclusive { try makeDirectory(of: path) }
        let descriptor = open(path, exclusive ? (O_RDWR | O_CREAT | O_CLOEXEC) : (O_RDONLY | O_CLOEXEC), 0o600)
        guard descriptor >= 0 else { throw PacingFileError(path: path, doing: "open", errno: errno) }
        defer { close(descriptor) }
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else { throw PacingFileError(path: path, doing: "lock", errno: errno) }
        }
        var buffer = [UInt8](repeating: 0, count: recordSize)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, recordSize, 0) }
        let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
        var state = PacingState(text: text, formatName: formatName)
        let result = body(&state)
        guard exclusive else { return result }
        var bytes = Array(state.text(formatName: formatName).utf8.prefix(recordSize - 1))
        bytes += [UInt8](repeating: 0x20, count: recordSize - 1 - bytes.count) + [0x0A]
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, recordSize, 0) }
        guard written == recordSize else { throw PacingFileError(path: path, doing: "write", errno: errno) }
        return result
    }

    private static func makeDirectory(of path: String) throws(PacingFileError) {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) else { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw PacingFileError(path: directory, doing: "create the folder", errno: EACCES)
        }
    }
}

/// The pacing file could not be used; the throttle then paces this process alone and says so.
public struct PacingFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var doing: String
    public var code: Int32

    init(path: String, doing: String, errno code: Int32) {
        self.path = path
        self.doing = doing
        self.code = code
    }

    public var description: String {
        "cannot \(doing) the shared pacing file \(path): \(String(cString: strerror(code)))"
    }
}
