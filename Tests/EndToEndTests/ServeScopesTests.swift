import AirtableServer
@testable import DrinkShop
@testable import DrinkShopCLI
import Testing

/// On `drinkshop serve`, a token with Airtable's record scopes alone reaches the menu, the orders and the tickets (what
/// the customers' page and a plain Airtable client need), and nothing of the till or the staff: every other table the
/// shop keeps is behind one of the shop's own scopes. A table added to the shop must be given a scope here, or this
/// test names it.
@Suite struct ServeScopesTests {
    static let open: Set<String> = [ShopSchema.drinkTable, ShopSchema.orderTable, ShopSchema.promotionTable,
                                    ShopSchema.ticketTable, ShopSchema.counterLetterTable]

    @Test func everyTableOfTheTillAndTheStaffIsBehindAShopScope() {
        let scopes = ServeCommand.shopTableScopes.scopeByTable
        for table in ShopSchema.embeddedTables.map(\.name) where !Self.open.contains(table) {
            #expect(scopes[table] != nil, "\(table) is reachable with Airtable's record scopes alone")
        }
        #expect(scopes[ShopSchema.userTable] == "drinkshop.staff")
        #expect(scopes[ShopSchema.proofPrintTable] == "drinkshop.till")
        #expect(Set(scopes.keys).isSubset(of: Set(ShopSchema.embeddedTables.map(\.name))), "a scope names a table the shop has")
    }
}
