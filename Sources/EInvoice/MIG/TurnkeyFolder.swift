#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Turnkey's work folder, where each MIG document is dropped into its message's `SRC` folder.
///
/// A document appears whole or not at all, and never over another: it is written to a hidden file beside
/// `SRC` (never inside it, where Turnkey would read it half-written), flushed (`fsync`), then linked into `SRC`
/// under its name, which fails if that name is already there, and the folder is flushed too. A crash leaves at
/// most a hidden temporary file, removed by the next write of the same document.
public struct TurnkeyFolder: Sendable, Hashable {
    /// The folder Turnkey works in (the one holding `UpCast`).
    public let root: String

    public init(root: String) {
        self.root = root
    }

    /// The document's full path.
    public func path(of document: MIGDocument) -> String { root + "/" + document.relativePath }

    /// Writes the document on a thread of its own (never on the cooperative pool) and returns once it is in
    /// its `SRC` folder and flushed.
    /// - Throws: `EInvoiceError.fileExists` when it is already there, `.fileWrite` naming the path and the problem.
    public func write(_ document: MIGDocument) async throws(EInvoiceError) {
        let folder = self
        let result: Result<Void, EInvoiceError> = await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: Result { () throws(EInvoiceError) in try folder.writeBlocking(document) }) }
            thread.name = "TurnkeyFolder \(document.fileName)"
            thread.start()
        }
        try result.get()
    }

    /// The blocking write; call it only off the cooperative pool.
    public func writeBlocking(_ document: MIGDocument) throws(EInvoiceError) {
        let sourceFolder = root + "/" + document.message.sourceFolder
        let messageFolder = root + "/" + (document.message.sourceFolder as NSString).deletingLastPathComponent
        let finalPath = sourceFolder + "/" + document.fileName
        let temporaryPath = messageFolder + "/." + document.fileName + ".tmp"
        try makeFolders(sourceFolder)
        unlink(temporaryPath)
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(temporaryPath) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
            unlink(temporaryPath)
        }
        let bytes = Array(document.xml.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { writeSome(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure(temporaryPath)
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else { throw failure(temporaryPath) }
        closed = true
        guard close(descriptor) == 0 else { throw failure(temporaryPath) }
        guard link(temporaryPath, finalPath) == 0 else {
            if errno == EEXIST { throw .fileExists(finalPath) }
            throw failure(finalPath)
        }
        try flushFolder(sourceFolder)
    }

    private func makeFolders(_ path: String) throws(EInvoiceError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw failure(current) }
        }
    }

    private func flushFolder(_ path: String) throws(EInvoiceError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure(path) }
    }

    private func failure(_ path: String) -> EInvoiceError {
        .fileWrite(path: path, problem: String(cString: strerror(errno)))
    }
}

/// `write(2)`, named apart from ``TurnkeyFolder/write(_:)``.
private func writeSome(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
