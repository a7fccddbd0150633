import Airtable
import AirtableFormula
import DrinkShopCore

/// The till's sections of a seed file, read beside `records` and `promotions`:
///
/// ```json
/// "adjustments": [
///   {"name": "環保杯", "code": "cup", "kind": "perCup", "amount": -5},
///   {"name": "塑膠袋", "code": "bag", "kind": "perItem", "amount": 1},
///   {"name": "員工價", "code": "staff", "kind": "percentOff", "percent": 20, "needsManager": true}
/// ],
/// "stampCard": {"stampsPerReward": 10, "rewardSize": "中杯"},
/// "passes": [{"name": "月卡", "days": 30, "price": 299, "percentOff": 10}]
/// ```
///
/// Each adjustment and pass may also be wrapped as `{"fields": {…}}`, as promotions may.
/// Everything is validated before anything is written; the error names the record and field.
public struct TillSeed: Sendable, Equatable {
    public var adjustments: [Adjustment] = []
    public var stampPolicy: StampPolicy?
    public var passes: [PassProduct] = []

    /// The top-level keys this type reads.
    public static let sectionKeys: Set<String> = ["adjustments", "stampCard", "passes"]
    static let stampKeys: Set<String> = ["stampsPerReward", "rewardSize"]
    static let passKeys: Set<String> = ["name", "days", "price", "percentOff", "perCupOff"]

    public init(adjustments: [Adjustment] = [], stampPolicy: StampPolicy? = nil, passes: [PassProduct] = []) {
        self.adjustments = adjustments
        self.stampPolicy = stampPolicy
        self.passes = passes
    }

    /// Reads the till's sections from a seed file's top-level object; other keys are left to `SeedFile`.
    /// - Throws: `SeedError` naming the section, the record by index and the field.
    public static func parse(_ object: [String: JSONValue], path: String) throws(SeedError) -> TillSeed {
        var seed = TillSeed()
        if let section = object["adjustments"] {
            guard let items = section.arrayValue else {
                throw SeedError(path: path, location: "adjustments", problem: .notAList(of: "adjustments"))
            }
            var names: Set<String> = []
            var codes: Set<String> = []
            for (index, item) in items.enumerated() {
                let (cells, location) = try record(item, at: "adjustments[\(index)]", path: path)
                let adjustment: Adjustment
                do { adjustment = try AdjustmentRecord.adjustment(from: cells) } catch {
                    throw SeedError(path: path, location: "\(location).\(error.field)", problem: .field(error.problem))
                }
                guard names.insert(adjustment.name).inserted else {
                    throw SeedError(path: path, location: "\(location).name", problem: .duplicateName(.adjustment, adjustment.name, firstAt: nil))
                }
                guard codes.insert(adjustment.code).inserted else {
                    throw SeedError(path: path, location: "\(location).code", problem: .duplicateAdjustmentCode(adjustment.code))
                }
                seed.adjustments.append(adjustment)
            }
        }
        if let section = object["stampCard"], !section.isNull {
            seed.stampPolicy = try stampPolicy(section, path: path)
        }
        if let section = object["passes"] {
            guard let items = section.arrayValue else {
                throw SeedError(path: path, location: "passes", problem: .notAList(of: "passes"))
            }
            var names: Set<String> = []
            for (index, item) in items.enumerated() {
                let (cells, location) = try record(item, at: "passes[\(index)]", path: path)
                let pass = try passProduct(cells, at: location, path: path)
                guard names.insert(pass.name).inserted else {
                    throw SeedError(path: path, location: "\(location).name", problem: .duplicateName(.pass, pass.name, firstAt: nil))
                }
                seed.passes.append(pass)
            }
        }
        return seed
    }

