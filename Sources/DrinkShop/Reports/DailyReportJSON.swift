import Airtable

extension DailyReport {
    /// The report as one JSON object (`report --json`).
    public var json: String {
        let rows = { (rows: [DailyReport.Row]) -> JSONValue in
            .array(rows.map { ["name": .string($0.name), "cups": .int($0.cups), "revenue": .int($0.revenue)] })
        }
        let withdrawn = { (rows: [DailyReport.Withdrawn]) -> JSONValue in
            .array(rows.map { row in
                var object: [String: JSONValue] = ["number": .string(row.number), "for": .string(row.orderName),
                                                   "cups": .int(row.cups), "amount": .int(row.amount), "reason": .string(row.reason)]
                if let by = row.voidedBy { object["voidedBy"] = .string(by) }
                return .object(object)
            })
        }
        return JSONWriter.string([
            "day": .string(day), "orders": .int(orders), "cups": .int(cups),
            "subtotal": .int(subtotal), "discounts": .int(discounts), "revenue": .int(revenue),
            "cancelledOrders": .int(cancelledOrders), "cancelledAmount": .int(cancelledAmount),
            "voidedOrders": .int(voidedOrders), "voidedAmount": .int(voidedAmount),
            "cancellations": withdrawn(cancellations), "voids": withdrawn(voids),
            "audit": .object(auditCounts.mapValues { .int($0) }),
            "openOrders": .int(openOrders), "byDrink": rows(byDrink), "byCategory": rows(byCategory),
            "bySize": rows(bySize), "addOns": rows(addOns),
        ])
    }
}
