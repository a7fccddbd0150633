import DrinkShop
import DrinkShopCore
import EInvoice
import LineEditor

/// `report`'s section on the 統一發票 (shown only when a seller is set): the days' and the period's invoices as they
/// stand now, the numbers left and the blank numbers.
enum InvoiceReportView {
    static func render(_ section: InvoiceDesk.ReportSection, oneDay: Bool, style: ColorPolicy, width: Int? = nil) -> String {
        var out = "\n" + style.paint("Invoices (統一發票)", .bold) + "\n"
        let day = oneDay ? "Day" : "Days"
        let period = section.period.code
        var table = TextTable(columns: [.init(""), .init("\(day) #", alignment: .right), .init("\(day) NT$", alignment: .right),
                                        .init("\(period) #", alignment: .right), .init("\(period) NT$", alignment: .right)])
        let rows: [(String, KeyPath<InvoiceDesk.InvoiceTally, InvoiceDesk.Tally>)] = [
            ("Issued", \.issued), ("- voided (作廢)", \.voided), ("- allowances (折讓)", \.allowances), ("= net", \.net),
        ]
        for (label, figure) in rows {
            let days = section.days[keyPath: figure], inPeriod = section.inPeriod[keyPath: figure]
            table.append([label, "\(days.count)", "\(days.amount)", "\(inPeriod.count)", "\(inPeriod.amount)"])
        }
        out += table.render(style: style, width: width)
        out += "Net = issued - voided - allowances (as they stand now).\n"
        out += "Period \(section.period.printed) (\(period)): \(section.left) numbers left in\n  the imported tracks.\n"
        if section.periodOver {
            out += "Blank numbers (空白字軌): \(section.blanksReported) reported (E0402), \(section.blanksToReport) to report"
            out += section.blanksToReport > 0 ? ":\n  einvoice blanks \(period)\n" : ".\n"
        } else {
            out += "Blank numbers (空白字軌): \(section.blanksReported) reported; the rest are\n  reported after the period ends.\n"
        }
        return out
    }

    /// The same figures as JSON (`report --json`'s `invoices`).
    static func json(_ section: InvoiceDesk.ReportSection) -> String {
        func tally(_ tally: InvoiceDesk.InvoiceTally) -> String {
            [("issued", tally.issued), ("voided", tally.voided), ("allowances", tally.allowances), ("net", tally.net)]
                .map { "\"\($0.0)\":{\"count\":\($0.1.count),\"amount\":\($0.1.amount)}" }.joined(separator: ",")
        }
        return "{\"days\":{\(tally(section.days))},\"period\":{\"code\":\"\(section.period.code)\",\(tally(section.inPeriod)),"
            + "\"numbersLeft\":\(section.left),\"blanksReported\":\(section.blanksReported),"
            + "\"blanksToReport\":\(section.blanksToReport),\"over\":\(section.periodOver)}}"
    }
}
