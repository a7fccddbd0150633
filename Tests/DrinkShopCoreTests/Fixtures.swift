import Foundation
@testable import DrinkShopCore

/// A small KEBUKE menu and the lines the tests order from it.
enum Fixtures {
    static func menu() throws -> Menu {
        Menu(drinks: try drinks())
    }

    static func drinks() throws -> [Drink] {
        [
            try Drink(name: "熟成紅茶", englishName: "Aged Black Tea", category: .classicTea,
                      mediumPrice: 35, largePrice: 40, hotAvailable: true),
            try Drink(name: "白玉歐蕾", englishName: "White Jade Latte", description: "珍奶不解釋", category: .milkTea,
                      mediumPrice: 60, largePrice: 70, hotAvailable: true),
            try Drink(name: "熟成歐蕾", englishName: "Aged Au Lait", category: .milkTea,
                      mediumPrice: 55, largePrice: 65, hotAvailable: true),
            try Drink(name: "冷露歐蕾", englishName: "Winter Melon Au Lait", category: .milkTea,
                      mediumPrice: 55, largePrice: 65, hotAvailable: true),
            try Drink(name: "麗春紅茶", englishName: "Lychee Spring Black Tea", category: .classicTea,
                      mediumPrice: 35, largePrice: 40, hotAvailable: true),
            try Drink(name: "熟成檸果", englishName: "Aged Lemon Tea", category: .mixedTea, mediumPrice: 60),
            try Drink(name: "雲蓋熟成", englishName: "Cream Cap Black Tea", category: .creamCap,
                      mediumPrice: 60, largePrice: 65),
            try Drink(name: "金蘋春芽", englishName: "Golden Apple Green Tea", category: .seasonal,
                      mediumPrice: 60, largePrice: 70),
            try Drink(name: "草莓檸果", englishName: "Strawberry Lemon Tea", category: .seasonal,
                      mediumPrice: 65, largePrice: 75, available: false),
        ]
    }

    static func drink(_ name: String) throws -> Drink {
        guard let drink = try menu().drink(named: name) else { throw FixtureError.noSuchDrink(name) }
        return drink
    }

    /// A valid line: `quantity` cups of `name`, medium unless told, 少冰 半糖.
    static func line(
        _ name: String, _ size: CupSize = .medium, addOns: [AddOn] = [], quantity: Int = 1
    ) throws -> OrderLine {
        try OrderLine(
            drink: drink(name),
            choices: DrinkChoices(size: size, ice: .less, sugar: .half, addOns: addOns, quantity: quantity))
    }

    static let noon = Date(timeIntervalSince1970: 1_750_000_000)

    enum FixtureError: Error { case noSuchDrink(String) }
}
