import Foundation
import Testing
@testable import DrinkShopCore

@Suite("Till: the day's report and CSV export")
struct TillReportTests {
    // 2026-12-01 09:00 and 14:00 in Taiwan.
    let morning = Date(timeIntervalSince1970: 1_796_086_800)
    var afternoon: Date { morning.addingTimeInterval(5 * 3600) }
    var dayStart: Date { morning.addingTimeInterval(-9 * 3600) }
    var dayEnd: Date { dayStart.addingTimeInterval(86_400) }

    func till(_ number: Int, at date: Date, by staff: String, lines: [OrderLine], promotions: [Promotion] = [],
              adjustments: [AdjustmentUse] = [], member: MemberBenefits? = nil, stamps: Int = 0,
              pay: [(PaymentMethod, Int)] = [], cancel reason: String? = nil) throws -> TillOrder
    {
        var order = try Order.place(pickupNumber: number, orderName: "客\(number)", placedBy: staff, createdAt: date,
                                    lines: lines, promotions: promotions)
        let charges = try OrderCharges.price(order, adjustments: adjustments, member: member)
        var money = try OrderPayments(pickupNumber: number, total: charges.total)
        for (method, amount) in pay {
            (money, _) = try money.paying(method, tendered: amount, voided: false, by: staff, at: date)
        }
        if let reason {
            try order.cancel(reason: reason)
            (money, _) = money.refundingAll(reason: reason, by: "店長", at: date)
        }
        return TillOrder(order: order, charges: charges, money: money, stampsRedeemed: stamps)
    }

    func day() throws -> [TillOrder] {
        let cup = try Adjustment(name: "環保杯", code: "cup", kind: .perCup(-5))
        let bag = try Adjustment(name: "塑膠袋", code: "bag", kind: .perItem(1))
        let half = try Promotion(name: "第二杯半價", kind: .secondCupHalfPrice)
        let policy = try StampPolicy(stampsPerReward: 10, rewardSize: .medium)
        return [
            try till(1, at: morning, by: "阿明", lines: [Fixtures.line("熟成紅茶", quantity: 2)], promotions: [half],
                     adjustments: [AdjustmentUse(cup, count: 1), AdjustmentUse(bag)], pay: [(.cash, 100)]),
            try till(2, at: morning, by: "小華", lines: [Fixtures.line("白玉歐蕾")], pay: [(.linePay, 60)]),
            try till(3, at: afternoon, by: "阿明", lines: [Fixtures.line("熟成歐蕾"), Fixtures.line("熟成紅茶")],
                     member: MemberBenefits(freeCups: 1, stampPolicy: policy, at: afternoon, calendar: .taiwan), stamps: 10,
                     pay: [(.easyCard, 35)]),
            try till(4, at: afternoon, by: "小華", lines: [Fixtures.line("麗春紅茶")], pay: [(.cash, 35)],
                     cancel: "客人改口"),
            try till(5, at: afternoon, by: "小華", lines: [Fixtures.line("麗春紅茶")], cancel: "打錯"),
            try till(6, at: afternoon, by: "阿明", lines: [Fixtures.line("熟成紅茶")], pay: [(.card, 20)]),
            try till(7, at: dayEnd, by: "阿明", lines: [Fixtures.line("熟成紅茶")], pay: [(.cash, 35)]),
        ]
    }

    @Test("the report totals the day by method, staff and hour, and lists what was given and taken back")
    func report() throws {
        let audit = [AuditEntry(at: afternoon, by: "店長", action: .soldOut, subject: "熟成紅茶", detail: "sold out"),
                     AuditEntry(at: dayEnd, by: "店長", action: .restock, subject: "熟成紅茶", detail: "restocked")]
        let report = TillReport.make(orders: try day(), audit: audit, from: dayStart, to: dayEnd, calendar: .taiwan)
        // #1: 70 - 17 - 5 + 1 = 49; #2: 60; #3: 90 - 55 = 35; #6: 35 (20 paid).
        #expect(report.orders == 4)
        #expect(report.cups == 6)
        #expect(report.grossSales == 70 + 60 + 90 + 35)
        #expect(report.netSales == 49 + 60 + 35 + 35)
        #expect(report.byMethod[.cash] == MethodTotals(payments: 2, tendered: 135, taken: 84, change: 51, refunds: 1, refunded: 35))
        #expect(report.byMethod[.cash]?.net == 49)
        // The columns add up as a cashier checks them: handed over − change = taken; taken − refunded = net.
        for totals in report.byMethod.values {
            #expect(totals.tendered - totals.change == totals.taken)
            #expect(totals.taken - totals.refunded == totals.net)
        }
        #expect(report.byMethod[.linePay]?.taken == 60)
        #expect(report.byMethod[.easyCard]?.taken == 35)
        #expect(report.byMethod[.card]?.taken == 20)
        #expect(report.byStaff["阿明"] == ReportTotals(count: 3, amount: 49 + 35 + 35))
        #expect(report.byStaff["小華"] == ReportTotals(count: 1, amount: 60))
        #expect(report.byHour[9] == ReportTotals(count: 2, amount: 109))
        #expect(report.byHour[14] == ReportTotals(count: 2, amount: 70))
        #expect(report.promotions["第二杯半價"] == ReportTotals(count: 1, amount: 17))
        #expect(report.adjustments["環保杯"] == ReportTotals(count: 1, amount: -5))
        #expect(report.adjustments["塑膠袋"] == ReportTotals(count: 1, amount: 1))
        #expect(report.freeCups == ReportTotals(count: 1, amount: 55))
        #expect(report.stampsRedeemed == 10)
        #expect(report.voids == [CancelledOrder(pickupNumber: 4, reason: "客人改口", total: 35, refunded: [.cash: 35])])
        #expect(report.cancellations == [CancelledOrder(pickupNumber: 5, reason: "打錯", total: 35, refunded: [:])])
        #expect(report.unpaidOrders == [6])
        #expect(report.menuChanges.map(\.detail) == ["sold out"])
    }

