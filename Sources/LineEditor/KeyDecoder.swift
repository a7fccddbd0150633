/// Turns the bytes a terminal sends in raw mode into keys. Pure: fed whatever each `read` returned.
///
/// Bytes that end in the middle of something (a multi-byte UTF-8 character, an escape sequence) wait
/// for the next `feed`. A lone Escape is only known once no more bytes follow, so the reader calls
/// `flush()` when the input has been quiet for a moment. Sequences it does not know, invalid UTF-8
/// and stray control bytes are dropped: they never reach the line as garbage.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    private var pasted: [UInt8]?
    private var lastByteWasCarriageReturn = false

    /// Longest escape sequence kept waiting for its end; longer ones are discarded as unknown.
    private static let longestSequence = 32

    public init() {}

    /// Whether some bytes are held back waiting for the rest of a character or sequence.
    public var hasPendingBytes: Bool { !pending.isEmpty }

    /// Decodes `bytes` after whatever was held back, returning the complete keys.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [EditorKey] {
        pending.append(contentsOf: bytes)
        var keys: [EditorKey] = []
        var index = 0
        while index < pending.count {
            if pasted != nil {
                guard let consumed = consumePaste(from: index, into: &keys) else { break }
                index += consumed
                continue
            }
            guard let (key, length) = decodeKey(at: index) else { break }
            index += length
            guard let key else { continue }
            if case .text(let text) = key, case .text(let previous)? = keys.last {
                keys[keys.count - 1] = .text(previous + text)
            } else {
                keys.append(key)
            }
        }
        pending.removeFirst(index)
        return keys
    }

    /// Whether a bracketed paste has begun and its end marker has not arrived yet.
    public var isInsidePaste: Bool { pasted != nil }

    /// Gives up waiting: a held-back lone Escape becomes `.escape`, an unfinished Alt chord or Escape
    /// sequence is dropped, and so is a truncated UTF-8 character. A paste whose end marker never came
    /// ends here with what arrived, so a confused terminal cannot swallow every later key.
    public mutating func flush() -> [EditorKey] {
        if let text = pasted {
            pasted = nil
            let all = text + pending
            pending.removeAll()
            return all.isEmpty ? [] : [.paste(String(decoding: all, as: UTF8.self))]
        }
        guard let first = pending.first else { return [] }
        let keys: [EditorKey] = first == 0x1B && pending.count == 1 ? [.escape] : []
        pending.removeAll()
        return keys
    }

    // MARK: Bracketed paste

    private static let pasteStart = Array("\u{1B}[200~".utf8)
    private static let pasteEnd = Array("\u{1B}[201~".utf8)

    /// Takes pasted bytes from `index` up to the end marker (emitting the paste) or up to what could be
    /// the start of the marker; nil when nothing could be taken yet.
    private mutating func consumePaste(from index: Int, into keys: inout [EditorKey]) -> Int? {
        let rest = pending[index...]
        if let marker = rest.firstRange(of: Self.pasteEnd) {
            let text = (pasted ?? []) + pending[index..<marker.lowerBound]
            pasted = nil
            keys.append(.paste(String(decoding: text, as: UTF8.self)))
            return marker.upperBound - index
        }
        // Hold back a tail that may be the first bytes of the end marker.
        let safe = rest.count - (Self.pasteEnd.count - 1)
        guard safe > 0 else { return nil }
        pasted?.append(contentsOf: pending[index..<(index + safe)])
        return safe
    }

    // MARK: Single keys

    /// The key at `index` and how many bytes it took; the key is nil for bytes that mean nothing and
    /// are skipped; nil overall when more bytes are needed.
    private mutating func decodeKey(at index: Int) -> (EditorKey?, Int)? {
        let byte = pending[index]
        let afterCarriageReturn = lastByteWasCarriageReturn
        lastByteWasCarriageReturn = byte == 0x0D
        switch byte {
        case 0x0D: return (.enter, 1)
        case 0x0A: return (afterCarriageReturn ? nil : .enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x1B:
            if pending[index...].starts(with: Self.pasteStart) {
                pasted = []
                return (nil, Self.pasteStart.count)
            }
            return decodeEscape(at: index)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00, 0x1C...0x1F: return (nil, 1)
        default: return decodeText(at: index)
        }
    }

    /// One UTF-8 character; invalid bytes are skipped one at a time.
    private func decodeText(at index: Int) -> (EditorKey?, Int)? {
        let lead = pending[index]
        let length: Int
        switch lead {
        case 0x20...0x7E: return (.text(String(Character(Unicode.Scalar(lead)))), 1)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (nil, 1)
        }
        let available = min(length, pending.count - index)
        for offset in 1..<available where pending[index + offset] & 0xC0 != 0x80 { return (nil, 1) }
        guard available == length else { return nil }
        var decoder = UTF8()
        var iterator = pending[index..<(index + length)].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return (nil, 1) }
        // C1 controls are as unprintable as C0 ones.
        if scalar.value < 0xA0 { return (nil, length) }
        return (.text(String(Character(scalar))), length)
    }

    // MARK: Escape sequences

    private func decodeEscape(at index: Int) -> (EditorKey?, Int)? {
        guard index + 1 < pending.count else { return nil }
        let next = pending[index + 1]
        switch next {
        case UInt8(ascii: "["):
            return decodeControlSequence(at: index)
        case UInt8(ascii: "O"):
            guard index + 2 < pending.count else { return nil }
            return (Self.ss3Key(pending[index + 2]), 3)
        case 0x1B:
            // Some terminals send Alt-arrow as Escape followed by the arrow's own sequence.
            guard let (inner, length) = decodeEscape(at: index + 1) else { return nil }
            switch inner {
            case .left?: return (.wordLeft, length + 1)
            case .right?: return (.wordRight, length + 1)
            case .escape?, nil: return (nil, length + 1)
            default: return (inner, length + 1)
            }
        case 0x7F, 0x08:
            return (.altBackspace, 2)
        case 0x21...0x7E:
            return (.alt(Character(Unicode.Scalar(next))), 2)
        case 0x80...0xFF:
            // Alt with a non-ASCII character: no binding, so the whole chord goes.
            guard let (_, length) = decodeText(at: index + 1) else { return nil }
            return (nil, length + 1)
        default:
            // Alt with a control key or space: no binding.
            return (nil, 2)
        }
    }

    /// `ESC [ parameters intermediates final`.
    private func decodeControlSequence(at index: Int) -> (EditorKey?, Int)? {
        var end = index + 2
        while end < pending.count, (0x20...0x3F).contains(pending[end]) { end += 1 }
        guard end < pending.count else {
            return end - index > Self.longestSequence ? (nil, end - index) : nil
        }
        let final = pending[end]
        let length = end - index + 1
        guard (0x40...0x7E).contains(final) else {
            // A control byte cuts the sequence short and goes with it; Escape or text starts afresh.
            let cutShortByControl = final == 0x7F || (final < 0x20 && final != 0x1B)
            return (nil, end - index + (cutShortByControl ? 1 : 0))
        }
        let parameters = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
        return (Self.csiKey(parameters: parameters, final: final), length)
    }

    private static func csiKey(parameters: String, final: UInt8) -> EditorKey? {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
        // xterm's modifier parameter: 1 + (Shift 1, Alt 2, Ctrl 4, Meta 8); Alt or Ctrl make word moves.
        let modifier = fields.count > 1 ? (Int(fields[1]) ?? 1) - 1 : 0
        let byWord = modifier & 0b1110 != 0
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return byWord ? .wordRight : .right
        case UInt8(ascii: "D"): return byWord ? .wordLeft : .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch fields.first.flatMap({ Int($0) }) {
            case 1?, 7?: return .home
            case 4?, 8?: return .end
            case 3?: return .delete
            default: return nil
            }
        default: return nil
        }
    }

    /// `ESC O x`: application-mode cursor keys, and rxvt's Ctrl-arrows in lowercase.
    private static func ss3Key(_ final: UInt8) -> EditorKey? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "c"): return .wordRight
        case UInt8(ascii: "d"): return .wordLeft
        default: return nil
        }
    }
}
