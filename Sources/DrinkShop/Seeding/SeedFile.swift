import Foundation
import Airtable
import AirtableFormula
import DrinkShopCore

/// A menu file, read and validated whole before anything is written: drinks in Airtable's records shape
/// (`{"records":[{"fields":{…}}], "promotions":[…]}`) or a bare array of field objects.
public struct SeedFile: Sendable {
    public var drinks: [Drink]
    public var promotions: [Promotion]
    /// The till's sections (adjustments, stamp card, passes); see `TillSeed`.
    public var till = TillSeed()
    /// The stored fields each record of the file gives, by drink or promotion name: a seed changes only
    /// these on a record that exists (as Airtable's upsert merges), unless it replaces.
    public var givenDrinkFields: [String: Set<String>] = [:]
    public var givenPromotionFields: [String: Set<String>] = [:]
    /// `"keepSoldOut": true`: what is sold out now (drinks, add-ons, ingredients, sizes) stays sold out through
    /// this seed. Without it, a seed restocks everything: the owner's file is the menu as it is on sale.
    public var keepSoldOut = false

    public init(drinks: [Drink], promotions: [Promotion]) {
        self.drinks = drinks
        self.promotions = promotions
    }

    /// The stored fields a drink's file keys stand for (`available` is stored as `soldOut`).
    static func storedDrinkFields(_ keys: some Sequence<String>) -> Set<String> {
        Set(keys.map { $0 == "available" ? DrinkField.soldOut.rawValue : $0 }).union([DrinkField.name.rawValue])
    }

    /// The stored fields a promotion's file keys stand for: the kind and its percent go together, and
    /// so do the two ways of scoping it (a category or a drink), so a changed scope leaves no stale half.
    static func storedPromotionFields(_ keys: some Sequence<String>) -> Set<String> {
        var fields = Set(keys).union([PromotionField.name.rawValue])
        for group in [[PromotionField.kind, .percent], [PromotionField.category, .drink]]
        where group.contains(where: { fields.contains($0.rawValue) }) {
            fields.formUnion(group.map(\.rawValue))
        }
        return fields
    }

    /// The drink fields a seed file may carry.
    static let drinkKeys: Set<String> = ["name", "englishName", "description", "category", "medium", "large", "image",
                                         "hotAvailable", "available", "soldOut", "contains"]

    /// Parses and validates `bytes`. The error names the record (by index) and the field.
    /// - Parameter knownDrinks: drink names already on the menu, which promotions may refer to.
    public static func parse(_ bytes: [UInt8], path: String, knownDrinks: Set<String> = []) throws(SeedError)
        -> SeedFile
    {
        let json: JSONValue
        do {
            // A UTF-8 byte-order mark, as Windows editors write, is not part of the JSON.
            json = try JSONParser.parse(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes)
        } catch {
            throw SeedError(path: path, location: "line \(error.line), column \(error.column)", problem: .invalidJSON(error))
        }
        var drinkItems: [JSONValue] = []
        var promotionItems: [JSONValue] = []
        var drinkPrefix = "records"
        var till = TillSeed()
        var keepSoldOut = false
        switch json {
        case .array(let items):
            drinkItems = items
            drinkPrefix = ""
        case .object(let object):
            for key in object.keys.sorted() where key != "records" && key != "promotions" && key != "keepSoldOut"
                && !TillSeed.sectionKeys.contains(key) {
                throw SeedError(path: path, location: key, problem: .unknownTopLevelKey(
                    expected: ["records", "promotions", "keepSoldOut"] + TillSeed.sectionKeys.sorted()))
            }
            if let keep = object["keepSoldOut"] {
                guard let flag = keep.boolValue else {
                    throw SeedError(path: path, location: "keepSoldOut", problem: .field(.notTrueOrFalse))
                }
                keepSoldOut = flag
            }
            till = try TillSeed.parse(object, path: path)
            if let records = object["records"] {
                guard let items = records.arrayValue else {
                    throw SeedError(path: path, location: "records", problem: .notAList(of: "records"))
                }
                drinkItems = items
            }
            if let promotions = object["promotions"] {
                guard let items = promotions.arrayValue else {
                    throw SeedError(path: path, location: "promotions", problem: .notAList(of: "promotions"))
                }
                promotionItems = items
            }
            if object["records"] == nil && object["promotions"] == nil && TillSeed.sectionKeys.isDisjoint(with: object.keys) {
                throw SeedError(path: path, location: "top level", problem: .neitherRecordsNorPromotions)
            }
        default:
            throw SeedError(path: path, location: "top level", problem: .topLevelNotAnObject(found: json.kindDescription))
        }

        var drinks: [Drink] = []
        var givenDrinks: [String: Set<String>] = [:]
        var givenPromotions: [String: Set<String>] = [:]
        var seen: [String: Int] = [:]
        for (index, item) in drinkItems.enumerated() {
            let location = drinkPrefix.isEmpty ? "[\(index)]" : "\(drinkPrefix)[\(index)]"
            let (fields, fieldsLocation) = try cells(of: item, at: location, path: path)
            let drink = try drink(from: fields, at: fieldsLocation, path: path)
            if let first = seen[drink.name] {
                throw SeedError(path: path, location: "\(fieldsLocation).name", problem: .duplicateName(.drink, drink.name, firstAt: first))
            }
            seen[drink.name] = index
            drinks.append(drink)
            givenDrinks[drink.name] = storedDrinkFields(fields.keys)
        }

        var promotions: [Promotion] = []
        var promotionNames: Set<String> = []
        let drinkNames = knownDrinks.union(drinks.map(\.name))
        for (index, item) in promotionItems.enumerated() {
            let (fields, location) = try cells(of: item, at: "promotions[\(index)]", path: path)
            let promotion: Promotion
            do { promotion = try PromotionRecord.promotion(from: fields, knownDrinks: drinkNames) } catch {
                throw SeedError(path: path, location: "\(location).\(error.field)", problem: .field(error.problem))
            }
            guard promotionNames.insert(promotion.name).inserted else {
                throw SeedError(path: path, location: "\(location).name", problem: .duplicateName(.promotion, promotion.name, firstAt: nil))
            }
            promotions.append(promotion)
            givenPromotions[promotion.name] = storedPromotionFields(fields.keys)
        }
        var file = SeedFile(drinks: drinks, promotions: promotions)
        file.keepSoldOut = keepSoldOut
        file.till = till
        file.givenDrinkFields = givenDrinks
        file.givenPromotionFields = givenPromotions
        return file
    }

