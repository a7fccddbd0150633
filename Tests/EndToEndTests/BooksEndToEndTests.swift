import Airtable
import Foundation
import LocalBase
import Testing

/// `drinkshop check --books` through the real binary on the embedded store: a day that balances exits 0, a
/// difference written into the store behind the till's back exits 1 and is named, words it cannot read exit 2.
@Suite(.clearOfShopMidnight) struct BooksEndToEndTests {
    @Test func theBooksOfADayBalanceUntilAnOrderIsHandedOverOwingBehindTheTillsBack() async throws {
        let shop = try Drinkshop()
        let day = """
            shift open 1000
            order 熟成紅茶 M 無糖 去冰
            order 熟成紅茶 M 無糖 去冰
            pay #1 cash 100
            pay #2 card 10
            close 1035
            """
        let opened = try await shop.run([], input: day)
        #expect(opened.status == 0, "\(opened.stderr)")

        let clean = try await shop.run(["check", "--books"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.hasPrefix("The books of 20") && clean.stdout.hasSuffix(
            " balance: 2 orders, 2 payments, 0 refunds, 1 drawer count checked.\n"), "\(clean.stdout)")
        // The day given as a date, or as a range of one day, is the same check.
        for words in [["check", "--books", "today"], ["check", "--from", "today", "--to=today", "--books"]] {
            let again = try await shop.run(words)
            #expect(again.status == 0 && again.stdout == clean.stdout, "\(words): \(again.stdout)\(again.stderr)")
        }
        // Words it cannot read check nothing.
        let unread = try await shop.run(["check", "--books", "--to", "today"])
        #expect(unread.status == 2 && unread.stderr.contains("--to needs --from") && unread.stdout.isEmpty)
        // `check` alone is still the store file's integrity check.
        let file = try await shop.run(["check"])
        #expect(file.status == 0 && file.stdout.contains("is sound"))

        // #2 (part paid by card) marked picked up by a client writing the table itself: no unpaid handover on record.
        let base = try LocalBase(path: shop.database)
        let lines = try await base.allRecords(in: "OrderDrink").filter { $0.fields["pickupNumber"]?.intValue == 2 }
        #expect(!lines.isEmpty)
        _ = try await base.updateRecords(in: "OrderDrink", lines.map { RecordUpdate(id: $0.id, fields: ["status": "picked up"]) },
                                         replace: false, options: WriteOptions())
        let found = try await shop.run(["check", "--books"])
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect(found.stdout.contains(" do not balance (帳不平): 1 difference (2 orders, 2 payments, 0 refunds, 1 drawer count checked):\n"))
        #expect(found.stdout.contains("  1. order #2 was picked up with $25 still due and no unpaid handover on record"), "\(found.stdout)")
    }
}
