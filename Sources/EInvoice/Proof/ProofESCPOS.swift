import Printing

extension InvoiceProof {
    /// Dots across a 58 mm head.
    static let headDots = 384
    /// A QR module in dots: a version 8 symbol (the largest ``InvoiceCodes/qrByteLimit`` needs) is 147 dots.
    static let qrModuleDots: UInt8 = 3
    /// Where each QR code starts across the page, its top, and the page's height: two 147-dot symbols with a gap.
    static let qrLeftX = 20
    static let qrRightX = 212
    static let qrTop = 4
    static let qrPageHeight = 160
    /// Bytes a QR code holds at level L, versions 1 to 10: the printer picks the smallest version that fits.
    static let qrCapacityL = [17, 32, 53, 78, 106, 134, 154, 192, 230, 271]

    /// The symbol's height in dots as the printer draws it (17 + 4 × version modules, 3 dots each).
    static func qrDots(byteCount: Int) -> Int {
        let version = (qrCapacityL.firstIndex { byteCount <= $0 } ?? qrCapacityL.count - 1) + 1
        return (17 + 4 * version) * Int(qrModuleDots)
    }

    /// The proof as ESC/POS for a 58 mm printer, text in Big5 through `PrintJob.appendText` (the one way text
    /// reaches a printer).
    ///
    /// The barcode is the printer's own Code 39 (`GS k`, function B, m = 69) at a module width of 1 dot: its
    /// 21 symbols are then 335 dots, inside the 384-dot head (at 2 dots it would not fit), which asks for a
    /// printer that takes `GS w 1`. The two QR codes are the printer's own symbols (`GS ( k`, model 2, level L,
    /// 3 dots a module) placed side by side in page mode (`ESC L`, a 384 × 160 area, each symbol's position by
    /// `ESC $` and `GS $`, then `FF` prints the page and returns to standard mode): standard mode prints one
    /// symbol per line. In page mode a symbol is drawn upward from the print position (its lower left corner,
    /// as a bit image is), so each symbol's vertical position is the common top plus its own height: the two
    /// tops line up as the specification asks even when one code holds more than the other. Not yet checked on
    /// a printer; a printer without page mode needs a raster image of the pair instead, which this module does
    /// not draw.
    public var escPOS: PrintJob {
        var job = PrintJob(bytes: [0x1B, 0x40, 0x1C, 0x26, 0x1B, 0x61, 0x01], replacedCharacters: [])
        for row in rows {
            switch row {
            case .text(let text, let size):
                let sizeByte: UInt8 = switch size {
                case .normal: 0x00
                case .tall: 0x01
                case .large: 0x11
                }
                job.bytes += [0x1D, 0x21, sizeByte]
                job.appendText(text)
                job.bytes.append(0x0A)
            case .barcode(let content):
                let data = Array(content.utf8)
                job.bytes += [0x1D, 0x21, 0x00]
                job.bytes += [0x1D, 0x68, 48, 0x1D, 0x77, 1, 0x1D, 0x48, 0]
                job.bytes += [0x1D, 0x6B, 69, UInt8(data.count)] + data
                job.bytes.append(0x0A)
            case .qrPair(let left, let right):
                let width = Self.headDots, height = Self.qrPageHeight
                job.bytes += [0x1B, 0x4C]
                job.bytes += [0x1B, 0x57, 0, 0, 0, 0, UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
                job.bytes += [0x1B, 0x54, 0]
                job.bytes += Self.qrSymbol(left, x: Self.qrLeftX)
                job.bytes += Self.qrSymbol(right, x: Self.qrRightX)
                job.bytes.append(0x0C)
            }
        }
        job.bytes += [0x1D, 0x21, 0x00, 0x1B, 0x61, 0x00, 0x1B, 0x64, 4, 0x1D, 0x56, 0x01]
        return job
    }

    /// One QR code at `x` across the page, its top at ``qrTop``: model 2, module size, level L, store the UTF-8
    /// bytes, position (lower left), print.
    static func qrSymbol(_ content: String, x: Int) -> [UInt8] {
        let data = Array(content.utf8)
        let y = qrTop + qrDots(byteCount: data.count)
        let stored = data.count + 3
        var bytes: [UInt8] = [0x1D, 0x28, 0x6B, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00]
        bytes += [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x43, qrModuleDots]
        bytes += [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x45, 0x30]
        bytes += [0x1D, 0x28, 0x6B, UInt8(stored & 0xFF), UInt8(stored >> 8), 0x31, 0x50, 0x30] + data
        bytes += [0x1D, 0x24, UInt8(y & 0xFF), UInt8(y >> 8), 0x1B, 0x24, UInt8(x & 0xFF), UInt8(x >> 8)]
        bytes += [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x51, 0x30]
        return bytes
    }
}
