#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why invoice details were refused, saying what a valid one looks like.
public enum InvoiceDetailsError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case businessNumberFormat(String)
    case businessNumberChecksum(String)
    case mobileBarcodeFormat(String, problem: String)
    case citizenCertificateFormat(String)
    case donationFormat(String)
    case unknownKind(String)
    case unrecognized(String)

    public var description: String {
        switch self {
        case .businessNumberFormat(let value):
            return "統一編號 \"\(value)\" must be exactly 8 digits (統一編號須為 8 碼數字)"
        case .businessNumberChecksum(let value):
            return "統一編號 \(value) fails the Ministry of Finance check (統一編號檢查碼不符); a digit is probably mistyped"
        case .mobileBarcodeFormat(let value, let problem):
            return "mobile barcode \"\(value)\" \(problem) (a mobile barcode is / and 7 of 0-9 A-Z . - +, like /ABC+123) (手機條碼格式錯誤)"
        case .citizenCertificateFormat(let value):
            return "citizen certificate \"\(value)\" must be 2 uppercase letters and 14 digits, like AB12345678901234 (自然人憑證條碼格式錯誤)"
        case .donationFormat(let value):
            return "donation code \"\(value)\" must be 3 to 7 digits (愛心碼須為 3 到 7 碼數字)"
        case .unknownKind(let kind):
            return "unknown invoice detail \"\(kind)\" (沒有這種發票資料); use 統編 (business number), 載具 (mobile barcode), "
                + "自然人憑證 (citizen certificate) or 捐贈 (donation)"
        case .unrecognized(let value):
            return "\"\(value)\" is not a 統一編號 (8 digits), a mobile barcode (/ + 7), a citizen certificate "
                + "(2 letters + 14 digits) or a donation code (3-7 digits) (看不懂的發票資料)"
        }
    }

    public var errorDescription: String? { description }
}
