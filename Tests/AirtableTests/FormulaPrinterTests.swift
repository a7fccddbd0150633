@testable import AirtableFormula
import Foundation
import Testing
@testable import Airtable
import TestSupport

@Suite struct FormulaPrinterTests {
    @Test func quotedEscapesBackslashesThenQuotesAsPyairtableDoes() {
        #expect(Formula.quoted("O'Brien") == #"'O\'Brien'"#)
        #expect(Formula.quoted(#"O'Brien "x" \ y"#) == #"'O\'Brien "x" \\ y'"#)
        #expect(Formula.quoted(#"\'"#) == #"'\\\''"#)
        #expect(Formula.quoted("") == "''")
        #expect(Formula.quoted("珍珠🧋") == "'珍珠🧋'")
    }

    @Test func fieldEscapesClosingBraces() {
        #expect(Formula.field("Drink Name") == "{Drink Name}")
        #expect(Formula.field("a}b") == #"{a\}b}"#)
        #expect(Formula.field(#"a\b"#) == #"{a\b}"#)
        #expect(Formula.field(#"end\"#) == #"{end\\}"#)
        #expect(Formula.field("價格") == "{價格}")
    }

    @Test func aTimeRangeIsWrittenTheOneWayTheEmbeddedStoreAnswersByIndex() {
        let start = Date(timeIntervalSince1970: 1_764_547_200), end = start.addingTimeInterval(86_400)
        let range = FormulaExpression.and(FormulaExpression.inRange(.createdTime, from: start, to: end))
        #expect(range.description == "AND(NOT(IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('2025-12-01T00:00:00.000Z'))), "
            + "IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('2025-12-02T00:00:00.000Z')))")
        #expect(FormulaExpression.notBefore(.field("at"), start).description
            == "NOT(IS_BEFORE({at}, DATETIME_PARSE('2025-12-01T00:00:00.000Z')))")
    }

    @Test func printsPyairtableShapedFormulas() {
        let formula: FormulaExpression = .and([.field("Name") == .text(#"O'Brien "x" \ y"#), .field("Qty") >= 2])
        #expect(formula.description == #"AND({Name}='O\'Brien "x" \\ y', {Qty}>=2)"#)
        #expect(FormulaExpression.or([.recordID == .text("rec1"), .recordID == .text("rec2")]).description
            == "OR(RECORD_ID()='rec1', RECORD_ID()='rec2')")
        #expect(FormulaExpression.not(.field("Paid") == .bool(true)).description == "NOT({Paid}=TRUE())")
        #expect(FormulaExpression.match(["Name": .text("x"), "Age": 21]).description == "AND({Name}='x', {Age}=21)")
        #expect(FormulaExpression.match(["Name": .text("x")]).description == "{Name}='x'")
    }

    @Test func printsOnlyTheParenthesesPrecedenceNeeds() {
        let sum: FormulaExpression = .field("a") + .field("b")
        #expect((sum * 2).description == "({a} + {b}) * 2")
        #expect((.field("a") + .field("b") * 2).description == "{a} + {b} * 2")
        #expect((8 - (3 - .field("x"))).description == "8 - (3 - {x})")
        #expect(((8 - 3) - .field("x")).description == "8 - 3 - {x}")
        #expect((.field("a") & .text(" ") & .field("b") == .text("x y")).description == "{a} & ' ' & {b}='x y'")
        #expect((-(.field("a") + 1)).description == "-({a} + 1)")
        #expect((.field("a") - (-3)).description == "{a} - -3")
        #expect((.field("a") >= -1).description == "{a}>=-1")
    }

    @Test func printsNumbersWithoutExponents() {
        #expect(FormulaExpression.number(2).description == "2")
        #expect(FormulaExpression.number(2.5).description == "2.5")
        #expect(FormulaExpression.number(0.0000001).description == "0.0000001")
        #expect(FormulaExpression.number(1e20).description == "100000000000000000000")
        #expect(FormulaExpression.number(-0.25).description == "-0.25")
        #expect(FormulaExpression.number(.infinity).description == "ERROR()")
    }

    @Test func buildersStillCompareAsValues() {
        let a: FormulaExpression = .field("a") == .text("x")
        let b: FormulaExpression = .field("a") == .text("x")
        let same: Bool = a == b
        #expect(same)
        let other: FormulaExpression = .field("a") == .text("y")
        let different: Bool = a != other
        #expect(different)
        #expect(a != other)
        #expect(Set([a, b]).count == 1)
    }

    @Test func dateBuilderWritesAUTCInstant() throws {
        let date = Date(timeIntervalSince1970: 1_701_434_096)
        let expression = FormulaExpression.field("When") == .date(date)
        #expect(expression.description == "{When}=DATETIME_PARSE('2023-12-01T12:34:56.000Z')")
        #expect(try FormulaFixture.matches(expression.description, ["When": "2023-12-01T12:34:56.000Z"]))
    }

    @Test func builtFormulasMatchUserInputSafely() throws {
        let hostile = #"x') , OR(1, 1) , ('"#
        let formula = (FormulaExpression.field("Name") == .text(hostile)).description
        #expect(try !FormulaFixture.matches(formula, ["Name": "y"]))
        #expect(try FormulaFixture.matches(formula, ["Name": .string(hostile)]))
        let oddField = FormulaFixture.fields[15].name
        let byOddName = (FormulaExpression.field(oddField) == .text("v")).description
        #expect(try FormulaFixture.matches(byOddName, [oddField: "v"]))
    }

    static let roundTripSamples: [String] = [
        "{Name}='Black Tea'",
        #"AND({Name}='O\'Brien "x" \\ y', {Qty}>=2)"#,
        #"{Note} = "say \"hi\" \\ back\slash""#,
        "{珍珠奶茶} & '🧋' & {甜度 (Sugar)}",
        #"{a\}b} = 'c}' & "{d}""#,
        #"{odd\\} != 'end\\'"#,
        "IF({Qty} > 2, 'many', IF({Qty} = 0, 'none', 'few'))",
        "-{a} * -(2 + 3) - -4 / (1 - 2) * 3",
        "1 - (2 - 3) - (4 + 5)",
        "8 / (4 / 2) & 'x' = 'y' & ('z' = 'z')",
        "((1 = 2) = (3 < 4)) >= 0",
        "SWITCH({Size}, 'L', 65, 'M', 55, 0) <= 60.5",
        "OR(RECORD_ID()='recAAAAAAAAAAAAA1', RECORD_ID()=\"recAAAAAAAAAAAAA2\")",
        "DATETIME_DIFF(NOW(), CREATED_TIME(), 'minutes') < 30",
        "FIND('2024-01-02', {When})",
        "'line\nbreak\ttab' = {Notes}",
        "price * quantity",
        "-(-3)",
        "--3",
        "- - {a}",
        "0.1 + 0.0000001 + 123456789012.5",
        "TRUE() != FALSE()",
        "LEN(\"\") = 0",
    ]

    @Test(arguments: roundTripSamples)
    func printedFormulasParseBackToTheSameTree(_ text: String) throws {
        let tree = try Formula.parse(text)
        let printed = tree.description
        #expect(try Formula.parse(printed) == tree, "\(text) printed as \(printed)")
        #expect(try Formula.parse(printed).description == printed)
    }

    @Test func randomTreesRoundTrip() async throws {
        var generator = SplitMix64(seed: 0x5EED)
        for round in 0..<2_000 {
            await Task.yield()  // CPU-bound: every round, let other suites' tasks (live servers' handlers) run
            let tree = RandomFormula.expression(depth: 5, using: &generator)
            let printed = tree.description
            let reparsed = try Formula.parse(printed)
            #expect(reparsed == tree, "\(printed)")
            if reparsed != tree { break }
        }
    }
}

/// Random trees, written only with what the parser produces (upper-case names, folded negative literals).
enum RandomFormula {
    static let alphabet = Array(#"ab Z'"\{}}\\n珍🧋é,()=&-"#).map(String.init) + ["\n", "\t", "\\}", "}\\"]

    static func text(using generator: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" }
            .joined()
    }

    static func expression(depth: Int, using generator: inout SplitMix64) -> FormulaExpression {
        let choice = Int.random(in: 0..<(depth > 0 ? 7 : 3), using: &generator)
        switch choice {
        case 0:
            let value = Double(Int.random(in: -1000...1000, using: &generator)) / [1, 10, 1000][Int.random(in: 0..<3, using: &generator)]
            return .number(value)
        case 1: return .text(text(using: &generator))
        case 2:
            var name = text(using: &generator)
            if name.isEmpty { name = "x" }
            return .field(name)
        case 3:
            let operand = expression(depth: depth - 1, using: &generator)
            return .unary(.negate, operand)
        case 4, 5:
            let op = FormulaBinaryOperator.allCases.randomElement(using: &generator) ?? .add
            return .binary(op, expression(depth: depth - 1, using: &generator), expression(depth: depth - 1, using: &generator))
        default:
            let name = ["AND", "IF", "FIND", "TRUE", "CONCATENATE"].randomElement(using: &generator) ?? "AND"
            let count = Int.random(in: 0...3, using: &generator)
            return .call(name, (0..<count).map { _ in expression(depth: depth - 1, using: &generator) })
        }
    }
}

