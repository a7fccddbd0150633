@testable import AirtableFormula
import Foundation
import Testing
@testable import Airtable

@Suite struct FormulaFunctionTests {
    private func value(_ formula: String, _ cells: [String: JSONValue] = [:]) throws -> FormulaValue {
        try FormulaFixture.evaluate(formula, cells)
    }

    @Test(arguments: [
        // Logic
        ("AND(1, 'x', TRUE())", FormulaValue.bool(true)),
        ("AND(1, '')", .bool(false)),
        ("OR(0, '', 'x')", .bool(true)),
        ("OR(0, FALSE())", .bool(false)),
        ("NOT(0)", .bool(true)),
        ("NOT('x')", .bool(false)),
        ("XOR(1, 1, 1)", .bool(true)),
        ("XOR(1, 1)", .bool(false)),
        ("IF(2 > 1, 'yes', 'no')", .text("yes")),
        ("IF('', 'yes', 'no')", .text("no")),
        ("IF(0, 'yes')", .blank),
        ("SWITCH('M', 'L', 65, 'M', 55, 0)", .number(55)),
        ("SWITCH('XL', 'L', 65, 'M', 55, 0)", .number(0)),
        ("SWITCH('XL', 'L', 65, 'M', 55)", .blank),
        ("SWITCH(2, '2', 'two')", .text("two")),
        ("TRUE()", .bool(true)),
        ("FALSE()", .bool(false)),
        ("BLANK()", .blank),
        // Text
        ("FIND('fox', 'quick brown fox')", .number(13)),
        ("FIND('x', 'abc')", .number(0)),
        ("FIND('a', 'banana', 3)", .number(4)),
        ("FIND('Fox', 'quick brown fox')", .number(0)),
        ("FIND('奶茶', '珍珠🧋奶茶')", .number(4)),
        ("SEARCH('fox', 'quick brown fox')", .number(13)),
        ("SEARCH('x', 'abc')", .blank),
        ("LOWER('Black TEA')", .text("black tea")),
        ("UPPER('Black tea')", .text("BLACK TEA")),
        ("LEN('珍珠🧋')", .number(3)),
        ("LEN('')", .number(0)),
        ("TRIM('  a b \n')", .text("a b")),
        ("LEFT('熟成紅茶', 2)", .text("熟成")),
        ("LEFT('ab', 5)", .text("ab")),
        ("RIGHT('熟成紅茶', 2)", .text("紅茶")),
        ("MID('熟成紅茶拿鐵', 3, 2)", .text("紅茶")),
        ("MID('abc', 3, 10)", .text("c")),
        ("MID('abc', 9, 1)", .text("")),
        ("SUBSTITUTE('a-b-c', '-', '+')", .text("a+b+c")),
        ("SUBSTITUTE('a-b-c', '-', '+', 2)", .text("a-b+c")),
        ("SUBSTITUTE('a-b-c', '-', '+', 5)", .text("a-b-c")),
        ("SUBSTITUTE('aaa', 'aa', 'b')", .text("ba")),
        ("SUBSTITUTE('abc', '', 'x')", .text("abc")),
        ("REPLACE('熟成紅茶', 3, 2, '奶茶')", .text("熟成奶茶")),
        ("REPLACE('abc', 2, 0, 'X')", .text("aXbc")),
        ("CONCATENATE('a', 1, TRUE(), BLANK(), 'z')", .text("a11z")),
        ("REPT('ab', 3)", .text("ababab")),
        ("REPT('ab', 0)", .text("")),
        ("T('x')", .text("x")),
        ("T(1)", .blank),
        ("VALUE('42')", .number(42)),
        ("VALUE(' -2.5 ')", .number(-2.5)),
        ("VALUE('$1,000')", .number(1000)),
        ("VALUE('50%')", .number(0.5)),
        ("REGEX_MATCH('Order 42', '\\d+')", .bool(true)),
        ("REGEX_MATCH('Order', '^\\d+$')", .bool(false)),
        ("REGEX_MATCH('珍珠奶茶', '珍珠.*')", .bool(true)),
        // Numbers
        ("ABS(-3.5)", .number(3.5)),
        ("ROUND(2.5)", .number(3)),
        ("ROUND(-2.5)", .number(-3)),
        ("ROUND(3.14159, 2)", .number(3.14)),
        ("ROUND(1234, -2)", .number(1200)),
        ("ROUNDUP(2.3, 1)", .number(2.3)),
        ("ROUNDUP(2.31, 1)", .number(2.4)),
        ("ROUNDUP(-2.31, 1)", .number(-2.4)),
        ("ROUNDDOWN(2.39, 1)", .number(2.3)),
        ("ROUNDDOWN(-2.39)", .number(-2)),
        ("CEILING(2.1)", .number(3)),
        ("CEILING(21, 5)", .number(25)),
        ("FLOOR(2.9)", .number(2)),
        ("FLOOR(24, 5)", .number(20)),
        ("INT(-2.5)", .number(-3)),
        ("INT(2.9)", .number(2)),
        ("MOD(7, 3)", .number(1)),
        ("MOD(-7, 3)", .number(-1)),
        ("POWER(2, 10)", .number(1024)),
        ("SQRT(16)", .number(4)),
        ("MIN(3, 1, 2)", .number(1)),
        ("MAX(3, '7', 2)", .number(7)),
        ("SUM(1, 2, 3.5)", .number(6.5)),
        ("SUM(1, BLANK(), 'x')", .number(1)),
        ("AVERAGE(1, 2, 6)", .number(3)),
        ("COUNT(1, 'a', 2, BLANK())", .number(2)),
        ("COUNTA(1, 'a', '', BLANK())", .number(2)),
        ("COUNTALL(1, 'a', '', BLANK())", .number(4)),
        ("EXP(0)", .number(1)),
        ("LOG(1000)", .number(3)),
        ("LOG(8, 2)", .number(3)),
        ("EVEN(1.5)", .number(2)),
        ("EVEN(3)", .number(4)),
        ("EVEN(-1)", .number(-2)),
        ("EVEN(0)", .number(0)),
        ("ODD(1.5)", .number(3)),
        ("ODD(2)", .number(3)),
        ("ODD(0)", .number(1)),
        ("ODD(-2)", .number(-3)),
        // Patterns
        ("REGEX_EXTRACT('Order 42 of 99', '\\d+')", .text("42")),
        ("REGEX_REPLACE('Order 42 of 99', '\\d+', '#')", .text("Order # of #")),
        ("REGEX_REPLACE('珍珠奶茶', '(珍珠)(奶茶)', '$2$1')", .text("奶茶珍珠")),
        ("REGEX_REPLACE('🧋a🧋', 'a', 'b')", .text("🧋b🧋")),
        ("ENCODE_URL_COMPONENT('a b&c=紅茶/(x)')", .text("a%20b%26c%3D%E7%B4%85%E8%8C%B6%2F(x)")),
        // Arrays
        ("ARRAYJOIN(ARRAYCOMPACT('a'))", .text("a")),
        ("ARRAYJOIN(ARRAYFLATTEN('a'), '-')", .text("a")),
    ])
    func computes(formula: String, expected: FormulaValue) throws {
        #expect(try value(formula) == expected, "\(formula)")
    }

