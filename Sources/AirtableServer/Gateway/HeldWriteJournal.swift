import Airtable
import Dispatch
import Foundation
import Glibc
import Synchronization

/// The gateway's held writes on its own disk (`AirtableGateway` holds a counter's update of an order and
/// answers it before the base has it): each is appended and `fdatasync`ed before the counter is told, and
/// marked done once the base took it. A gateway restarted after a crash or a power cut sends what is not
/// marked done; nothing a counter was told is lost with the gateway's process.
///
/// One JSON object a line: `{"seq":1,"table":"OrderDrink","id":"rec…","fields":{…},"typecast":true}` for a
/// write, `{"done":[1,2]}` once the base has those. A line cut short by a crash (the last one) is dropped on
/// opening, as it was never acknowledged; a damaged line anywhere else stops the gateway with its number.
/// When nothing is left to send the file is emptied. File work runs on the journal's own queue, never on
/// a thread of the cooperative pool.
final class HeldWriteJournal: Sendable {
    struct Entry: Sendable, Equatable {
        var seq: Int
        var table: String
        var id: String
        var fields: Fields
        var typecast: Bool
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let path: String
    private let queue = DispatchQueue(label: "drinkshop.gateway.journal")
    private struct State {
        var descriptor: Int32
        var next: Int
        var open: [Int: Entry]
        /// Taken by the base but not yet marked on the disk (a mark that failed): marked with the next ones, so a
        /// restart never sends an older write again after a newer one was marked.
        var unmarked: [Int] = []
    }
    private let state: Mutex<State>

