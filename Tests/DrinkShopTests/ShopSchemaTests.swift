import Airtable
@testable import DrinkShop
import Testing

/// The field enums are the one list of each table's fields: the schema `setup` creates is built from them.
@Suite struct ShopSchemaTests {
    @Test func everyTableDeclaresExactlyItsFieldEnumInOrder() {
        #expect(ShopSchema.drink.fields.map(\.name) == DrinkField.allCases.map(\.rawValue))
        #expect(ShopSchema.order.fields.map(\.name) == OrderField.allCases.map(\.rawValue))
        #expect(ShopSchema.user.fields.map(\.name) == UserField.allCases.map(\.rawValue))
        #expect(ShopSchema.promotion.fields.map(\.name) == PromotionField.allCases.map(\.rawValue))
        #expect(ShopSchema.ticket.fields.map(\.name) == TicketField.allCases.map(\.rawValue))
        #expect(ShopSchema.audit.fields.map(\.name) == AuditField.allCases.map(\.rawValue))
        #expect(ShopSchema.setting.fields.map(\.name) == SettingField.allCases.map(\.rawValue))
    }

    @Test func theKebukeAppsFieldNamesStayAsTheAppWritesThem() {
        // New fields go beside these, never instead of them (reference domain.md §2).
        let kebukeOrder = ["drinkName", "size", "ice", "sugar", "addOns", "price", "orderName", "numberOfCups", "imageUrl"]
        #expect(Array(OrderField.allCases.map(\.rawValue).prefix(kebukeOrder.count)) == kebukeOrder)
        let kebukeDrink: Set = ["name", "description", "medium", "large", "image", "category"]
        #expect(kebukeDrink.isSubset(of: DrinkField.allCases.map(\.rawValue)))
    }
}
