import Foundation

/// Receipts as ESC/POS, the command set of receipt printers: `ESC @` to initialise, `FS &` for
/// Chinese (double-byte Big5) text, `ESC a` for alignment, `GS !` for character size, `LF` per line,
/// then feed and `GS V` to cut. Pure: bytes out, no I/O.
public struct ESCPOSFormatter: Sendable {
    /// Columns of normal text: 48 on 80 mm paper, 32 on 58 mm.
    public var columns: Int
    public var timeZone: TimeZone

    public init(columns: Int = 48, timeZone: TimeZone = .current) {
        self.columns = max(16, columns)
        self.timeZone = timeZone
    }

    static let initialize: [UInt8] = [0x1B, 0x40]
    static let chineseMode: [UInt8] = [0x1C, 0x26]
    static func align(_ alignment: PrintRow.Alignment) -> [UInt8] {
        switch alignment {
        case .left: [0x1B, 0x61, 0]
        case .center: [0x1B, 0x61, 1]
        case .right: [0x1B, 0x61, 2]
        }
    }
    /// `GS ! n`: width multiple in the high nibble, height in the low, each less one.
    static func size(large: Bool) -> [UInt8] { [0x1D, 0x21, large ? 0x11 : 0x00] }
    /// `ESC d n`: print and feed n lines, so the cut falls below the last line.
    static let feed: [UInt8] = [0x1B, 0x64, 4]
    /// `GS V 1`: partial cut.
    static let cut: [UInt8] = [0x1D, 0x56, 0x01]

    public func format(_ receipt: Receipt) -> PrintJob {
        var job = PrintJob(bytes: Self.initialize + Self.chineseMode, replacedCharacters: [])
        for row in ReceiptLayout.rows(for: receipt, columns: columns, timeZone: timeZone) {
            switch row {
            case .text(let text, let alignment, let large):
                job.bytes += Self.align(alignment) + Self.size(large: large)
                job.appendText(text)
                job.bytes.append(0x0A)
            case .pair(let left, let right, let large):
                job.bytes += Self.align(.left) + Self.size(large: large)
                for line in PrintText.pair(left, right, columns: large ? columns / 2 : columns) {
                    job.appendText(line)
                    job.bytes.append(0x0A)
                }
            case .rule(let character):
                job.bytes += Self.align(.left) + Self.size(large: false)
                job.appendText(String(repeating: String(character), count: columns))
                job.bytes.append(0x0A)
            case .blank:
                job.bytes.append(0x0A)
            }
        }
        job.bytes += Self.size(large: false) + Self.align(.left) + Self.feed + Self.cut
        return job
    }
}
