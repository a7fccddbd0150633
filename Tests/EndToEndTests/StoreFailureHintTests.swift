import Airtable
@testable import DrinkShop
@testable import DrinkShopCLI
import Testing

/// LocalBase names what happened to the file (`LocalFileFailure`); the program adds its own commands where it
/// shows the error, deciding by the failure's problem, wherever the shop or the till carried it.
@Suite(.clearOfShopMidnight) struct StoreFailureHintTests {
    static let path = "/srv/shop.sqlite"
    static let damaged = AirtableError.localFile(LocalFileFailure(path: path, problem: .damaged))

    @Test func aDamagedStoreIsToldHowToCheckAndRecoverItWhereverTheErrorCameFrom() {
        let whole = "the store /srv/shop.sqlite is damaged and was not changed; run `drinkshop check --db /srv/shop.sqlite` "
            + "for details and `drinkshop recover --db /srv/shop.sqlite --into NEW.sqlite` to copy every readable order "
            + "into a new store"
        for error: any Error in [Self.damaged, ShopError.store(Self.damaged), TillError.shop(.store(Self.damaged))] {
            #expect(StoreFailureHint.message(error) == whole)
        }
    }

    @Test func otherFailuresGetTheirOwnHintOrNone() {
        let failed = AirtableError.localFile(LocalFileFailure(path: Self.path, problem: .failed(code: 1)))
        #expect(StoreFailureHint.message(ShopError.store(failed))
            == "the store /srv/shop.sqlite failed (SQLite code 1); nothing was written. "
            + "Set DRINKSHOP_DEBUG_LOG=FILE to record the details for support")
        let readOnly = AirtableError.localFile(LocalFileFailure(path: Self.path, problem: .readOnly))
        #expect(StoreFailureHint.after(ShopError.store(readOnly)) == nil)
        #expect(StoreFailureHint.after(ShopError.store(.transport("lost"))) == nil)
        #expect(StoreFailureHint.after(ShopError.notADay("soon")) == nil)
    }
}
