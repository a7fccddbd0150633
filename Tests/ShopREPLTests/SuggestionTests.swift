import Testing

/// Refusals point to a command the order's state allows, and that command then works (issue 22's
/// "messages that point the wrong way").
@Suite struct SuggestionTests {
    @Test func editingAPaidPickedUpOrderSuggestsVoidNotCancel() async throws {
        let counter = try await Counter()
        await counter.run("shift open 0", "order 熟成紅茶 大杯 半糖 少冰 for Amy", "pay #1 cash 100", "advance #1", "advance #1", "advance #1")
        #expect(counter.output.errors.isEmpty)
        #expect(await counter.run("edit #1 中杯") == [.failed])
        let refusal = counter.output.errors
        #expect(refusal.contains("was picked up"))
        #expect(!refusal.contains("cancel"))
        #expect(refusal.contains("void #1 REASON"))
        // The suggested command does what it says.
        #expect(await counter.run("void #1 客人要換口味") == [.succeeded])
        #expect(counter.output.text.contains("Refund $"))
    }

    @Test func editingAPaidPlacedOrderStillSuggestsCancel() async throws {
        let counter = try await Counter()
        await counter.run("shift open 0", "order 熟成紅茶 大杯 半糖 少冰 for Amy", "pay #1 cash 100")
        #expect(await counter.run("edit #1 中杯") == [.failed])
        #expect(counter.output.errors.contains("cancel #1 REASON refunds it"))
        #expect(await counter.run("cancel #1 換口味") == [.succeeded])
    }

    @Test func cancellingAReadyOrderNamesVoid() async throws {
        let counter = try await Counter()
        await counter.run("order 熟成紅茶 大杯 半糖 少冰 for Amy", "advance #1", "advance #1")
        #expect(await counter.run("cancel #1 不要了") == [.failed])
        #expect(counter.output.errors.contains("void #1 REASON"))
        #expect(await counter.run("void #1 不要了") == [.succeeded])
    }

    @Test func payingACancelledUnpaidOrderDoesNotCallItVoided() async throws {
        let counter = try await Counter()
        await counter.run("shift open 0", "order 熟成紅茶 大杯 半糖 少冰 for Amy", "cancel #1 不要了")
        #expect(await counter.run("pay #1 cash 100") == [.failed])
        #expect(counter.output.errors.contains("order #1 was cancelled"))
        #expect(!counter.output.errors.contains("is voided"))
    }
}
