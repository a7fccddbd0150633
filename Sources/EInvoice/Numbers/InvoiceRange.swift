/// A book (本) of 50 invoice numbers, `…00`-`…49` or `…50`-`…99`: what one counter takes at a time, so two
/// counters never share a number and each issues its own in ascending order.
public struct InvoiceBook: Sendable, Hashable, Comparable, CustomStringConvertible {
    public static let size = 50

    public let period: InvoicePeriod
    public let track: InvoiceTrack
    /// The first serial, a multiple of 50.
    public let firstSerial: Int

    public init(period: InvoicePeriod, track: InvoiceTrack, firstSerial: Int) throws(EInvoiceError) {
        guard firstSerial % Self.size == 0, (0...99_999_950).contains(firstSerial) else {
            throw .rangeNotWholeBooks(track.letters + String(firstSerial, digits: 8))
        }
        self.period = period
        self.track = track
        self.firstSerial = firstSerial
    }

    public var lastSerial: Int { firstSerial + Self.size - 1 }
    public var serials: ClosedRange<Int> { firstSerial...lastSerial }

    /// The book's numbers in the order they are issued.
    public var numbers: [InvoiceNumber] { serials.compactMap { try? InvoiceNumber(track: track, serial: $0) } }

    public func contains(_ number: InvoiceNumber) -> Bool { number.track == track && serials.contains(number.serial) }

    /// The number issued after `number` in this book, or nil when the book is used up.
    public func number(after number: InvoiceNumber?) -> InvoiceNumber? {
        let serial = number.map { $0.serial + 1 } ?? firstSerial
        guard serials.contains(serial) else { return nil }
        return try? InvoiceNumber(track: track, serial: serial)
    }

    /// What was not issued in this book, as runs of serials for E0402 (`used` may hold other books' numbers).
    public func blankRuns(used: Set<InvoiceNumber>) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var start: Int?
        for serial in serials {
            let isUsed = (try? InvoiceNumber(track: track, serial: serial)).map(used.contains) ?? false
            if isUsed {
                if let begin = start { runs.append(begin...(serial - 1)); start = nil }
            } else if start == nil {
                start = serial
            }
        }
        if let begin = start { runs.append(begin...lastSerial) }
        return runs
    }

    /// The book's key where a store keeps it: period, track and first number, `11512AB12345000`.
    public var key: String { period.code + track.letters + String(firstSerial, digits: 8) }

    /// The book a `key` names; nil when it is not one.
    public init?(key: String) {
        guard key.utf8.count == 15, let period = try? InvoicePeriod(parsing: String(key.prefix(5))),
              let track = try? InvoiceTrack(String(key.dropFirst(5).prefix(2))), let first = Int(key.suffix(8)),
              let book = try? InvoiceBook(period: period, track: track, firstSerial: first) else { return nil }
        self = book
    }

    /// `11512 AB 12345000-12345049`.
    public var description: String {
        "\(period.code) \(track.letters) \(String(firstSerial, digits: 8))-\(String(lastSerial, digits: 8))"
    }

    public static func < (lhs: InvoiceBook, rhs: InvoiceBook) -> Bool {
        (lhs.period, lhs.track, lhs.firstSerial) < (rhs.period, rhs.track, rhs.firstSerial)
    }
}

/// A period's range on one track as the platform hands it out (取號): whole books of 50, e.g.
/// `11512 AB 12345000-12345249` is five books. What `einvoice track` imports.
public struct TrackRange: Sendable, Hashable, CustomStringConvertible {
    public let period: InvoicePeriod
    public let track: InvoiceTrack
    public let firstSerial: Int
    public let lastSerial: Int

    public init(period: InvoicePeriod, track: InvoiceTrack, firstSerial: Int, lastSerial: Int) throws(EInvoiceError) {
        let text = "\(String(firstSerial, digits: 8))-\(String(lastSerial, digits: 8))"
        guard (0...99_999_999).contains(firstSerial), (0...99_999_999).contains(lastSerial), firstSerial <= lastSerial else {
            throw .rangeOrder(text)
        }
        guard firstSerial % InvoiceBook.size == 0, lastSerial % InvoiceBook.size == InvoiceBook.size - 1 else {
            throw .rangeNotWholeBooks(text)
        }
        self.period = period
        self.track = track
        self.firstSerial = firstSerial
        self.lastSerial = lastSerial
    }

    /// Reads the words after `einvoice track`: `11512 AB 12345000-12345249` (spaces around the dash allowed,
    /// letters in either case). Each problem is named by the word it is in.
    public init(parsing text: String) throws(EInvoiceError) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let joinedRange: String
        switch words.count {
        case 3: joinedRange = words[2]
        case 5 where words[3] == "-": joinedRange = words[2] + "-" + words[4]
        case 4 where words[2].hasSuffix("-"): joinedRange = words[2] + words[3]
        case 4 where words[3].hasPrefix("-"): joinedRange = words[2] + words[3]
        default: throw .trackLine(text.trimmingSpaces)
        }
        let period = try InvoicePeriod(parsing: words[0])
        let track = try InvoiceTrack(words[1])
        let ends = joinedRange.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard ends.count == 2, ends.allSatisfy({ $0.utf8.count == 8 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let first = Int(ends[0]), let last = Int(ends[1]) else { throw .rangeOrder(joinedRange) }
        try self.init(period: period, track: track, firstSerial: first, lastSerial: last)
    }

    public var count: Int { lastSerial - firstSerial + 1 }

    /// The range's books of 50, in order.
    public var books: [InvoiceBook] {
        stride(from: firstSerial, through: lastSerial, by: InvoiceBook.size).compactMap {
            try? InvoiceBook(period: period, track: track, firstSerial: $0)
        }
    }

    public var description: String {
        "\(period.code) \(track.letters) \(String(firstSerial, digits: 8))-\(String(lastSerial, digits: 8))"
    }
}
