@testable import AirtableFormula
import Foundation
import Testing
@testable import Airtable

@Suite struct FormulaEvaluationTests {
    private func value(_ formula: String, _ cells: [String: JSONValue] = [:]) throws -> FormulaValue {
        try FormulaFixture.evaluate(formula, cells)
    }

    @Test func arithmeticFollowsPrecedence() throws {
        #expect(try value("1 + 2 * 3") == .number(7))
        #expect(try value("(1 + 2) * 3") == .number(9))
        #expect(try value("8 - 3 - 2") == .number(3))
        #expect(try value("-{Qty} * 2", ["Qty": 4]) == .number(-8))
        #expect(try value("{Qty} * {Price}", ["Qty": 2, "Price": 55]) == .number(110))
        #expect(try value("7 / 2") == .number(3.5))
    }

    @Test func divisionByZeroGivesInfinityOrNaNWhichFiltersDrop() throws {
        #expect(try value("1 / 0") == .number(.infinity))
        guard case .number(let n) = try value("0 / 0") else { Issue.record("not a number"); return }
        #expect(n.isNaN)
        #expect(try FormulaFixture.matches("0 / 0") == false)
        #expect(try FormulaFixture.matches("1 / 0") == true)
    }

    @Test func comparisonsGiveBooleansThatCountAsOneAndZero() throws {
        #expect(try value("{Qty} > 2", ["Qty": 3]) == .bool(true))
        #expect(try value("({Qty} > 2) + 1", ["Qty": 3]) == .number(2))
        #expect(try value("({Qty} > 2) & ''", ["Qty": 1]) == .text("0"))
        #expect(try value("2 <= 2") == .bool(true))
        #expect(try value("2 != 2") == .bool(false))
        #expect(try value("2 <> 3") == .bool(true))
    }

    @Test func concatenationJoinsTextWithNumbersAndLists() throws {
        #expect(try value("{Name} & ' x' & {Qty}", ["Name": "紅茶", "Qty": 2]) == .text("紅茶 x2"))
        #expect(try value("'#' & {Add Ons}", ["Add Ons": ["珍珠", "波霸"]]) == .text("#珍珠, 波霸"))
        #expect(try value("{Price} & ''", ["Price": 2.5]) == .text("2.5"))
        #expect(try value("{Name} & ''") == .text(""))
    }

    @Test func textEqualityIsCaseSensitive() throws {
        #expect(try FormulaFixture.matches("{Name} = 'Black Tea'", ["Name": "Black Tea"]))
        #expect(try !FormulaFixture.matches("{Name} = 'black tea'", ["Name": "Black Tea"]))
        #expect(try FormulaFixture.matches("LOWER({Name}) = 'black tea'", ["Name": "Black Tea"]))
        // The same letter written as one code point or as e + combining accent is different text.
        #expect(try !FormulaFixture.matches("{Name} = 'caf\u{E9}'", ["Name": "cafe\u{301}"]))
        #expect(try FormulaFixture.matches("{Name} = 'caf\u{E9}'", ["Name": "caf\u{E9}"]))
        #expect(try FormulaFixture.matches("'Z' < 'a'"))
        #expect(try FormulaFixture.matches("'紅茶' > '奶茶'"))
        #expect(try FormulaFixture.matches("'ab' < 'abc'"))
    }

    @Test func blankEqualsEmptyTextZeroAndFalse() throws {
        #expect(try FormulaFixture.matches("{Name} = ''"))
        #expect(try FormulaFixture.matches("{Name} = BLANK()"))
        #expect(try FormulaFixture.matches("{Qty} = 0"))
        #expect(try FormulaFixture.matches("{Qty} = BLANK()"))
        #expect(try FormulaFixture.matches("{Qty} < 1"))
        #expect(try !FormulaFixture.matches("{Name} = ''", ["Name": "x"]))
        #expect(try FormulaFixture.matches("NOT({Name} = '')", ["Name": "x"]))
    }

    @Test func checkboxIsTrueOrFalseAndMissingIsFalse() throws {
        #expect(try FormulaFixture.matches("{Paid} = TRUE()", ["Paid": true]))
        #expect(try FormulaFixture.matches("{Paid} = 1", ["Paid": true]))
        #expect(try FormulaFixture.matches("{Paid} = FALSE()"))
        #expect(try FormulaFixture.matches("{Paid} = 0"))
        #expect(try !FormulaFixture.matches("{Paid}"))
        #expect(try FormulaFixture.matches("{Paid}", ["Paid": true]))
        #expect(try !FormulaFixture.matches("{Paid} = 'true'", ["Paid": true]))
    }

    @Test func numbersCompareWithNumericText() throws {
        #expect(try FormulaFixture.matches("{Qty} = '2'", ["Qty": 2]))
        #expect(try FormulaFixture.matches("{Qty} < '10'", ["Qty": 9]))
        #expect(try FormulaFixture.matches("{Name} = 2", ["Name": " 2 "]))
        #expect(try !FormulaFixture.matches("{Qty} = 'two'", ["Qty": 2]))
        #expect(try FormulaFixture.matches("{Qty} != 'two'", ["Qty": 2]))
        // Text against text stays text, even when both look numeric.
        #expect(try !FormulaFixture.matches("'10' = '10.0'"))
        #expect(try FormulaFixture.matches("'b' > 'a'"))
    }

    @Test func errorsPropagateAndAreDroppedByFilters() throws {
        #expect(try value("ERROR()").isError)
        #expect(try value("ERROR() + 1").isError)
        #expect(try value("'x' & ERROR()").isError)
        #expect(try value("ERROR() = 1").isError)
        #expect(try value("AND(1, ERROR())").isError)
        #expect(try value("'abc' * 2").isError)
        #expect(try !FormulaFixture.matches("ERROR()"))
        #expect(try !FormulaFixture.matches("NOT(ERROR())"))
        #expect(try value("ISERROR(ERROR())") == .bool(true))
        #expect(try value("ISERROR('abc' * 2)") == .bool(true))
        #expect(try value("ISERROR(1)") == .bool(false))
        #expect(try value("IF(1, 'ok', ERROR())") == .text("ok"))
    }

    @Test(arguments: [
        ("0", false), ("1", true), ("-1", true), ("''", false), ("'0'", true), ("' '", true),
        ("FALSE()", false), ("TRUE()", true), ("BLANK()", false), ("{Name}", false), ("{Add Ons}", false),
        ("ERROR()", false), ("0/0", false), ("NOW()", true), ("ARRAYCOMPACT('')", false), ("'false'", true),
    ])
    func filterTruthiness(formula: String, kept: Bool) throws {
        #expect(try FormulaFixture.matches(formula) == kept, "\(formula)")
    }
}
