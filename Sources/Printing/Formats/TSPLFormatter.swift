import Foundation

/// The sticker paper in a label printer.
public struct LabelStock: Sendable, Equatable {
    public var widthMillimetres: Int
    public var heightMillimetres: Int
    /// The gap between two stickers on the roll.
    public var gapMillimetres: Int
    /// 8 for the usual 203 dpi printers, 12 for 300 dpi.
    public var dotsPerMillimetre: Int

    /// 50 × 40 mm stickers with a 2 mm gap on a 203 dpi printer: a common cup sticker.
    public init(widthMillimetres: Int = 50, heightMillimetres: Int = 40, gapMillimetres: Int = 2, dotsPerMillimetre: Int = 8) {
        self.widthMillimetres = widthMillimetres
        self.heightMillimetres = heightMillimetres
        self.gapMillimetres = gapMillimetres
        self.dotsPerMillimetre = dotsPerMillimetre
    }
}

/// Cup labels as TSPL, the command language of TSC-compatible label printers: one `SIZE`/`GAP`/
/// `DIRECTION`/`CLS` set-up, then per sticker `CLS`, `TEXT` rows and `PRINT 1,1`. Text is in Big5 and
/// drawn with the printer's Traditional Chinese font. Pure: bytes out, no I/O.
public struct TSPLFormatter: Sendable {
    /// The printer-resident 24 × 24 dot Traditional Chinese (Big5) font of TSC printers.
    public static let traditionalChineseFont = "TST24.BF2"
    /// Dots of one column of that font (an ASCII character; a Chinese one takes two).
    static let columnDots = 12
    static let rowDots = 24
    static let marginDots = 16

    public var stock: LabelStock
    public var timeZone: TimeZone

    public init(stock: LabelStock = LabelStock(), timeZone: TimeZone = .current) {
        self.stock = stock
        self.timeZone = timeZone
    }

    /// Columns of normal-size text across a sticker.
    public var columns: Int {
        max(8, (stock.widthMillimetres * stock.dotsPerMillimetre - 2 * Self.marginDots) / Self.columnDots)
    }

    /// One sticker per label, in order, in one job.
    public func format(_ labels: [CupLabel]) -> PrintJob {
        var job = PrintJob(bytes: [], replacedCharacters: [])
        job.appendASCII("SIZE \(stock.widthMillimetres) mm,\(stock.heightMillimetres) mm\r\n")
        job.appendASCII("GAP \(stock.gapMillimetres) mm,0 mm\r\n")
        job.appendASCII("DIRECTION 1\r\n")
        for label in labels {
            job.appendASCII("CLS\r\n")
            var y = Self.marginDots
            for row in LabelLayout.rows(for: label, columns: columns, timeZone: timeZone) {
                let (text, scale) = line(for: row)
                if !text.isEmpty {
                    job.appendASCII("TEXT \(Self.marginDots),\(y),\"\(Self.traditionalChineseFont)\",0,\(scale),\(scale),\"")
                    job.appendText(Self.quoted(text))
                    job.appendASCII("\"\r\n")
                }
                y += Self.rowDots * scale + 4
            }
            job.appendASCII("PRINT 1,1\r\n")
        }
        return job
    }

    private func line(for row: PrintRow) -> (String, Int) {
        switch row {
        case .text(let text, let alignment, let large):
            let scale = large ? 2 : 1
            return (PrintText.aligned(text, alignment, columns: columns / scale), scale)
        case .pair(let left, let right, let large):
            let scale = large ? 2 : 1
            return (PrintText.pair(left, right, columns: columns / scale).joined(separator: " "), scale)
        case .rule(let character):
            return (String(repeating: String(character), count: columns), 1)
        case .blank:
            return ("", 1)
        }
    }

    /// TSPL strings are in double quotes; a double quote inside (found scalar by scalar: a `"` with a combining
    /// mark after it is still one) is written `\["]`. Line breaks and other hidden scalars are `appendText`'s.
    static func quoted(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\"" { result.append(contentsOf: "\\[\"]".unicodeScalars) } else { result.append(scalar) }
        }
        return String(result)
    }
}
