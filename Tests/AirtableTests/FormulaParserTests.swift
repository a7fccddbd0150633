@testable import AirtableFormula
import Testing
@testable import Airtable

@Suite struct FormulaParserTests {
    private func parse(_ text: String) throws -> FormulaExpression { try Formula.parse(text) }

    private func parseError(_ text: String) -> FormulaError? {
        do {
            _ = try Formula.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsFieldReferencesBracedBareAndByID() throws {
        #expect(try parse("{Drink Name}") == .field("Drink Name"))
        #expect(try parse("price") == .field("price"))
        #expect(try parse("{fldAbCdEfGhIjKlMn}") == .field("fldAbCdEfGhIjKlMn"))
        #expect(try parse("{價格}") == .field("價格"))
        #expect(try parse("甜度") == .field("甜度"))
    }

    @Test func readsStringsInEitherQuoteWithBackslashEscapes() throws {
        #expect(try parse(#"'O\'Brien'"#) == .text("O'Brien"))
        #expect(try parse(#""say \"hi\"""#) == .text(#"say "hi""#))
        #expect(try parse(#"'a\\b'"#) == .text(#"a\b"#))
        #expect(try parse(#"'line\nnext\ttab'"#) == .text("line\nnext\ttab"))
        #expect(try parse(#""it's""#) == .text("it's"))
        #expect(try parse(#"'\d+'"#) == .text(#"\d+"#))
        #expect(try parse("'珍珠🧋'") == .text("珍珠🧋"))
        #expect(try parse("''") == .text(""))
    }

    @Test func readsNumbers() throws {
        #expect(try parse("42") == .number(42))
        #expect(try parse("2.5") == .number(2.5))
        #expect(try parse(".5") == .number(0.5))
        #expect(try parse("-3") == .number(-3))
        #expect(try parse("1e3") == .number(1000))
    }

    @Test func functionNamesAreCaseInsensitive() throws {
        #expect(try parse("and(1, true())") == .call("AND", [.number(1), .call("TRUE", [])]))
        #expect(try parse("Find ( 'a' , {b} )") == .call("FIND", [.text("a"), .field("b")]))
    }

    @Test func appliesAirtablePrecedence() throws {
        // comparison < & < + - < * / < unary minus
        #expect(try parse("1 + 2 * 3") == .binary(.add, 1, .binary(.multiply, 2, 3)))
        #expect(try parse("{a} & 1 + 2") == .binary(.concatenate, .field("a"), .binary(.add, 1, 2)))
        #expect(try parse("{a} & 'x' = 'yx'")
            == .binary(.equal, .binary(.concatenate, .field("a"), .text("x")), .text("yx")))
        #expect(try parse("(1 + 2) * 3") == .binary(.multiply, .binary(.add, 1, 2), 3))
        #expect(try parse("-{a} * 2") == .binary(.multiply, .unary(.negate, .field("a")), 2))
        #expect(try parse("8 - 3 - 2") == .binary(.subtract, .binary(.subtract, 8, 3), 2))
        #expect(try parse("8 / 4 / 2") == .binary(.divide, .binary(.divide, 8, 4), 2))
    }

    @Test func readsEveryComparisonOperator() throws {
        let expected: [(String, FormulaBinaryOperator)] = [
            ("=", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<", .less), (">", .greater),
            ("<=", .lessOrEqual), (">=", .greaterOrEqual),
        ]
        for (symbol, op) in expected {
            #expect(try parse("{a}\(symbol)1") == .binary(op, .field("a"), 1), "operator \(symbol)")
        }
    }

    @Test func escapedBracesInFieldNames() throws {
        #expect(try parse(#"{a\}b}"#) == .field("a}b"))
        #expect(try parse(#"{a\b}"#) == .field(#"a\b"#))
        #expect(try parse(#"{end\\}"#) == .field(#"end\"#))
    }

    @Test func allowsWhitespaceAndNewlines() throws {
        let text = "IF(\n  {Qty} > 2,\n\t'many',\n  'few'\n)"
        #expect(try parse(text) == .call("IF", [.binary(.greater, .field("Qty"), 2), .text("many"), .text("few")]))
    }

    @Test(arguments: [
        ("", "empty", 1),
        ("{Name", "never closed", 1),
        ("'abc", "never closed", 1),
        ("AND(1, 2", "never closed", 9),
        ("(1 + 2", "never closed", 7),
        ("1 +", "ends where a value is expected", 4),
        ("{Qty} ) ", "no '(' to close", 7),
        ("{a} {b}", "expected an operator", 5),
        ("AND(1,,2)", "argument 2 of AND is missing", 7),
        ("AND(1,)", "argument 2 of AND is missing", 7),
        ("{}", "empty", 1),
        ("{a} == 1", "'=='", 5),
        ("{a} && {b}", "AND(a, b)", 5),
        ("{a} || {b}", "OR(a, b)", 5),
        ("!{a}", "NOT", 1),
        ("{Name} = ‘x’", "curly quote", 10),
        ("2nd", "runs into", 2),
        ("a } b", "'}'", 3),
        ("{a} # 1", "unexpected character '#'", 5),
        ("珍珠 = @", "unexpected character '@'", 6),
        ("'🧋' = ", "ends where a value is expected", 7),
        ("AND（{a}, 1)", "did you mean '('?", 4),
        ("{Name} = 'x' and {Qty} > 1", "logic is written as a function: AND(a, b)", 14),
    ])
    func reportsWhatAndWhere(text: String, fragment: String, position: Int) throws {
        let error = try #require(parseError(text), "expected \(text) to be refused")
        #expect(error.message.contains(fragment), "\(error.message)")
        #expect(error.position == position, "\(error.message)")
        #expect(error.message.hasPrefix("Invalid formula: "))
    }

    @Test func messageNamesThePositionInCharactersNotBytes() throws {
        let error = try #require(parseError("{珍珠奶茶} = 'a' 'b'"))
        #expect(error.position == 14)
        #expect(error.message.contains("character 14"))
    }

    @Test func refusesDeepNestingWithoutCrashing() throws {
        let deep = String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000)
        let error = try #require(parseError(deep))
        #expect(error.message.contains("nests too deeply"))
        let calls = String(repeating: "NOT(", count: 50_000) + "1" + String(repeating: ")", count: 50_000)
        #expect(parseError(calls)?.message.contains("nests too deeply") == true)
        let minuses = String(repeating: "-", count: 100_000) + "{a}"
        #expect(parseError(minuses)?.message.contains("nests too deeply") == true)
        let chain = Array(repeating: "{a}", count: 100_000).joined(separator: " & ")
        #expect(parseError(chain)?.message.contains("nests too deeply") == true)
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let depth = Formula.maximumDepth / 2
        let nested = String(repeating: "NOT(", count: depth) + "1" + String(repeating: ")", count: depth)
        #expect(parseError(nested) == nil)
        let terms = Array(repeating: "RECORD_ID()='rec00000000000001'", count: 5_000).joined(separator: ", ")
        #expect(parseError("OR(\(terms))") == nil)
    }

    @Test func refusesFormulasOverTheLengthLimit() throws {
        let huge = "'" + String(repeating: "x", count: Formula.maximumLength) + "'"
        #expect(parseError(huge)?.message.contains("the limit is") == true)
        let big = "'" + String(repeating: "珍", count: 200_000) + "'"
        #expect(try parse(big) == .text(String(repeating: "珍", count: 200_000)))
    }
}
