import Airtable
import Foundation
import Testing

/// `drinkshop check --books` on a remote base (AIRTABLE_TOKEN and AIRTABLE_BASE_ID set, the in-process
/// server): the same check as on the embedded store, over the API; a payment the ledger lost is taken again.
@Suite struct BooksCommandLineTests {
    @Test func theBooksOfARemoteBaseAreCheckedAndADifferenceExitsOne() async throws {
        try await ServerHarness.with { server in
            for words in [["setup"], ["seed", Repository.menu], ["shift", "open", "500"], ["order", "熟成紅茶", "M", "無糖", "去冰"],
                          ["pay", "#1", "cash", "100"]] {
                let done = try await RemoteCommandLineTests.drinkshop(words, server: server, token: server.token)
                #expect(done.status == 0, "\(words): \(done.output)")
            }
            // The order's business day, named: a run that crosses midnight checks the day the order is in.
            let day = try #require(try await server.base.allRecords(in: "OrderDrink").first?.fields["businessDay"]?.stringValue)
            let check = ["check", "--books", day]
            let clean = try await RemoteCommandLineTests.drinkshop(check, server: server, token: server.token)
            #expect(clean.status == 0 && clean.output.contains(" balance: 1 order, 1 payment, 0 refunds, 0 drawer counts checked.\n"),
                    "\(clean.output)")

            // The payment's ledger row is lost (a counter stopped between its two writes): the order still says paid.
            let rows = try await server.base.allRecords(in: "TillPayment")
            #expect(rows.count == 1)
            _ = try await server.base.deleteRecords(in: "TillPayment", ids: rows.map(\.id))
            let found = try await RemoteCommandLineTests.drinkshop(check, server: server, token: server.token)
            #expect(found.status == 1, "\(found.output)")
            #expect(found.output.contains("  1. order #1: the order shows $35 (現金 Cash 35) paid, the payment ledger $0 paid"), "\(found.output)")
            #expect(found.output.contains("if the customer paid, record it: pay #1 cash 35"))
            // Paying again goes by the ledger: taken once more, and the books balance.
            let paid = try await RemoteCommandLineTests.drinkshop(["pay", "#1", "cash", "35"], server: server, token: server.token)
            #expect(paid.status == 0, "\(paid.output)")
            #expect(try await server.base.allRecords(in: "TillPayment").count == 1)
            let balanced = try await RemoteCommandLineTests.drinkshop(check, server: server, token: server.token)
            #expect(balanced.status == 0 && balanced.output.contains(" balance: 1 order, 1 payment, 0 refunds"), "\(balanced.output)")
            #expect(!(clean.output + found.output + balanced.output).contains(server.token))
        }
    }
}
