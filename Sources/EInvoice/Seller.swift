import DrinkShopCore

/// The key of the QR codes' check value: the 16 bytes Turnkey's key tool makes from the shop's passphrase
/// (its "QRcode 密碼種子", 32 hex characters), registered on the platform. A secret: it is never shown,
/// written to a log or put in an error.
public struct QRKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let bytes: [UInt8]

    /// Reads the 32 hex characters (either case).
    public init(hex text: String) throws(EInvoiceError) {
        let scalars = Array(text.trimmingSpaces.unicodeScalars)
        guard scalars.count == 32 else { throw .qrKeyFormat }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            guard let high = Self.hexValue(scalars[index]),
                  let low = Self.hexValue(scalars[index + 1]) else { throw .qrKeyFormat }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    /// The 32 hex characters, for the one place that keeps the key (the shop's settings); never for output.
    public var hexForStorage: String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }

    public var description: String { "QR key (hidden)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": UInt8(scalar.value - 0x30)
        case "a"..."f": UInt8(scalar.value - 0x61 + 10)
        case "A"..."F": UInt8(scalar.value - 0x41 + 10)
        default: nil
        }
    }
}

/// The shop as the invoices name it: its 統一編號, name and address, and its QR key.
public struct InvoiceSeller: Sendable, Hashable {
    public let businessNumber: String
    public let name: String
    public let address: String
    public let qrKey: QRKey

    /// - Throws: `EInvoiceError` when the 統一編號 fails its checksum (DrinkShopCore's one check), or the
    ///   name or address is empty or longer than MIG 4.1 allows (60 and 100 characters).
    public init(businessNumber: String, name: String, address: String, qrKey: QRKey) throws(EInvoiceError) {
        let checked: InvoiceDetails
        do { checked = try InvoiceDetails.checkedBusinessNumber(businessNumber) } catch { throw .seller(error) }
        self.businessNumber = checked.value
        let name = InvoiceItem.cleaned(name)
        guard (1...60).contains(name.count) else { throw .sellerName(name) }
        let address = InvoiceItem.cleaned(address)
        guard (1...100).contains(address.count) else { throw .sellerAddress(address) }
        self.name = name
        self.address = address
        self.qrKey = qrKey
    }
}
