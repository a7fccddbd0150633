import Airtable
@testable import DrinkShop
import Testing

/// Archiving moves every table that keeps records per business day: a new such table must be archived too.
@Suite struct DayTablesTests {
    @Test func everyTableWithABusinessDayIsArchivedAndNoOtherIs() {
        let keyedByDay = Set(ShopSchema.tables.filter { $0.fields.contains { $0.name == DayTables.dayField } }.map(\.name))
        #expect(Set(DayTables.archived.map(\.name)) == keyedByDay)
        #expect(DayTables.archived.first?.name == ShopSchema.orderTable, "order lines first: they say which orders are open")
        // Every archived table is read back except the tickets (a closed day's numbers are spent), and so are the
        // invoice tables, moved a period at a time.
        #expect(DayTables.readBack == keyedByDay.subtracting([ShopSchema.ticketTable]).union(DayTables.invoiceTables.map(\.name)))
        #expect(Set(DayTables.invoiceTables.map(\.name)) == [ShopSchema.einvoiceTable, ShopSchema.proofPrintTable])
    }
}
