import Airtable

extension DailyReport {
    /// The report as one JSON object (`report --json`).
    public var json: String {
        let rows = { (rows: [DailyReport.Row]) -> JSONValue in
            .array(rows.map { ["name": .string($0.name), "cups": .int($0.cups), "revenue": .int($0.revenue)] })
        }
        return JSONWriter.string([
            "day": .string(day), "orders": .int(orders), "cups": .int(cups),
            "subtotal": .int(subtotal), "discounts": .int(discounts), "revenue": .int(revenue),
            "cancelledOrders": .int(cancelledOrders), "cancelledAmount": .int(cancelledAmount),
            "openOrders": .int(openOrders), "byDrink": rows(byDrink), "byCategory": rows(byCategory),
            "bySize": rows(bySize), "addOns": rows(addOns),
        ])
    }
}
