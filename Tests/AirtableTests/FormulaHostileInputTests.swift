@testable import AirtableFormula
import Foundation
import Testing
import TestSupport
@testable import Airtable

/// Formulas arrive from the network (filterByFormula): none may crash, hang or exhaust memory.
@Suite struct FormulaHostileInputTests {
    /// Trees as deep as the parser allows, in every shape, evaluated (and compared and freed) on the
    /// cooperative pool's smaller stacks.
    @Test func deepestAcceptedFormulasEvaluate() async throws {
        let depth = Formula.maximumDepth - 2
        let shapes = [
            String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth),
            String(repeating: "NOT(", count: depth) + "0" + String(repeating: ")", count: depth),
            String(repeating: "-", count: depth) + "1",
            Array(repeating: "1", count: depth).joined(separator: " + "),
            String(repeating: "1 + (", count: depth / 2) + "1" + String(repeating: ")", count: depth / 2),
            String(repeating: "IF(1, ", count: depth) + "'x'" + String(repeating: ", 0)", count: depth),
        ]
        for text in shapes {
            let compiled = try CompiledFormula(text, fields: [])
            let record = FormulaFixture.record()
            let result = await Task.detached { compiled.evaluate(record) }.value
            #expect(!result.isError, "\(text.prefix(30))…")
            #expect(try Formula.parse(compiled.expression.description) == compiled.expression)
        }
    }

    @Test func runawayTextIsAnErrorNotAnOutOfMemory() throws {
        #expect(try FormulaFixture.evaluate("REPT('x', 1000000000000)").isError)
        #expect(try FormulaFixture.evaluate("REPT(REPT('abcdefghij', 100000), 100000)").isError)
        #expect(try FormulaFixture.evaluate("SUBSTITUTE(REPT('x', 1000000), 'x', REPT('y', 1000))").isError)
        #expect(try FormulaFixture.evaluate("LEN(REPT('x', 1000000))") == .number(1_000_000))
        #expect(try FormulaFixture.evaluate("REPT('', 1000000000000)") == .text(""))
    }

    /// Patterns that take a backtracking engine (ICU, as NSRegularExpression was) exponential time answer at
    /// once: the machine is linear in the text.
    @Test func catastrophicRegexAnswersAtOnce() throws {
        let clock = ContinuousClock()
        let started = clock.now
        #expect(try FormulaFixture.evaluate("REGEX_MATCH(REPT('a', 40), '(a+)+b')") == .bool(false))
        #expect(try FormulaFixture.evaluate("REGEX_MATCH(REPT('a', 40) & 'b', '(a+)+b')") == .bool(true))
        #expect(try FormulaFixture.evaluate("REGEX_MATCH(REPT('ab', 100000) & 'c', 'c$')") == .bool(true))
        #expect(try FormulaFixture.evaluate("REGEX_MATCH(REPT('a note ', 200), '(.+)+$$x')") == .bool(false))
        #expect(try FormulaFixture.evaluate("REGEX_MATCH(REPT('x', 5000), '(x*)*y')") == .bool(false))
        #expect(clock.now - started < .seconds(5))
    }

    /// What one evaluation may spend is bounded too: a large pattern over a long text gives up.
    @Test func regexWorkBeyondTheBudgetGivesUp() throws {
        let result = try FormulaFixture.evaluate("REGEX_MATCH(REPT('a', 200000), '(a|aa){500}b')")
        #expect(result == .error("REGEX_MATCH gave up: the pattern takes too long on this text"))
        let budget = FormulaBudget(steps: 1_000)
        let compiled = try CompiledFormula("REGEX_MATCH(REPT('ab', 1000), 'b$')", fields: [])
        #expect(compiled.evaluate(FormulaFixture.record(), budget: budget).isError)
        #expect(budget.isSpent)
        // Once spent, it stays spent: a second record is not given a fresh allowance.
        let short = try CompiledFormula("REGEX_MATCH('ab', 'b')", fields: [])
        #expect(short.evaluate(FormulaFixture.record(), budget: budget).isError)
    }

    @Test func hugeStringsAndNamesParseAndEvaluate() throws {
        let big = String(repeating: "珍珠🧋'\\", count: 50_000)
        let formula = (FormulaExpression.field("Name") == .text(big)).description
        #expect(try FormulaFixture.matches(formula, ["Name": .string(big)]))
        let bigName = String(repeating: "}{", count: 10_000)
        #expect(try Formula.parse(Formula.field(bigName)) == .field(bigName))
    }

    @Test func extremeNumbersDoNotTrap() throws {
        #expect(try FormulaFixture.evaluate("ROUND(1e300, -400)").isError == false)
        #expect(try FormulaFixture.evaluate("LEFT('abc', 1e300)") == .text("abc"))
        #expect(try FormulaFixture.evaluate("DATEADD(NOW(), 1e300, 'years')").isError == false)
        #expect(try FormulaFixture.evaluate("DATEADD(NOW(), 1e300, 'ms')").isError == false)
        #expect(try FormulaFixture.evaluate("DATETIME_FORMAT(DATEADD(NOW(), 1e15, 'days'), 'YYYY')").isError == false)
        #expect(try FormulaFixture.evaluate("YEAR(DATETIME_PARSE('99999999999999', 'x'))").isError == false)
        #expect(throws: FormulaError.self) { try Formula.parse("1" + String(repeating: "0", count: 400)) }
    }

    @Test func randomTextNeverCrashesTheParser() async {
        var generator = SplitMix64(seed: 42)
        let pieces = ["{", "}", "(", ")", "'", "\"", "\\", ",", "=", "!", "<", ">", "&", "+", "-", "*", "/", "1", ".",
                      "e", "AND", "IF", "{a}", " ", "\n", "珍", "🧋", "‘", "#", "|", "NOT(", "x"]
        var accepted = 0
        for round in 0..<5_000 {
            await Task.yield()  // CPU-bound: every round, let other suites' tasks (live servers' handlers) run
            let text = (0..<Int.random(in: 0...20, using: &generator))
                .map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            do {
                let tree = try Formula.parse(text)
                accepted += 1
                #expect(try Formula.parse(tree.description) == tree, "\(text)")
            } catch {
                #expect(error.message.hasPrefix("Invalid formula: "), "\(text)")
                #expect(error.position != nil, "\(text): \(error.message)")
            }
        }
        #expect(accepted > 0)
    }

    @Test func mutatedValidFormulasNeverCrashCompilingOrEvaluating() async throws {
        var generator = SplitMix64(seed: 7)
        let seeds = FormulaPrinterTests.roundTripSamples + [
            "DATETIME_FORMAT(DATEADD({When}, {Qty}, 'days'), 'LL')", "ARRAYJOIN(ARRAYUNIQUE({Add Ons}), {Name})",
            "REGEX_MATCH({Name}, {Notes})", "SUBSTITUTE({Name}, {Notes}, REPT({Name}, {Qty}))",
        ]
        let record = FormulaFixture.record(["Name": "珍珠", "Qty": 3, "When": "2024-01-02T00:00:00Z", "Notes": "(",
                                            "Add Ons": ["a", "a"]])
        for round in 0..<3_000 {
            await Task.yield()  // CPU-bound: every round, let other suites' tasks (live servers' handlers) run
            var scalars = Array((seeds.randomElement(using: &generator) ?? "").unicodeScalars)
            for _ in 0..<Int.random(in: 1...3, using: &generator) where !scalars.isEmpty {
                let index = Int.random(in: 0..<scalars.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: scalars.remove(at: index)
                case 1: scalars.insert(scalars[Int.random(in: 0..<scalars.count, using: &generator)], at: index)
                default: scalars.swapAt(index, Int.random(in: 0..<scalars.count, using: &generator))
                }
            }
            let text = String(String.UnicodeScalarView(scalars))
            guard let compiled = try? CompiledFormula(text, fields: FormulaFixture.fields) else { continue }
            _ = compiled.evaluate(record)
        }
    }
}
