import Airtable
import AirtableFormula
import DrinkShopCore

/// Why a seed file was refused: the file, where in it, and what is wrong. Nothing was written.
public struct SeedError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// Where in the file: a JSON path (`records[3].fields.medium`), `line 4, column 12` for bad JSON,
    /// `top level`, or `file` for the file itself.
    public var location: String
    public var problem: SeedProblem

    public init(path: String, location: String, problem: SeedProblem) {
        self.path = path
        self.location = location
        self.problem = problem
    }

    public var description: String { "\(path): \(location): \(problem)" }
}

/// What is wrong with a seed file, at the place its `SeedError` names.
public enum SeedProblem: Sendable, Equatable, CustomStringConvertible {
    case fileMissing
    case fileUnreadable
    /// Not JSON; the place is the line and column.
    case invalidJSON(JSONSyntaxError)
    /// A top-level key the file may not have; `expected` are those it may.
    case unknownTopLevelKey(expected: [String])
    /// The top level is neither an object nor an array; `found` is what it is (a number, text…).
    case topLevelNotAnObject(found: String)
    case neitherRecordsNorPromotions
    /// A section that must be a list (`records`, `promotions`, `adjustments`, `passes`).
    case notAList(of: String)
    /// One record of a section is not an object; `found` is what it is.
    case recordNotAnObject(found: String)
    case fieldsNotAnObject
    case unknownKeyBesideFields
    case stampCardNotAnObject
    /// A second record of the same kind and name; `firstAt` is the first one's index where it is said.
    case duplicateName(SeedRecordKind, String, firstAt: Int?)
    case duplicateAdjustmentCode(String)
    /// One field of a record (the place ends with its name).
    case field(RecordFieldProblem)

    public var description: String {
        switch self {
        case .fileMissing: return "does not exist"
        case .fileUnreadable: return "cannot be read"
        case .invalidJSON(let error): return "invalid JSON: \(error.message)"
        case .unknownTopLevelKey(let expected): return "unknown top-level key; expected " + expected.joined(separator: ", ")
        case .topLevelNotAnObject(let found): return "must be an object with records, or an array of drinks, not \(found)"
        case .neitherRecordsNorPromotions: return "has neither records nor promotions"
        case .notAList(let section): return "must be an array of \(section)"
        case .recordNotAnObject(let found): return "must be an object, not \(found)"
        case .fieldsNotAnObject: return "must be an object"
        case .unknownKeyBesideFields: return "unknown key beside \"fields\""
        case .stampCardNotAnObject: return "must be an object like {\"stampsPerReward\": 10, \"rewardSize\": \"中杯\"}"
        case .duplicateName(let kind, let name, let first):
            return "duplicate \(kind.noun) name \"\(name)\"" + (first.map { " (first at record \($0))" } ?? "")
        case .duplicateAdjustmentCode(let code): return "duplicate adjustment code \"\(code)\""
        case .field(let problem): return problem.description
        }
    }
}

/// The kinds of record a seed file holds.
public enum SeedRecordKind: Sendable, Equatable {
    case drink, promotion, adjustment, stampCard, pass

    /// The word in messages.
    var noun: String {
        switch self {
        case .drink: "drink"
        case .promotion: "promotion"
        case .adjustment: "adjustment"
        case .stampCard: "stamp card"
        case .pass: "pass"
        }
    }

    /// "a drink", "an adjustment".
    var withArticle: String { (self == .adjustment ? "an " : "a ") + noun }
}

/// A field of a seeded or stored record that cannot be used, and why.
public struct FieldProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var problem: RecordFieldProblem

    public init(field: String, problem: RecordFieldProblem) {
        self.field = field
        self.problem = problem
    }

    public var description: String { "\(field): \(problem)" }
}

