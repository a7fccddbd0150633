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

/// Where Turnkey has a document: still waiting in `SRC`, sent (`BAK`, in its dated folders) or refused (`ERR`).
public enum TurnkeyPlace: String, Sendable, Hashable {
    case waiting = "SRC"
    case sent = "BAK"
    case refused = "ERR"
}

extension TurnkeyFolder {
    /// Where the document's file is now, looked up on a thread of its own: `SRC`, or anywhere below the message's
    /// `BAK` or `ERR` (Turnkey moves a file to `BAK/yyyyMMdd/HH/` once sent, `ERR/yyyyMMdd/HH-HH/` when refused);
    /// nil when it is nowhere, so it was never written (or someone removed it).
    public func place(of document: MIGDocument) async -> TurnkeyPlace? {
        let folder = self
        return await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: folder.placeBlocking(of: document)) }
            thread.name = "TurnkeyFolder place"
            thread.start()
        }
    }

    /// Writes the document unless Turnkey's folder has it already, waiting, sent or refused (a document is never
    /// handed to Turnkey twice; one written before a crash that lost its record is found, not written again).
    public func writeOnce(_ document: MIGDocument) async throws(EInvoiceError) {
        guard await place(of: document) == nil else { return }
        do { try await write(document) } catch {
            guard case .fileExists = error else { throw error }
        }
    }

    /// `place(of:)`, blocking; call it only off the cooperative pool.
    public func placeBlocking(of document: MIGDocument) -> TurnkeyPlace? {
        let messageFolder = root + "/" + (document.message.sourceFolder as NSString).deletingLastPathComponent
        let files = FileManager.default
        if files.fileExists(atPath: messageFolder + "/SRC/" + document.fileName) { return .waiting }
        for place in [TurnkeyPlace.sent, .refused] {
            let base = messageFolder + "/" + place.rawValue
            guard let walker = files.enumerator(atPath: base) else { continue }
            while let next = walker.nextObject() as? String {
                if (next as NSString).lastPathComponent == document.fileName { return place }
            }
        }
        return nil
    }

    /// The files waiting in each message's `SRC` folder and refused in its `ERR` folders, by name, with when each
    /// was last changed; looked up on a thread of its own.
    public func listing() async -> (waiting: [(name: String, at: Date)], refused: [String]) {
        let folder = self
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                var waiting: [(name: String, at: Date)] = []
                var refused: [String] = []
                let files = FileManager.default
                for message in MIGMessage.allCases {
                    let source = folder.root + "/" + message.sourceFolder
                    for name in (try? files.contentsOfDirectory(atPath: source)) ?? [] where !name.hasPrefix(".") {
                        let at = (try? files.attributesOfItem(atPath: source + "/" + name)[.modificationDate] as? Date) ?? nil
                        waiting.append((name, at ?? Date(timeIntervalSince1970: 0)))
                    }
                    let errors = (source as NSString).deletingLastPathComponent + "/ERR"
                    if let walker = files.enumerator(atPath: errors) {
                        while let next = walker.nextObject() as? String {
                            if next.hasSuffix(".xml") { refused.append((next as NSString).lastPathComponent) }
                        }
                    }
                }
                continuation.resume(returning: (waiting.sorted { $0.name < $1.name }, refused.sorted()))
            }
            thread.name = "TurnkeyFolder listing"
            thread.start()
        }
    }
}
