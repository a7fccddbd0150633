@testable import AirtableFormula
import Foundation
import Testing
@testable import Airtable

@Suite struct FormulaCoercionTests {
    private func value(_ formula: String, _ cells: [String: JSONValue] = [:]) throws -> FormulaValue {
        try FormulaFixture.evaluate(formula, cells)
    }

    @Test func cellsBecomeValuesByFieldType() throws {
        #expect(try value("{Name}", ["Name": "紅茶"]) == .text("紅茶"))
        #expect(try value("{Notes}", ["Notes": "a\nb"]) == .text("a\nb"))
        #expect(try value("{Qty}", ["Qty": 2]) == .number(2))
        #expect(try value("{Price}", ["Price": 55]) == .number(55))
        #expect(try value("{Stars}", ["Stars": 4]) == .number(4))
        #expect(try value("{Discount}", ["Discount": 0.5]) == .number(0.5))
        #expect(try value("{No}", ["No": 17]) == .number(17))
        #expect(try value("{Paid}", ["Paid": true]) == .bool(true))
        #expect(try value("{Paid}") == .bool(false))
        #expect(try value("{Size}", ["Size": "大杯"]) == .text("大杯"))
        #expect(try value("{Add Ons}", ["Add Ons": ["珍珠", "波霸"]]) == .array([.text("珍珠"), .text("波霸")]))
        #expect(try value("{Day}", ["Day": "2024-01-02"]) == .date(Date(timeIntervalSince1970: 1_704_153_600)))
        #expect(try value("{Qty}") == .blank)
        #expect(try value("{Add Ons}") == .blank)
    }

    @Test func attachmentsReadAsFileNames() throws {
        let cells: [String: JSONValue] = ["Image": [
            ["id": "att1", "url": "https://example.test/a.png", "filename": "a.png"],
            ["id": "att2", "url": "https://example.test/b.png"],
        ]]
        #expect(try value("{Image}", cells) == .array([.text("a.png"), .text("https://example.test/b.png")]))
        #expect(try value("{Image} & ''", cells) == .text("a.png, https://example.test/b.png"))
        #expect(try FormulaFixture.matches("FIND('a.png', {Image})", cells))
    }

    @Test func multipleSelectsJoinWithCommasInTextContext() throws {
        let cells: [String: JSONValue] = ["Add Ons": ["珍珠", "波霸"]]
        #expect(try FormulaFixture.matches("{Add Ons} = '珍珠, 波霸'", cells))
        #expect(try FormulaFixture.matches("FIND('波霸', {Add Ons}) > 0", cells))
        #expect(try FormulaFixture.matches("{Add Ons} = '珍珠'", ["Add Ons": ["珍珠"]]))
    }

    @Test func numericTextInNumberCellsIsANumber() throws {
        #expect(try value("{Qty} + 1", ["Qty": "2"]) == .number(3))
        #expect(try value("{Name} + 1", ["Name": "2"]) == .number(3))
        #expect(try value("{Name}", ["Name": 5]) == .number(5))
    }

    @Test func computedCellErrorsAndSpecialValues() throws {
        #expect(try value("{Qty}", ["Qty": ["error": "#ERROR!"]]).isError)
        #expect(try !FormulaFixture.matches("{Qty} = 0", ["Qty": ["error": "#ERROR!"]]))
        guard case .number(let n) = try value("{Qty}", ["Qty": ["specialValue": "NaN"]]) else {
            Issue.record("NaN cell is not a number")
            return
        }
        #expect(n.isNaN)
        #expect(try value("{Qty} > 1", ["Qty": ["specialValue": "Infinity"]]) == .bool(true))
    }

    @Test func createdTimeFieldFallsBackToTheRecordsCreationTime() throws {
        #expect(try value("{Created}") == .date(FormulaFixture.created))
        #expect(try value("{Created}", ["Created": "2020-01-01T00:00:00.000Z"]) == .date(Date(timeIntervalSince1970: 1_577_836_800)))
    }

    @Test func valueTextForms() {
        #expect(FormulaValue.number(3).text() == "3")
        #expect(FormulaValue.number(2.5).text() == "2.5")
        #expect(FormulaValue.number(1e21).text() == "1000000000000000000000")
        #expect(FormulaValue.bool(true).text() == "1")
        #expect(FormulaValue.blank.text() == "")
        #expect(FormulaValue.error("x").text() == "#ERROR!")
        #expect(FormulaValue.array([.number(1), .text("a"), .blank]).text() == "1, a, ")
        #expect(FormulaValue.date(Date(timeIntervalSince1970: 0)).text() == "1970-01-01T00:00:00.000Z")
        #expect(FormulaValue.date(Date(timeIntervalSince1970: 0)).text(in: FormulaFixture.taipei)
            == "1970-01-01T08:00:00.000+08:00")
    }

    @Test func arithmeticOnDatesIsAnErrorThatSaysWhatToUse() throws {
        guard case .error(let message) = try value("NOW() + 1") else {
            Issue.record("expected an error")
            return
        }
        #expect(message.contains("DATEADD"))
    }
}
