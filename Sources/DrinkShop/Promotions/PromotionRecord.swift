import Airtable
import DrinkShopCore
import Foundation

/// How a `Promotion` is stored in the `Promotion` table (and written in seed files).
enum PromotionRecord {
    /// The stored kinds, as the `kind` single select holds them.
    static let kindCodes = ["secondCupHalfPrice", "buyOneGetOne", "percentOff"]
    static let keys = Set(PromotionField.allCases.map(\.rawValue))

    static func fields(of promotion: Promotion) -> Fields {
        var category: JSONValue = .null
        var drink: JSONValue = .null
        switch promotion.scope {
        case .category(let value)?: category = .string(value.rawValue)
        case .drink(let name)?: drink = .string(name)
        case nil: break
        }
        let cells: KeyValuePairs<PromotionField, JSONValue> = [
            .name: .string(promotion.name),
            .kind: .string(promotion.kind.code),
            .percent: promotion.kind.percent.map(JSONValue.int) ?? .null,
            .category: category,
            .drink: drink,
            .startsAt: promotion.startsAt.map { .string(AirtableTimestamp.format($0)) } ?? .null,
            .endsAt: promotion.endsAt.map { .string(AirtableTimestamp.format($0)) } ?? .null,
            .banner: promotion.banner.map(JSONValue.string) ?? .null,
        ]
        return Fields(cells)
    }

    /// A promotion from its cells; the error names the field.
    static func promotion(from cells: Fields, knownDrinks: Set<String>) throws(PromotionFieldError) -> Promotion {
        for key in cells.keys.sorted() where !keys.contains(key) {
            throw PromotionFieldError(field: key, problem: "unknown field; a promotion has " + keys.sorted().joined(separator: ", "))
        }
        func text(_ field: PromotionField) throws(PromotionFieldError) -> String? {
            let key = field.rawValue
            guard let value = cells[key], !value.isNull else { return nil }
            guard let string = value.stringValue else { throw PromotionFieldError(field: key, problem: "must be text") }
            return string.isEmpty ? nil : string
        }
        func date(_ field: PromotionField) throws(PromotionFieldError) -> Date? {
            let key = field.rawValue
            guard let string = try text(field) else { return nil }
            guard let date = AirtableTimestamp.parse(string) else {
                throw PromotionFieldError(field: key, problem: "\"\(string)\" is not a date like 2026-12-01 or 2026-12-01T09:00:00+08:00")
            }
            return date
        }
        guard let name = try text(.name) else { throw PromotionFieldError(field: PromotionField.name.rawValue, problem: "missing") }
        guard let kindText = try text(.kind) else { throw PromotionFieldError(field: PromotionField.kind.rawValue, problem: "missing") }
        var percent: Int?
        if let value = cells[PromotionField.percent], !value.isNull {
            guard let whole = value.intValue else {
                throw PromotionFieldError(field: PromotionField.percent.rawValue, problem: "must be a whole number from 1 to 100")
            }
            percent = whole
        }
        let kind: PromotionKind
        do { kind = try PromotionKind(code: kindText, percent: percent) } catch {
            throw PromotionFieldError(field: error.field, problem: error.description)
        }
        var scope: PromotionScope?
        if let categoryText = try text(.category) {
            guard let category = DrinkCategory(parsing: categoryText) else {
                throw PromotionFieldError(field: PromotionField.category.rawValue, problem: "unknown category \"\(categoryText)\"")
            }
            scope = .category(category)
        }
        if let drink = try text(.drink) {
            guard scope == nil else {
                throw PromotionFieldError(field: PromotionField.drink.rawValue, problem: "give a category or a drink, not both")
            }
            guard knownDrinks.contains(drink) else {
                throw PromotionFieldError(field: PromotionField.drink.rawValue, problem: "\"\(drink)\" is not on the menu")
            }
            scope = .drink(drink)
        }
        let startsAt = try date(.startsAt)
        let endsAt = try date(.endsAt)
        let banner = try text(.banner)
        do {
            return try Promotion(name: name, kind: kind, scope: scope, startsAt: startsAt, endsAt: endsAt, banner: banner)
        } catch {
            throw PromotionFieldError(field: error.field, problem: error.description)
        }
    }
}

/// A promotion field that cannot be used.
public struct PromotionFieldError: Error, Sendable, CustomStringConvertible {
    public var field: String
    public var problem: String

    public var description: String { "\(field): \(problem)" }
}