    /// The cells of one record: `{"fields": {…}}` (also with Airtable's id/createdTime) or a bare object.
    private static func cells(of item: JSONValue, at location: String, path: String) throws(SeedError)
        -> (Fields, String)
    {
        guard case .object(let object) = item else {
            throw SeedError(path: path, location: location, problem: .recordNotAnObject(found: item.kindDescription))
        }
        if let fields = object["fields"] {
            guard case .object(let cells) = fields else {
                throw SeedError(path: path, location: "\(location).fields", problem: .fieldsNotAnObject)
            }
            for key in object.keys.sorted() where !["fields", "id", "createdTime"].contains(key) {
                throw SeedError(path: path, location: "\(location).\(key)", problem: .unknownKeyBesideFields)
            }
            return (cells, "\(location).fields")
        }
        return (object, location)
    }

    private static func drink(from fields: Fields, at location: String, path: String) throws(SeedError) -> Drink {
        func fail(_ field: String, _ problem: RecordFieldProblem) -> SeedError {
            SeedError(path: path, location: "\(location).\(field)", problem: .field(problem))
        }
        for key in fields.keys.sorted() where !drinkKeys.contains(key) {
            throw fail(key, .unknownField(of: .drink, known: drinkKeys.sorted()))
        }
        guard let nameValue = fields[DrinkField.name] else { throw fail("name", .missingDrinkName) }
        guard let name = nameValue.stringValue else { throw fail("name", .notText) }
        guard let categoryValue = fields[DrinkField.category] else { throw fail("category", .missing) }
        guard let categoryText = categoryValue.stringValue else { throw fail("category", .notText) }
        // Full-width letters (`Ｓｅａｓｏｎａｌ`) read as typed on an English keyboard (NFKC).
        guard let category = DrinkCategory(parsing: categoryText.precomposedStringWithCompatibilityMapping) else {
            throw fail("category", .unknownCategory(categoryText))
        }
        guard let mediumValue = fields[DrinkField.medium] else { throw fail("medium", .missingMediumPrice) }
        let medium = try price(mediumValue, fail: { fail("medium", $0) })
        var large: Int?
        if let largeValue = fields[DrinkField.large], !largeValue.isNull { large = try price(largeValue, fail: { fail("large", $0) }) }
        let text = { (key: String) throws(SeedError) -> String? in
            guard let value = fields[key], !value.isNull else { return nil }
            guard let string = value.stringValue else { throw fail(key, .notText) }
            return string
        }
        let flag = { (key: String) throws(SeedError) -> Bool? in
            guard let value = fields[key], !value.isNull else { return nil }
            guard let bool = value.boolValue else { throw fail(key, .notTrueOrFalse) }
            return bool
        }
        var images: [String] = []
        if let image = fields[DrinkField.image], !image.isNull {
            guard let items = image.arrayValue else { throw fail("image", .imageNotAList) }
            for (i, item) in items.enumerated() {
                guard let url = item["url"]?.stringValue ?? item.stringValue, url.hasPrefix("http") else {
                    throw fail("image[\(i)]", .imageNotAURL)
                }
                images.append(url)
            }
        }
        let available = try flag("available")
        let soldOut = try flag("soldOut")
        if let available, let soldOut, available == soldOut {
            throw fail("soldOut", .soldOutContradictsAvailable)
        }
        let englishName = try text("englishName")
        let description = try text("description") ?? ""
        let hot = try flag("hotAvailable") ?? false
        var contains: [String] = []
        if let value = fields[DrinkField.contains], !value.isNull {
            guard let items = value.arrayValue else { throw fail("contains", .notText) }
            for item in items {
                guard let ingredient = item.stringValue, !ingredient.trimmingCharacters(in: .whitespaces).isEmpty,
                      !ingredient.contains(where: { $0.isNewline || $0 == "," || $0 == "、" }) else { throw fail("contains", .notText) }
                contains.append(ingredient)
            }
        }
        do {
            return try Drink(name: name, englishName: englishName, description: description, category: category,
                             mediumPrice: medium, largePrice: large, imageURLs: images, hotAvailable: hot,
                             available: available ?? !(soldOut ?? false), contains: contains)
        } catch {
            throw fail(error.field, .drink(error))
        }
    }

    private static func price(_ value: JSONValue, fail: (RecordFieldProblem) -> SeedError) throws(SeedError) -> Int {
        guard let number = value.numberValue else { throw fail(.priceNotANumber(found: value.kindDescription)) }
        guard let whole = value.intValue else { throw fail(.priceNotWhole(number)) }
        guard whole > 0 else { throw fail(.priceNotPositive(whole)) }
        return whole
    }
}