    @Test("CSV fields are quoted as RFC 4180 says")
    func csvQuoting() {
        #expect(CSVTable.field("熟成紅茶") == "熟成紅茶")
        #expect(CSVTable.field("a,b") == "\"a,b\"")
        #expect(CSVTable.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        // A field is one line: a line break (or a bidi control, a line separator) is drawn as U+FFFD.
        #expect(CSVTable.field("two\nlines") == "two\u{FFFD}lines")
        #expect(CSVTable.field("crlf\r\nend, too") == "\"crlf\u{FFFD}\u{FFFD}end, too\"")
        #expect(CSVTable.field(" padded") == "\" padded\"")
        #expect(CSVTable.field("") == "")
    }

    @Test("text that a spreadsheet would run as a formula is defused; numbers are left alone")
    func csvFormulaText() throws {
        #expect(CSVTable.text("=HYPERLINK(\"x\")") == "'=HYPERLINK(\"x\")")
        #expect(CSVTable.text("@SUM(1)") == "'@SUM(1)")
        #expect(CSVTable.text("+886") == "'+886")
        #expect(CSVTable.text("小美") == "小美")
        let order = try till(9, at: morning, by: "阿明", lines: [Fixtures.line("熟成紅茶")], pay: [(.cash, 35)],
                             cancel: "-不要了")
        let payments = TillExport.payments([order], calendar: .taiwan)
        #expect(payments.rows[1][4] == "-35")
        #expect(payments.rows[1][8] == "'-不要了")
    }

    @Test("a CSV file starts with the UTF-8 byte-order mark and ends every row with CRLF")
    func csvBytes() {
        var table = CSVTable(header: ["name", "note"])
        table.append(["熟成紅茶", "少冰, 半糖"])
        table.append(["白玉歐蕾"])
        #expect(Array(table.bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(table.text == "name,note\r\n熟成紅茶,\"少冰, 半糖\"\r\n白玉歐蕾,\r\n")
        #expect(String(decoding: table.bytes.dropFirst(3), as: UTF8.self) == table.text)
    }

    @Test("the export has orders, lines and payments with refunds negative")
    func export() throws {
        let orders = try day()
        let orderTable = TillExport.orders(orders, calendar: .taiwan)
        #expect(orderTable.rows.count == 7)
        #expect(orderTable.rows.allSatisfy { $0.count == orderTable.header.count })
        let first = Dictionary(uniqueKeysWithValues: zip(orderTable.header, orderTable.rows[0]))
        #expect(first["createdAt"] == "2026-12-01 09:00")
        #expect(first["total"] == "49")
        #expect(first["adjustments"] == "環保杯 x1 -5; 塑膠袋 x1 +1")
        #expect(first["paymentState"] == "paid")
        let lines = TillExport.lines(orders)
        #expect(lines.rows.count == 8)
        #expect(lines.rows[0][2] == "熟成紅茶")
        let payments = TillExport.payments(orders, calendar: .taiwan)
        let refund = try #require(payments.rows.first { $0[2] == "refund" })
        #expect(refund == ["4", "2026-12-01 14:00", "refund", "cash", "-35", "", "", "店長", "客人改口"])
        let cash = try #require(payments.rows.first)
        #expect(cash == ["1", "2026-12-01 09:00", "payment", "cash", "49", "100", "51", "阿明", ""])
    }
}