    private static func record(_ item: JSONValue, at location: String, path: String) throws(SeedError) -> (Fields, String) {
        guard case .object(let object) = item else {
            throw SeedError(path: path, location: location, problem: .recordNotAnObject(found: item.kindDescription))
        }
        guard let fields = object["fields"] else { return (object, location) }
        guard case .object(let cells) = fields else {
            throw SeedError(path: path, location: "\(location).fields", problem: .fieldsNotAnObject)
        }
        for key in object.keys.sorted() where !["fields", "id", "createdTime"].contains(key) {
            throw SeedError(path: path, location: "\(location).\(key)", problem: .unknownKeyBesideFields)
        }
        return (cells, "\(location).fields")
    }

    private static func stampPolicy(_ section: JSONValue, path: String) throws(SeedError) -> StampPolicy {
        guard case .object(let cells) = section else {
            throw SeedError(path: path, location: "stampCard", problem: .stampCardNotAnObject)
        }
        for key in cells.keys.sorted() where !stampKeys.contains(key) {
            throw SeedError(path: path, location: "stampCard.\(key)", problem: .field(.unknownField(of: .stampCard, known: stampKeys.sorted())))
        }
        guard let count = cells["stampsPerReward"]?.intValue else {
            throw SeedError(path: path, location: "stampCard.stampsPerReward", problem: .field(.missingOrNotWholeNumber))
        }
        guard let sizeText = cells["rewardSize"]?.stringValue else {
            throw SeedError(path: path, location: "stampCard.rewardSize", problem: .field(.missingRewardSize))
        }
        guard let size = CupSize.allCases.first(where: {
            $0.rawValue == sizeText.trimmingSpaces || $0.englishLabel.lowercased() == sizeText.trimmingSpaces.lowercased()
                || String($0.englishLabel.prefix(1)) == sizeText.trimmingSpaces.uppercased()
        }) else {
            throw SeedError(path: path, location: "stampCard.rewardSize", problem: .field(.unknownSize(sizeText)))
        }
        do { return try StampPolicy(stampsPerReward: count, rewardSize: size) } catch {
            throw SeedError(path: path, location: "stampCard.stampsPerReward", problem: .field(.member(error)))
        }
    }

    private static func passProduct(_ cells: Fields, at location: String, path: String) throws(SeedError) -> PassProduct {
        func fail(_ field: String, _ problem: RecordFieldProblem) -> SeedError {
            SeedError(path: path, location: "\(location).\(field)", problem: .field(problem))
        }
        for key in cells.keys.sorted() where !passKeys.contains(key) {
            throw fail(key, .unknownField(of: .pass, known: passKeys.sorted()))
        }
        guard let name = cells["name"]?.stringValue else { throw fail("name", .missingOrNotText) }
        guard let days = cells["days"]?.intValue else { throw fail("days", .missingOrNotWholeNumber) }
        guard let price = cells["price"]?.intValue else { throw fail("price", .missingOrNotWholeMoney) }
        let percent = cells["percentOff"].flatMap { $0.isNull ? nil : $0 }
        let perCup = cells["perCupOff"].flatMap { $0.isNull ? nil : $0 }
        let benefit: PassBenefit
        switch (percent, perCup) {
        case (let value?, nil):
            guard let whole = value.intValue else { throw fail("percentOff", .percentNotWhole) }
            benefit = .percentOff(whole)
        case (nil, let value?):
            guard let whole = value.intValue else { throw fail("perCupOff", .moneyNotWhole) }
            benefit = .perCupOff(whole)
        case (nil, nil):
            throw fail("percentOff", .missingPassBenefit)
        case (_?, _?):
            throw fail("perCupOff", .bothPassBenefits)
        }
        // Checked here first so each error names its own field; PassProduct checks them again.
        guard !name.trimmingSpaces.isEmpty else { throw fail("name", .passNeedsName) }
        guard (1...366).contains(days) else { throw fail("days", .passDays(days)) }
        guard price >= 0 else { throw fail("price", .passPriceBelowZero(price)) }
        do { return try PassProduct(name: name, days: days, price: price, benefit: benefit) } catch {
            throw fail(percent != nil ? "percentOff" : "perCupOff", .member(error))
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
