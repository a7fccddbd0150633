@testable import DrinkShop
import DrinkShopCore
import Foundation
@testable import ShopREPL
import Testing

/// What staff are told about words the counter does not understand, and repeated options.
@Suite struct CounterWordsTests {
    @Test func aWordBesideTheDrinkIsNamedWithWhatWouldBeUnderstood() async throws {
        let counter = try await Counter()
        #expect(await counter.run("order 熟成紅茶 加珍珠 M 無糖 少冰") == [.failed])
        let error = counter.output.errors
        #expect(error.contains("熟成紅茶: \"加珍珠\" is not understood"))
        #expect(error.contains("加白玉/White Tapioca") && error.contains("無糖") && error.contains("少冰"))
        #expect(!error.contains("no drink called"))
    }

    @Test func aRepeatedNoteOrForIsRefusedNotSilentlyKept() async throws {
        let counter = try await Counter()
        #expect(await counter.run("order 熟成紅茶 M 無糖 少冰 note \"a\" note \"b\"") == [.failed])
        #expect(counter.output.errors.contains("note is given twice"))
        #expect(await counter.run("edit #1 note \"a\" note \"b\"") == [.failed])
        #expect(await counter.run("order 熟成紅茶 M 無糖 少冰 for Amy for Ben") == [.failed])
        #expect(counter.output.errors.contains("say `for NAME` once per order"))
        #expect(await counter.run("orders --from 2026-11-01 --from 2026-11-02") == [.failed])
        #expect(counter.output.errors.contains("--from is given twice"))
    }

    @Test func errorsNameThingsAsStaffKnowThem() async throws {
        let counter = try await Counter()
        #expect(await counter.run("order 熟成紅茶 M 無糖 少冰 for \"  \"") == [.failed])
        #expect(counter.output.errors.contains("who the order is for"))
        #expect(!counter.output.errors.contains("orderName"))
    }

    @Test func theMenuShowsTheAddOnsAndTheirPrice() async throws {
        let counter = try await Counter()
        await counter.run("menu")
        #expect(counter.output.text.contains("加料 Add-ons +$10 each per cup: 加白玉 White Tapioca · 加水玉 Agar Pearl"))
    }

    @Test func voidLogAndReportAtTheCounter() async throws {
        let counter = try await Counter()
        await counter.run("login Mei", "order 熟成紅茶 M 無糖 少冰 for Amy", "advance #1", "void #1 spilled", "log", "report")
        let text = counter.output.text
        #expect(text.contains("#1 voided by Mei ($35, not revenue): spilled"))
        #expect(text.contains("Mei") && text.contains("void") && text.contains("being prepared") == false)
        #expect(text.contains("Voids") && text.contains("spilled"))
        #expect(text.contains("Audit trail: void 1"))
        #expect(await counter.run("void #1") == [.failed])
        #expect(counter.output.errors.contains("say why: void #1 REASON"))
    }
}
