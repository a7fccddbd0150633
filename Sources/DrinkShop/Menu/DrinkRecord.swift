import Airtable
import DrinkShopCore
import Foundation

/// How a `Drink` is stored in the `Drink` table.
enum DrinkRecord {
    /// The cells the shop manages for a drink. Every managed field is present: `nil` (JSON null)
    /// clears a cell, so a seed that drops the large size really drops it; `contains` only when the drink has
    /// ingredients (a base set up before the field takes every other change; a seed file's `contains` clears it).
    static func fields(of drink: Drink) -> Fields {
        let cells: KeyValuePairs<DrinkField, JSONValue> = [
            .name: .string(drink.name),
            .englishName: drink.englishName.map(JSONValue.string) ?? .null,
            .description: drink.description.isEmpty ? .null : .string(drink.description),
            .category: .string(drink.category.rawValue),
            .medium: .int(drink.mediumPrice),
            .large: drink.largePrice.map(JSONValue.int) ?? .null,
            .image: drink.imageURLs.isEmpty ? .null : .array(drink.imageURLs.map { ["url": .string($0)] }),
            .hotAvailable: .bool(drink.hotAvailable),
            .soldOut: .bool(!drink.available),
        ]
        var fields = Fields(cells)
        if !drink.contains.isEmpty { fields[DrinkField.contains] = .string(drink.contains.joined(separator: "\n")) }
        return fields
    }

    /// The ingredients a `contains` cell lists (one a line; commas also part them).
    static func ingredients(_ cell: JSONValue?) -> [String] {
        guard let text = cell?.stringValue else { return cell?.arrayValue?.compactMap(\.stringValue) ?? [] }
        return text.split(whereSeparator: { $0 == "\n" || $0 == "," || $0 == "、" }).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A drink from a stored record; the error says which field of which drink is unusable.
    static func drink(from record: Record) throws(ShopError) -> Drink {
        let cells = record.fields
        let name = cells[DrinkField.name]?.stringValue ?? ""
        let label = name.isEmpty ? "record \(record.id)" : "drink \"\(name)\""
        guard let categoryText = cells[DrinkField.category]?.stringValue else {
            throw .storedData("\(label) in table Drink has no category")
        }
        guard let category = DrinkCategory(parsing: categoryText) else {
            throw .storedData("\(label) in table Drink has an unknown category \"\(categoryText)\"")
        }
        guard let medium = cells[DrinkField.medium]?.intValue else {
            throw .storedData("\(label) in table Drink has no whole-number medium price")
        }
        let images = cells[DrinkField.image]?.arrayValue?.compactMap { $0["url"]?.stringValue } ?? []
        do {
            return try Drink(
                name: name, englishName: cells[DrinkField.englishName]?.stringValue,
                description: cells[DrinkField.description]?.stringValue ?? "", category: category, mediumPrice: medium,
                largePrice: cells[DrinkField.large]?.intValue, imageURLs: images,
                hotAvailable: cells[DrinkField.hotAvailable]?.boolValue ?? false,
                available: !(cells[DrinkField.soldOut]?.boolValue ?? false),
                contains: ingredients(cells[DrinkField.contains]))
        } catch {
            throw .storedData("\(label) in table Drink: \(error)")
        }
    }
}
