/// What a customer gives for the 統一發票 (uniform invoice), checked before payment. DrinkShop
/// stores it on the order, prints it on the receipt, and issues the invoice it asks for when the order is paid
/// (DrinkShop's `InvoiceDesk`, where a seller is set up).
public enum InvoiceDetails: Sendable, Hashable, CustomStringConvertible {
    /// 統一編號: the buyer's business number, for a company receipt.
    case businessNumber(String)
    /// 手機條碼: the mobile-barcode carrier, `/` + 7 characters of `0-9 A-Z . - +`.
    case mobileBarcode(String)
    /// 自然人憑證: the citizen digital certificate carrier, 2 uppercase letters + 14 digits.
    case citizenCertificate(String)
    /// 愛心碼: a donation code, 3–7 digits.
    case donation(String)

    /// The kind's code as stored: businessNumber, mobileBarcode, citizenCertificate, donation.
    public var kindCode: String {
        switch self {
        case .businessNumber: "businessNumber"
        case .mobileBarcode: "mobileBarcode"
        case .citizenCertificate: "citizenCertificate"
        case .donation: "donation"
        }
    }

    /// The value as stored and printed.
    public var value: String {
        switch self {
        case .businessNumber(let v), .mobileBarcode(let v), .citizenCertificate(let v), .donation(let v): v
        }
    }

    /// "統編 04595257", "載具 /ABC+123", "自然人憑證 AB12345678901234", "捐贈 8585".
    public var description: String {
        switch self {
        case .businessNumber(let v): "統編 \(v)"
        case .mobileBarcode(let v): "載具 \(v)"
        case .citizenCertificate(let v): "自然人憑證 \(v)"
        case .donation(let v): "捐贈 \(v)"
        }
    }

    /// Reads a stored kind and value, checking the value.
    /// - Throws: `InvoiceDetailsError`.
    public init(kindCode: String, value: String) throws(InvoiceDetailsError) {
        switch kindCode.matchingKey {
        case "businessnumber", "統編", "統一編號", "taxid", "ban": self = try .checkedBusinessNumber(value)
        case "mobilebarcode", "載具", "手機條碼", "carrier", "barcode": self = try .checkedMobileBarcode(value)
        case "citizencertificate", "自然人憑證", "certificate", "cert": self = try .checkedCitizenCertificate(value)
        case "donation", "捐贈", "愛心碼", "donate": self = try .checkedDonation(value)
        default: throw .unknownKind(kindCode)
        }
    }

    /// Reads what the customer gave without saying which kind: a leading `/` is a mobile barcode,
    /// two letters a citizen certificate, 8 digits a business number, 3–7 digits a donation code.
    /// - Throws: `InvoiceDetailsError` naming what is wrong with the closest kind.
    public init(parsing text: String) throws(InvoiceDetailsError) {
        let value = text.trimmed
        if value.hasPrefix("/") {
            self = try .checkedMobileBarcode(value)
        } else if let first = value.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII {
            self = try .checkedCitizenCertificate(value)
        } else if value.count == 8 {
            self = try .checkedBusinessNumber(value)
        } else if value.count >= 3 && value.count <= 7 && value.allSatisfy(\.isASCIIDigit) {
            self = .donation(value)
        } else {
            throw .unrecognized(value)
        }
    }

    /// A 統一編號 that passes the Ministry of Finance checksum.
    public static func checkedBusinessNumber(_ text: String) throws(InvoiceDetailsError) -> InvoiceDetails {
        let value = text.trimmed
        guard value.count == 8, value.allSatisfy(\.isASCIIDigit) else {
            throw .businessNumberFormat(value)
        }
        guard BusinessNumberChecksum.isValid(value) else { throw .businessNumberChecksum(value) }
        return .businessNumber(value)
    }

    /// A mobile barcode: `/` then 7 of `0-9 A-Z . - +` (lowercase letters are taken as uppercase,
    /// as the barcode is case-insensitive when typed).
    public static func checkedMobileBarcode(_ text: String) throws(InvoiceDetailsError) -> InvoiceDetails {
        let value = text.trimmed.uppercased()
        guard value.hasPrefix("/") else { throw .mobileBarcodeFormat(text.trimmed, problem: "must start with /") }
        let body = value.dropFirst()
        guard body.count == 7 else {
            throw .mobileBarcodeFormat(text.trimmed, problem: "has \(body.count) characters after /, not 7")
        }
        if let bad = body.first(where: { !($0.isASCIIDigit || $0.isASCIIUppercase || ".-+".contains($0)) }) {
            throw .mobileBarcodeFormat(text.trimmed, problem: "\"\(bad)\" is not one of 0-9 A-Z . - +")
        }
        return .mobileBarcode(value)
    }

    /// A citizen certificate carrier: 2 uppercase letters then 14 digits.
    public static func checkedCitizenCertificate(_ text: String) throws(InvoiceDetailsError) -> InvoiceDetails {
        let value = text.trimmed
        let chars = Array(value)
        guard chars.count == 16, chars[0..<2].allSatisfy(\.isASCIIUppercase), chars[2...].allSatisfy(\.isASCIIDigit)
        else { throw .citizenCertificateFormat(value) }
        return .citizenCertificate(value)
    }

    /// A donation code (愛心碼): 3 to 7 digits.
    public static func checkedDonation(_ text: String) throws(InvoiceDetailsError) -> InvoiceDetails {
        let value = text.trimmed
        guard (3...7).contains(value.count), value.allSatisfy(\.isASCIIDigit) else { throw .donationFormat(value) }
        return .donation(value)
    }
}

/// The Ministry of Finance checksum of a 統一編號.
///
/// Weights 1,2,1,2,1,2,4,1; each product's two digits are added; the sum must be divisible by 5
/// (since the 2023 change, which widened the old "divisible by 10" so old numbers stay valid).
/// When the 7th digit is 7 its product 28 gives 10, counted either as 1 or as 0: valid when either
/// sum passes.
public enum BusinessNumberChecksum {
    static let weights = [1, 2, 1, 2, 1, 2, 4, 1]

    /// Whether 8 ASCII digits pass; false for anything else.
    public static func isValid(_ digits: String) -> Bool {
        let values = digits.compactMap(\.wholeNumberValue)
        guard values.count == 8, digits.allSatisfy(\.isASCIIDigit) else { return false }
        var sum = 0
        for (digit, weight) in zip(values, weights) {
            let product = digit * weight
            sum += product / 10 + product % 10
        }
        if sum % 5 == 0 { return true }
        // 7th digit 7: its 28 gave 2 + 8 = 10 above. Counted as 0 the sum is `sum - 10`, which passes
        // exactly when `sum` does; counted as 1 it is `sum - 9`, which passes when `sum + 1` does.
        return values[6] == 7 && (sum + 1) % 5 == 0
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIIUppercase: Bool { isASCII && isUppercase }
}
