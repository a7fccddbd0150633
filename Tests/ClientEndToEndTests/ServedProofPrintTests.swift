import Airtable
@testable import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import LocalBase
import Testing
import TestSupport

/// The original print of a proof (電子發票證明聯) is claimed once: counters printing one invoice's proof at the same
/// instant over `drinkshop serve` (which keeps the claim's key unique), over a base like Airtable (which keeps nothing
/// unique: the earliest claim holds) and on the served store itself print one original between them, and 補印 at
/// every other.
@Suite struct ServedProofPrintTests {
    static let ken = Acting("Ken", role: nil)
    /// Every counter reads one fixed day of the period 11512 (2026-11-29), whatever the day the test runs.
    static let clock = ShopClock(timeZone: TestClock.taipei, now: { TestClock.noon })

    static func setUpInvoices(_ shop: Shop) async throws {
        let seller = try InvoiceSeller(businessNumber: "12345675", name: "可不可熟成紅茶台北店", address: "台北市中正區忠孝西路一段1號",
                                       qrKey: try QRKey(hex: "0123456789abcdef0123456789abcdef"))
        try await shop.counter.setInvoiceSeller(InvoiceSetup(seller: seller, turnkey: nil), by: ken)
        try await shop.counter.importInvoiceRange(try TrackRange(parsing: "11512 AB 12345000-12345099"), by: ken)
    }

    static func paidOrderWithInvoice(_ shop: Shop) async throws -> Counter.InvoiceOnReceipt {
        let draft = OrderDraft(lines: [LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.free), .ice(.iceFree)])])
        let placed = try await shop.counter.place(draft, by: ken).order
        let receipt = try await shop.counter.pay(.pickup(placed.order.pickupNumber), method: .card, tendered: nil, by: ken)
        #expect(receipt.invoice != nil, "\(receipt.invoiceProblem ?? "")")
        return try #require(try await shop.counter.invoiceOnReceipt(of: receipt.order))
    }

    /// Six counters over HTTP and one on the served file print the proof of one invoice at once, in each of several
    /// rounds (a new invoice each).
    static func oneOriginal(uniqueKeys: UniqueKeys) async throws {
        try await ServerHarness.with(uniqueKeys: uniqueKeys) { server in
            let local = Shop(store: server.base, clock: clock)
            try await local.createMissingSchema()
            _ = try await local.seeder.seed(contentsOf: Repository.menu)
            var remote: [Shop] = []
            for index in 0..<6 {
                // Each with its outbox: a counter over the API issues from a book of its own, kept there.
                let outbox = Outbox(store: try LocalBase.inMemory(), location: "c\(index)")
                try await outbox.prepare()
                remote.append(Shop(store: try server.client(), clock: clock, outbox: outbox))
            }
            let counters = remote + [local]
            try await setUpInvoices(local)
            for round in 1...4 {
                let onReceipt = try await paidOrderWithInvoice(round % 2 == 0 ? local : remote[0])
                #expect(onReceipt.proof?.isReprint == false)
                let proofs = try await withThrowingTaskGroup(of: Bool?.self) { group in
                    for shop in counters { group.addTask { try await shop.counter.proofToPrint(onReceipt)?.isReprint } }
                    return try await group.reduce(into: [Bool?]()) { $0.append($1) }
                }
                #expect(proofs.count == 7 && proofs.allSatisfy { $0 != nil }, "round \(round): \(proofs)")
                #expect(proofs.filter { $0 == false }.count == 1, "round \(round): one original, the rest 補印: \(proofs)")
                let claims = try await server.base.allRecords(in: ShopSchema.proofPrintTable)
                    .filter { $0.fields[ProofPrintField.key.rawValue]?.stringValue == onReceipt.invoice.number.text }
                #expect(claims.count == 1, "round \(round): one claim stands")
                // Every later print, at any counter, is a 補印.
                #expect(try await remote[3].counter.proofToPrint(onReceipt)?.isReprint == true)
                #expect(try await local.counter.proofToPrint(onReceipt)?.isReprint == true)
            }
        }
    }

    @Test func onServeThatKeepsTheClaimUniqueOneCounterPrintsTheOriginal() async throws {
        try await Self.oneOriginal(uniqueKeys: ShopSchema.keptUnique)
    }

    @Test func onABaseLikeAirtableTheEarliestClaimPrintsTheOriginal() async throws {
        try await Self.oneOriginal(uniqueKeys: UniqueKeys())
    }
}
