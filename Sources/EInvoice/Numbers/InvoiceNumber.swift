/// A 字軌: the two capital letters in front of an invoice number, given by the platform per period.
public struct InvoiceTrack: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let letters: String

    public init(_ text: String) throws(EInvoiceError) {
        let value = text.trimmingSpaces.uppercased()
        guard value.utf8.count == 2, value.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else { throw .trackFormat(text) }
        letters = value
    }

    public var description: String { letters }
    public static func < (lhs: InvoiceTrack, rhs: InvoiceTrack) -> Bool { lhs.letters < rhs.letters }
}

/// An invoice number: a track and 8 digits, `AB12345678` in files and QR codes, `AB-12345678` on paper.
public struct InvoiceNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let track: InvoiceTrack
    /// The 8 digits as a number, 0 to 99,999,999.
    public let serial: Int

    public init(track: InvoiceTrack, serial: Int) throws(EInvoiceError) {
        guard (0...99_999_999).contains(serial) else {
            throw .invoiceNumberFormat(track.letters + String(serial))
        }
        self.track = track
        self.serial = serial
    }

    /// Reads `AB12345678` or `AB-12345678` (letters in either case).
    public init(parsing text: String) throws(EInvoiceError) {
        let value = String(text.trimmingSpaces.uppercased().filter { $0 != "-" })
        let scalars = Array(value.unicodeScalars)
        guard scalars.count == 10, scalars[2...].allSatisfy({ ("0"..."9").contains($0) }),
              let track = try? InvoiceTrack(String(String.UnicodeScalarView(scalars[..<2]))),
              let serial = Int(String(String.UnicodeScalarView(scalars[2...])))
        else { throw .invoiceNumberFormat(text) }
        self.track = track
        self.serial = serial
    }

    /// The 8 digits, zero-padded.
    public var digits: String { String(serial, digits: 8) }
    /// `AB12345678`: in MIG files, the barcode and the QR codes.
    public var text: String { track.letters + digits }
    /// `AB-12345678`: on the printed proof and at the counter.
    public var printed: String { track.letters + "-" + digits }
    public var description: String { printed }

    public static func < (lhs: InvoiceNumber, rhs: InvoiceNumber) -> Bool {
        (lhs.track, lhs.serial) < (rhs.track, rhs.serial)
    }
}
