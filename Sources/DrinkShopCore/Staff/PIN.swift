#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A staff PIN as typed: digits only, `PIN.lengthRange` long. Its `description` (and so string
/// interpolation, `print` and debug output) never shows the digits.
public struct PIN: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// How many digits a PIN has.
    public static let lengthRange = 4...8

    /// The digits. Read them only to hash or compare; never print them.
    public let secret: String

    /// Checks `text` against the PIN rules.
    /// - Throws: `PINError.notDigits` or `.wrongLength`; neither error repeats the text typed.
    public init(_ text: String) throws(PINError) {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { throw .notDigits }
        guard Self.lengthRange.contains(text.count) else { throw .wrongLength(text.count) }
        self.secret = text
    }

    public var description: String { "PIN(redacted)" }
    public var debugDescription: String { description }
    /// `dump` and debuggers see no digits either.
    public var customMirror: Mirror { Mirror(self, children: ["secret": "redacted"]) }
}

/// Why a PIN was refused. Never carries the PIN itself.
public enum PINError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case notDigits
    case wrongLength(Int)

    public var description: String {
        switch self {
        case .notDigits:
            "a PIN is digits only (0-9) (PIN 只能是數字)"
        case .wrongLength(let length):
            "a PIN has \(PIN.lengthRange.lowerBound) to \(PIN.lengthRange.upperBound) digits, not \(length) "
                + "(PIN 須為 \(PIN.lengthRange.lowerBound) 到 \(PIN.lengthRange.upperBound) 位數字)"
        }
    }

    public var errorDescription: String? { description }
}