    /// Opens (or creates) the journal at `path` and reads what it still holds, on a thread of its own (the file's
    /// reading, trimming and syncing block).
    static func open(path: String) async throws(Failure) -> HeldWriteJournal {
        let result: Result<HeldWriteJournal, Failure> = await withCheckedContinuation { continuation in
            DispatchQueue(label: "drinkshop.gateway.journal.open").async {
                do throws(Failure) {
                    continuation.resume(returning: .success(try HeldWriteJournal(path: path)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Opens (or creates) the journal at `path` and reads what it still holds; blocks (see `open`).
    private init(path: String) throws(Failure) {
        self.path = path
        let existed = FileManager.default.fileExists(atPath: path)
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Failure(description: "the gateway's journal \(path) cannot be opened: \(String(cString: strerror(errno)))")
        }
        // One gateway a journal: a second one would send the same writes and empty the file under the first.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw Failure(description: "the gateway's journal \(path) is in use by another gateway for this base")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(bytes.count)) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                close(descriptor)
                throw Failure(description: "the gateway's journal \(path) cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        let read: (entries: [Int: Entry], done: Set<Int>, good: Int)
        do { read = try HeldWriteJournal.parse(bytes, path: path) } catch {
            close(descriptor)
            throw error
        }
        var open = read.entries
        for seq in read.done { open[seq] = nil }
        let next = (read.entries.keys.max() ?? 0) + 1
        // A torn last line, or nothing left to send: cut the file to what still counts.
        let keep = open.isEmpty ? 0 : read.good
        if keep != bytes.count {
            guard ftruncate(descriptor, off_t(keep)) == 0, fdatasync(descriptor) == 0 else {
                close(descriptor)
                throw Failure(description: "the gateway's journal \(path) cannot be trimmed: \(String(cString: strerror(errno)))")
            }
        }
        if !existed { HeldWriteJournal.syncDirectory(of: path) }
        state = Mutex(State(descriptor: descriptor, next: next, open: open))
    }

    deinit {
        _ = state.withLock { close($0.descriptor) }
    }

    /// What was written and not yet marked done, oldest first.
    var pending: [Entry] { state.withLock { $0.open.values.sorted { $0.seq < $1.seq } } }

    /// Appends writes and waits for them to be on the disk; returns their numbers.
    func append(_ writes: [(table: String, id: String, fields: Fields, typecast: Bool)]) async throws(Failure) -> [Int] {
        let entries: [Entry] = state.withLock { state in
            writes.map { write in
                defer { state.next += 1 }
                return Entry(seq: state.next, table: write.table, id: write.id, fields: write.fields, typecast: write.typecast)
            }
        }
        var text = ""
        for entry in entries {
            let line: JSONValue = ["seq": .number(Double(entry.seq)), "table": .string(entry.table),
                                   "id": .string(entry.id), "fields": .object(entry.fields),
                                   "typecast": .bool(entry.typecast)]
            text += String(decoding: JSONWriter.bytes(line), as: UTF8.self) + "\n"
        }
        try await write(Array(text.utf8), emptyAfter: false)
        state.withLock { state in for entry in entries { state.open[entry.seq] = entry } }
        return entries.map(\.seq)
    }

    /// Marks writes as taken by the base, on the disk; the file is emptied when nothing is left.
    func markDone(_ seqs: [Int]) async throws(Failure) {
        guard !seqs.isEmpty else { return }
        let (left, marking) = state.withLock { state in
            for seq in seqs { state.open[seq] = nil }
            let marking = state.unmarked + seqs
            state.unmarked = []
            return (state.open.count, marking)
        }
        let line: JSONValue = ["done": .array(marking.map { .number(Double($0)) })]
        do {
            try await write(JSONWriter.bytes(line) + [UInt8(ascii: "\n")], emptyAfter: left == 0)
        } catch {
            state.withLock { $0.unmarked = marking + $0.unmarked }
            throw error
        }
    }

    /// Appends `bytes` (then empties the file when `emptyAfter`) and syncs. On a failure the file is cut back to
    /// what it held before, so a write refused to its counter is not sent after a restart.
    private func write(_ bytes: [UInt8], emptyAfter: Bool) async throws(Failure) {
        let descriptor = state.withLock { $0.descriptor }
        let path = self.path
        let result: Result<Void, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                let before = lseek(descriptor, 0, SEEK_END)
                func fail(_ what: String) {
                    let reason = String(cString: strerror(errno))
                    if before >= 0, ftruncate(descriptor, before) == 0 { _ = fdatasync(descriptor) }
                    continuation.resume(returning: .failure(Failure(
                        description: "the gateway's journal \(path) cannot be \(what): \(reason)")))
                }
                var offset = 0
                while offset < bytes.count {
                    let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { return fail("written") }
                    offset += count
                }
                if emptyAfter && ftruncate(descriptor, 0) != 0 { return fail("emptied") }
                var synced: Int32
                repeat { synced = fdatasync(descriptor) } while synced != 0 && errno == EINTR
                guard synced == 0 else { return fail("synced") }
                continuation.resume(returning: .success(()))
            }
        }
        try result.get()
    }

    /// The entries, the numbers marked done, and how many bytes of whole lines were read.
    static func parse(_ bytes: [UInt8], path: String) throws(Failure) -> (entries: [Int: Entry], done: Set<Int>, good: Int) {
        var entries: [Int: Entry] = [:]
        var done: Set<Int> = []
        var start = 0
        var number = 0
        while start < bytes.count {
            number += 1
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                // Cut short by a crash while it was written: never synced, never acknowledged.
                return (entries, done, start)
            }
            let line = Array(bytes[start..<end])
            start = end + 1
            guard let json = try? JSONParser.parse(line) else {
                throw Failure(description: "the gateway's journal \(path) is damaged at line \(number); the writes it "
                    + "holds were acknowledged to counters: keep the file and send them by hand before starting again")
            }
            if let list = json["done"]?.arrayValue {
                for value in list { if let seq = value.intValue { done.insert(seq) } }
                continue
            }
            guard let seq = json["seq"]?.intValue, let table = json["table"]?.stringValue, let id = json["id"]?.stringValue,
                  let fields = json["fields"]?.objectValue
            else {
                throw Failure(description: "the gateway's journal \(path) has an unknown entry at line \(number)")
            }
            entries[seq] = Entry(seq: seq, table: table, id: id, fields: fields, typecast: json["typecast"]?.boolValue ?? false)
        }
        return (entries, done, start)
    }

    private static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = Glibc.open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
