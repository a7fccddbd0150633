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
    static func promotion(from cells: Fields, knownDrinks: Set<String>) throws(FieldProblem) -> Promotion {
        for key in cells.keys.sorted() where !keys.contains(key) {
            throw FieldProblem(field: key, problem: .unknownField(of: .promotion, known: keys.sorted()))
        }
        func text(_ field: PromotionField) throws(FieldProblem) -> String? {
            let key = field.rawValue
            guard let value = cells[key], !value.isNull else { return nil }
            guard let string = value.stringValue else { throw FieldProblem(field: key, problem: .notText) }
            return string.isEmpty ? nil : string
        }
        func date(_ field: PromotionField) throws(FieldProblem) -> Date? {
            let key = field.rawValue
            guard let string = try text(field) else { return nil }
            guard let date = AirtableTimestamp.parse(string) else {
                throw FieldProblem(field: key, problem: .notADate(string))
            }
            return date
        }
        guard let name = try text(.name) else { throw FieldProblem(field: PromotionField.name.rawValue, problem: .missing) }
        guard let kindText = try text(.kind) else { throw FieldProblem(field: PromotionField.kind.rawValue, problem: .missing) }
        var percent: Int?
        if let value = cells[PromotionField.percent], !value.isNull {
            guard let whole = value.intValue else {
                throw FieldProblem(field: PromotionField.percent.rawValue, problem: .percentNotWhole)
            }
            percent = whole
        }
        let kind: PromotionKind
        do { kind = try PromotionKind(code: kindText, percent: percent) } catch {
            throw FieldProblem(field: error.field, problem: .promotion(error))
        }
        var scope: PromotionScope?
        if let categoryText = try text(.category) {
            guard let category = DrinkCategory(parsing: categoryText) else {
                throw FieldProblem(field: PromotionField.category.rawValue, problem: .unknownCategory(categoryText))
            }
            scope = .category(category)
        }
        if let drink = try text(.drink) {
            guard scope == nil else {
                throw FieldProblem(field: PromotionField.drink.rawValue, problem: .categoryAndDrink)
            }
            guard knownDrinks.contains(drink) else {
                throw FieldProblem(field: PromotionField.drink.rawValue, problem: .drinkNotOnMenu(drink))
            }
            scope = .drink(drink)
        }
        let startsAt = try date(.startsAt)
        let endsAt = try date(.endsAt)
        let banner = try text(.banner)
        do {
            return try Promotion(name: name, kind: kind, scope: scope, startsAt: startsAt, endsAt: endsAt, banner: banner)
        } catch {
            throw FieldProblem(field: error.field, problem: .promotion(error))
        }
    }
}