/// What is wrong with one field of a record (a drink, promotion, adjustment, stamp card or pass), from a
/// seed file or the store; the field itself is named beside it.
public enum RecordFieldProblem: Sendable, Equatable, CustomStringConvertible {
    /// A field the record does not have; `known` are those it has.
    case unknownField(of: SeedRecordKind, known: [String])
    case missing
    case missingDrinkName
    case missingMediumPrice
    case missingAdjustmentCode
    case missingRewardSize
    case missingPassBenefit
    case missingOrNotText
    case missingOrNotWholeNumber
    case missingOrNotWholeMoney
    case notText
    case notTrueOrFalse
    /// Not a whole number; `found` is what was given (a number, or the kind of value).
    case notWholeNumber(found: String)
    case percentNotWhole
    case moneyNotWhole
    /// A price that is no number; `found` is the kind of value given.
    case priceNotANumber(found: String)
    case priceNotWhole(Double)
    case priceNotPositive(Int)
    case unknownCategory(String)
    case imageNotAList
    case imageNotAURL
    case soldOutContradictsAvailable
    case notADate(String)
    case categoryAndDrink
    case drinkNotOnMenu(String)
    case unknownSize(String)
    case bothPassBenefits
    case passNeedsName
    case passDays(Int)
    case passPriceBelowZero(Int)
    case drink(DrinkValidationError)
    case promotion(PromotionValidationError)
    case adjustment(AdjustmentValidationError)
    /// The stamp card or a pass refused by the members' rules.
    case member(MemberError)

    public var description: String {
        switch self {
        case .unknownField(let kind, let known):
            return "unknown field; \(kind.withArticle) has " + known.joined(separator: ", ")
        case .missing: return "missing"
        case .missingDrinkName: return "missing: every drink needs a name"
        case .missingMediumPrice: return "missing: every drink needs a medium price"
        case .missingAdjustmentCode: return "missing: the word typed at the counter, like cup or bag"
        case .missingRewardSize: return "missing: 中杯 or 大杯"
        case .missingPassBenefit: return "missing: give percentOff or perCupOff"
        case .missingOrNotText: return "missing or not text"
        case .missingOrNotWholeNumber: return "missing or not a whole number"
        case .missingOrNotWholeMoney: return "missing or not a whole number of NT$"
        case .notText: return "must be text"
        case .notTrueOrFalse: return "must be true or false"
        case .notWholeNumber(let found): return "must be a whole number, not \(found)"
        case .percentNotWhole: return "must be a whole number from 1 to 100"
        case .moneyNotWhole: return "must be a whole number of NT$"
        case .priceNotANumber(let found): return "must be a number of NT$, not \(found)"
        case .priceNotWhole(let number): return "must be a whole number of NT$, not \(number)"
        case .priceNotPositive(let whole): return "must be a positive number of NT$, not \(whole)"
        case .unknownCategory(let text):
            return "unknown category \"\(text)\"; expected one of " + DrinkCategory.allCases.map(\.rawValue).joined(separator: ", ")
        case .imageNotAList: return "must be an array of {\"url\": …}"
        case .imageNotAURL: return "must be {\"url\": \"https://…\"}"
        case .soldOutContradictsAvailable: return "contradicts available"
        case .notADate(let text): return "\"\(text)\" is not a date like 2026-12-01 or 2026-12-01T09:00:00+08:00"
        case .categoryAndDrink: return "give a category or a drink, not both"
        case .drinkNotOnMenu(let drink): return "\"\(drink)\" is not on the menu"
        case .unknownSize(let text): return "unknown size \"\(text)\"; expected 中杯 or 大杯"
        case .bothPassBenefits: return "give percentOff or perCupOff, not both"
        case .passNeedsName: return "a pass needs a name"
        case .passDays(let days): return "a pass lasts 1 to 366 days, not \(days)"
        case .passPriceBelowZero(let price): return "a pass's price cannot be below zero (\(price))"
        case .drink(let error): return Self.withoutField(error.description, error.field)
        case .promotion(let error): return Self.withoutField(error.description, error.field)
        case .adjustment(let error): return error.problem
        case .member(let error): return error.description
        }
    }

    /// A core error's message without the `field: ` it starts with (the place already names the field).
    private static func withoutField(_ text: String, _ field: String) -> String {
        text.hasPrefix(field + ": ") ? String(text.dropFirst(field.count + 2)) : text
    }
}
