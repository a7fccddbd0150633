import Airtable
import Foundation

/// REGEX_MATCH, REGEX_EXTRACT, REGEX_REPLACE and ENCODE_URL_COMPONENT.
extension FormulaEvaluator {
    func pattern(_ function: FormulaFunction, _ arguments: [FormulaValue]) throws(FormulaFailure) -> FormulaValue {
        let name = function.rawValue
        let subject = try arguments[0].string(timeZone)
        switch function {
        case .regexMatch:
            return .bool(try FormulaRegex(try arguments[1].string(timeZone), for: name).matches(subject, budget: budget))
        case .regexExtract:
            return .text(try FormulaRegex(try arguments[1].string(timeZone), for: name).extract(from: subject, budget: budget))
        case .regexReplace:
            let regex = try FormulaRegex(try arguments[1].string(timeZone), for: name)
            return .text(try regex.replace(in: subject, with: try arguments[2].string(timeZone), budget: budget))
        case .encodeURLComponent:
            return .text(subject.addingPercentEncoding(withAllowedCharacters: Self.uriComponentCharacters) ?? subject)
        default:
            throw FormulaFailure("\(name) is not a pattern function")
        }
    }

    /// What JavaScript's `encodeURIComponent` leaves as it is.
    private static let uriComponentCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
}