    @Test func impossibleArithmeticGivesNaN() throws {
        for formula in ["MOD(1, 0)", "SQRT(-1)"] {
            guard case .number(let n) = try value(formula) else { Issue.record("\(formula) is not a number"); continue }
            #expect(n.isNaN, "\(formula)")
        }
    }

    @Test(arguments: [
        "LEFT('abc', -1)", "MID('abc', 0, 1)", "REPLACE('abc', 0, 1, 'x')", "REPT('x', -1)", "VALUE('tea')",
        "AVERAGE('x')", "REGEX_MATCH('a', {Name} & '(')", "WEEKDAY(NOW(), 'Friday')", "ROUND('x')",
        "SUBSTITUTE('a', 'a', 'b', 0)", "LOWER(ERROR())", "SUM(1, ERROR())", "REGEX_EXTRACT('abc', '\\d')",
        "REGEX_REPLACE('a', {Name} & '[', 'b')",
    ])
    func refusesBadArgumentsWithAnErrorValue(formula: String) throws {
        let result = try value(formula)
        #expect(result.isError, "\(formula) gave \(result)")
    }

    @Test func errorValuesSayWhatWentWrong() throws {
        #expect(try value("VALUE('tea')") == .error("VALUE cannot read a number from 'tea'"))
        #expect(try value("{Name} * 2", ["Name": "珍珠"]) == .error("'珍珠' is not a number"))
        #expect(try value("MID('abc', 0, 1)") == .error("MID's start position must be 1 or more, not 0"))
    }

    @Test func arrayFunctionsWorkOnMultipleSelects() throws {
        let cells: [String: JSONValue] = ["Add Ons": ["珍珠", "", "波霸", "珍珠"]]
        #expect(try value("ARRAYJOIN({Add Ons})", cells) == .text("珍珠, , 波霸, 珍珠"))
        #expect(try value("ARRAYJOIN({Add Ons}, '|')", cells) == .text("珍珠||波霸|珍珠"))
        #expect(try value("ARRAYCOMPACT({Add Ons})", cells) == .array([.text("珍珠"), .text("波霸"), .text("珍珠")]))
        #expect(try value("ARRAYUNIQUE({Add Ons})", cells) == .array([.text("珍珠"), .blank, .text("波霸")]))
        #expect(try value("ARRAYJOIN(ARRAYUNIQUE(ARRAYCOMPACT({Add Ons})), ' + ')", cells) == .text("珍珠 + 波霸"))
        #expect(try value("ARRAYJOIN({Add Ons})") == .text(""))
        #expect(try value("COUNTALL({Add Ons})", cells) == .number(4))
        #expect(try value("COUNTA({Add Ons})", cells) == .number(3))
    }

    @Test func numberFunctionsOpenUpLists() throws {
        let fields = [FieldSchema(id: "fldList", name: "Prices", type: .multipleSelects)]
        let formula = try CompiledFormula("SUM({Prices}) & '/' & MAX({Prices}) & '/' & AVERAGE({Prices})", fields: fields)
        let record = FormulaRecord(id: "rec1", createdTime: FormulaFixture.created, cells: ["fldList": ["10", "20", "x"]],
                                   now: FormulaFixture.now)
        #expect(formula.evaluate(record) == .text("30/20/15"))
    }

    @Test func findWithHostileTextStaysLinear() throws {
        let formula = "FIND(REPT('a', 20000) & 'b', REPT('a', 2000000))"
        #expect(try value(formula) == .number(0))
        #expect(try value("SEARCH(REPT('a', 3) & 'b', REPT('a', 10) & 'b')") == .number(8))
    }

    @Test func textFunctionsReadFieldValuesAsText() throws {
        #expect(try value("LEN({Qty})", ["Qty": 1234]) == .number(4))
        #expect(try value("UPPER({Size})", ["Size": "large"]) == .text("LARGE"))
        #expect(try value("FIND('波霸', {Add Ons})", ["Add Ons": ["珍珠", "波霸"]]) == .number(5))
        #expect(try value("LEFT({Name}, 1) = '白'", ["Name": "白玉歐蕾"]) == .bool(true))
        #expect(try value("T({Name})", ["Name": "a"]) == .text("a"))
        #expect(try value("T({Qty})", ["Qty": 1]) == .blank)
    }
}
