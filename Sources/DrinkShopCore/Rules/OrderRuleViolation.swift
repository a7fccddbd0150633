#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A cup that breaks one of the shop's ordering rules. Each case is one rule; the message says
/// in English (with the Chinese after it) what is wrong, so staff can read it to the customer.
public enum OrderRuleViolation: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// Sold-out drinks cannot be ordered.
    case soldOut(drink: String)
    /// A drink made with an ingredient that has run out (`"contains"` in the seed file).
    case ingredientSoldOut(drink: String, ingredient: String)
    /// A size that has run out, in every drink or in this one.
    case sizeSoldOut(drink: String, size: CupSize)
    /// An add-on that has run out (itself, or its ingredient).
    case addOnSoldOut(AddOn)
    /// Size, ice and sugar must all be chosen; lists the ones missing, in that order.
    case missingRequired([OptionGroup])
    /// The same group was given two different values ("中杯" and "大杯").
    case conflictingChoice(OptionGroup, first: String, second: String)
    /// The drink does not come in that size (大杯 needs a large price).
    case sizeUnavailable(drink: String, size: CupSize)
    /// 溫 and 熱 only for drinks that can be served hot.
    case notServedHot(drink: String, ice: IceLevel)
    /// At most `OrderRules.maximumAddOns` add-ons per cup.
    case tooManyAddOns(count: Int)
    /// An add-on chosen twice.
    case duplicateAddOn(AddOn)
    /// An add-on that cannot go into a 溫 or 熱 drink (菓玉).
    case addOnNotServedHot(AddOn, ice: IceLevel)
    /// The number of cups is outside `OrderRules.quantityRange`.
    case quantityOutOfRange(Int)
    /// The note is longer than `OrderRules.maximumNoteBytes` UTF-8 bytes (`length` is its bytes).
    case noteTooLong(length: Int)
    /// The note holds a control character (newline, tab...), which would break receipts.
    case noteHasControlCharacters

    /// A short, stable name of the rule broken ("too-many-add-ons"), for logs and tests.
    public var rule: String {
        switch self {
        case .soldOut: "sold-out"
        case .ingredientSoldOut: "ingredient-sold-out"
        case .sizeSoldOut: "size-sold-out"
        case .addOnSoldOut: "add-on-sold-out"
        case .missingRequired: "required-options"
        case .conflictingChoice: "one-value-per-option"
        case .sizeUnavailable: "size-available"
        case .notServedHot: "hot-available"
        case .tooManyAddOns: "add-on-limit"
        case .duplicateAddOn: "no-duplicate-add-on"
        case .addOnNotServedHot: "add-on-not-hot"
        case .quantityOutOfRange: "quantity-range"
        case .noteTooLong: "note-length"
        case .noteHasControlCharacters: "note-one-line"
        }
    }

    /// Whether the menu itself decided it (sold out, no such size, not served hot), so a menu read again may
    /// decide otherwise: another counter may have restocked the drink or changed it since.
    public var mayBeAStaleMenu: Bool {
        switch self {
        case .soldOut, .ingredientSoldOut, .sizeSoldOut, .addOnSoldOut, .sizeUnavailable, .notServedHot: true
        case .missingRequired, .conflictingChoice, .tooManyAddOns, .duplicateAddOn, .addOnNotServedHot, .quantityOutOfRange,
             .noteTooLong, .noteHasControlCharacters: false
        }
    }

    public var description: String {
        switch self {
        case .soldOut(let drink):
            return "\(drink) is sold out (\(drink)已售完)"
        case .ingredientSoldOut(let drink, let ingredient):
            return "\(drink) is sold out: \(ingredient) has run out (\(drink) 售完（\(ingredient)已售完）)"
        case .sizeSoldOut(let drink, let size):
            return "\(drink) \(size.rawValue) \(size.englishLabel) is sold out (\(drink) \(size.rawValue) 售完); choose another size"
        case .addOnSoldOut(let addOn):
            return "\(addOn.rawValue) \(addOn.englishLabel) is sold out (\(addOn.rawValue) 售完); order without it"
        case .missingRequired(let groups):
            let english = groups.map(\.englishName).joinedAsList
            let verb = groups.count == 1 ? "is" : "are"
            let chinese = groups.map(\.chineseName).joined(separator: "、")
            return "\(english) \(verb) required (\(chinese)為必填)"
        case .conflictingChoice(let group, let first, let second):
            return "\(group.englishName) given twice: \(first) and \(second) (\(group.chineseName)只能選一個); choose one"
        case .sizeUnavailable(let drink, let size):
            return "\(drink) does not come in \(size.rawValue) \(size.englishLabel) (\(drink)沒有\(size.rawValue))"
        case .notServedHot(let drink, let ice):
            return "\(drink) cannot be served \(ice.englishLabel.lowercased()) (\(drink)不可做\(ice.rawValue)飲)"
        case .tooManyAddOns(let count):
            return "at most \(OrderRules.maximumAddOns) add-ons per cup, not \(count) (加料最多選擇\(OrderRules.maximumAddOns)項)"
        case .duplicateAddOn(let addOn):
            return "\(addOn.shortName) is chosen twice (\(addOn.shortName)重複了); each add-on at most once per cup"
        case .addOnNotServedHot(let addOn, _):
            return "\(addOn.shortName) cannot be served warm or hot (\(addOn.shortName)不可做溫熱飲)"
        case .quantityOutOfRange(let quantity):
            let range = OrderRules.quantityRange
            return "the number of cups must be from \(range.lowerBound) to \(range.upperBound), not \(quantity) "
                + "(杯數須為 \(range.lowerBound) 到 \(range.upperBound))"
        case .noteTooLong(let length):
            let most = OrderRules.maximumNoteBytes
            return "the note is \(length) bytes long; at most \(most) are allowed, about \(most / 3) Chinese characters "
                + "(備註最多約 \(most / 3) 個中文字)"
        case .noteHasControlCharacters:
            return "the note must be one line of visible text (no newlines, tabs or invisible characters) (備註只能一行，不可有隱藏字元)"
        }
    }

    public var errorDescription: String? { description }
}
