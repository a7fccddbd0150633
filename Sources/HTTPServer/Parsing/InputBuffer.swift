/// The unconsumed bytes of one connection, read as lines or as counted runs of bytes.
///
/// Consumed bytes are dropped lazily and the search for a line end resumes where it stopped,
/// so bytes trickling in one at a time cost linear, not quadratic, work.
struct InputBuffer: Sendable {
    private var bytes: [UInt8] = []
    private var start = 0
    /// Where the next search for LF begins; everything in `start..<scanned` is known to hold no LF.
    private var scanned = 0

    enum Line: Equatable {
        /// The line's bytes without its terminator (LF, or CRLF).
        case line(ArraySlice<UInt8>)
        case needMoreBytes
        case tooLong
    }

    /// How many bytes have arrived but not been consumed yet.
    var count: Int { bytes.count - start }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ newBytes: some Collection<UInt8>) {
        compactIfWorthwhile()
        bytes.append(contentsOf: newBytes)
    }

    /// Takes the next line if its terminator has arrived. A line longer than `limit` bytes (terminator
    /// excluded) is reported as too long as soon as that is certain, without waiting for its end.
    mutating func takeLine(limit: Int) -> Line {
        var index = Swift.max(scanned, start)
        while index < bytes.count, bytes[index] != 0x0A {
            index += 1
        }
        guard index < bytes.count else {
            scanned = index
            // A trailing CR may still be the first half of this line's CRLF.
            let pending = count - (bytes.last == 0x0D ? 1 : 0)
            return pending > limit ? .tooLong : .needMoreBytes
        }
        var end = index
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        guard end - start <= limit else { return .tooLong }
        let line = bytes[start..<end]
        start = index + 1
        scanned = start
        return .line(line)
    }

    /// Takes up to `maxCount` bytes (fewer when fewer have arrived).
    mutating func take(upTo maxCount: Int) -> ArraySlice<UInt8> {
        let taken = Swift.min(maxCount, count)
        let slice = bytes[start..<(start + taken)]
        start += taken
        return slice
    }

    /// The next unconsumed byte, if any.
    func peek(offset: Int = 0) -> UInt8? {
        start + offset < bytes.count ? bytes[start + offset] : nil
    }

    mutating func skip(_ count: Int) {
        start = Swift.min(bytes.count, start + count)
    }

    private mutating func compactIfWorthwhile() {
        guard start > 0 else { return }
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
        } else if start >= 4_096, start * 2 >= bytes.count {
            bytes.removeSubrange(0..<start)
        } else {
            return
        }
        scanned -= start
        start = 0
    }
}
