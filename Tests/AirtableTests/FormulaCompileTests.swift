@testable import AirtableFormula
import Foundation
import Testing
@testable import Airtable

@Suite struct FormulaCompileTests {
    @Test func resolvesFieldsByNameOrIDAndListsThem() throws {
        let compiled = try CompiledFormula("AND({Name} = 'x', {fldQty000000000001} > 1, Price)", fields: FormulaFixture.fields)
        #expect(compiled.referencedFieldIDs == ["fldName00000000001", "fldQty000000000001", "fldPrice0000000001"])
        let record = FormulaFixture.record(["Name": "x", "Qty": 2, "Price": 55])
        #expect(compiled.matches(record))
    }

    @Test func fieldNamesAreCaseSensitive() {
        #expect(FormulaFixture.compileError("{name} = 'x'")?.message == "Unknown field names: name")
        #expect(FormulaFixture.compileError("{Name} = 'x'") == nil)
    }

    @Test func unknownFieldsAreListedOnceLowercasedInOrder() {
        let error = FormulaFixture.compileError("AND({Colour} = 'red', {Qty} > 1, {Colour} = 'blue', Flavour = '', {大杯})")
        #expect(error?.message == "Unknown field names: colour, flavour, 大杯")
    }

    @Test func unknownAndUnsupportedFunctionsAreNamed() {
        #expect(FormulaFixture.compileError("FROB({Name})")?.message == "Invalid formula: unknown function FROB")
        #expect(FormulaFixture.compileError("frob(1)")?.message == "Invalid formula: unknown function FROB")
        #expect(FormulaFixture.compileError("WORKDAY({Day}, 3)")?.message
            == "Invalid formula: the function WORKDAY is not supported here")
    }

    @Test(arguments: [
        ("NOT(1, 2)", "NOT takes exactly 1 argument, but was given 2"),
        ("IF(1)", "IF takes 2 or 3 arguments, but was given 1"),
        ("AND()", "AND takes at least 1 argument, but was given 0"),
        ("TRUE(1)", "TRUE takes no arguments, but was given 1"),
        ("MID('a', 1)", "MID takes exactly 3 arguments, but was given 2"),
        ("DATETIME_PARSE()", "DATETIME_PARSE takes 1 to 3 arguments, but was given 0"),
        ("SWITCH(1, 2)", "SWITCH takes at least 3 arguments, but was given 2"),
    ])
    func wrongArgumentCountsAreRefused(formula: String, message: String) {
        #expect(FormulaFixture.compileError(formula)?.message == "Invalid formula: " + message)
    }

    @Test func invalidConstantRegexIsRefusedWhenCompiling() {
        let message = FormulaFixture.compileError("REGEX_MATCH({Name}, '(')")?.message
        #expect(message == "Invalid formula: REGEX_MATCH: '(' is not a valid regular expression (missing ))")
        #expect(FormulaFixture.compileError("REGEX_REPLACE({Name}, '[a', '')")?.message
            == "Invalid formula: REGEX_REPLACE: '[a' is not a valid regular expression (missing ])")
    }

    @Test func syntaxErrorsPassThroughWithTheirPosition() {
        let error = FormulaFixture.compileError("{Name} = 'x' AND {Qty}")
        #expect(error?.position == 14)
        #expect(error?.message.contains("character 14") == true)
    }

    @Test func everyListedFunctionIsKnown() {
        let names = """
            AND OR NOT XOR IF SWITCH ISERROR ERROR FIND SEARCH LOWER UPPER LEN TRIM LEFT RIGHT MID SUBSTITUTE REPLACE \
            CONCATENATE REPT T VALUE ABS ROUND ROUNDUP ROUNDDOWN CEILING FLOOR INT MOD POWER SQRT MIN MAX SUM AVERAGE \
            COUNT COUNTA COUNTALL RECORD_ID CREATED_TIME NOW TODAY IS_BEFORE IS_AFTER IS_SAME DATEADD DATETIME_DIFF \
            DATETIME_PARSE DATETIME_FORMAT DATESTR YEAR MONTH DAY HOUR MINUTE SECOND WEEKDAY ARRAYJOIN ARRAYCOMPACT \
            ARRAYUNIQUE REGEX_MATCH TRUE FALSE BLANK
            """.split(separator: " ")
        for name in names {
            #expect(FormulaFunction(rawValue: String(name)) != nil, "\(name)")
        }
        let extras = ["EXP", "LOG", "EVEN", "ODD", "REGEX_EXTRACT", "REGEX_REPLACE", "ENCODE_URL_COMPONENT", "ARRAYFLATTEN",
                      "TIMESTR", "WEEKNUM", "LAST_MODIFIED_TIME"]
        #expect(Set(FormulaFunction.allCases.map(\.rawValue)) == Set(names.map(String.init) + extras))
    }

    @Test func compilesBuiltExpressions() throws {
        let expression: FormulaExpression = .and([.field("Name") == .text("O'Brien"), .field("fldQty000000000001") >= 2])
        let compiled = try CompiledFormula(expression, fields: FormulaFixture.fields)
        #expect(compiled.matches(FormulaFixture.record(["Name": "O'Brien", "Qty": 3])))
        #expect(!compiled.matches(FormulaFixture.record(["Name": "O'Brien", "Qty": 1])))
        #expect(compiled.expression == expression)
    }

    @Test func refusesOverlyDeepBuiltExpressionsWithoutRecursing() {
        var expression: FormulaExpression = .number(1)
        for _ in 0..<(Formula.maximumDepth + 10) { expression = .not(expression) }
        #expect(throws: FormulaError.self) { try CompiledFormula(expression, fields: []) }
    }

    @Test func compiledFormulasAreSharedAcrossTasks() async throws {
        let compiled = try CompiledFormula("REGEX_MATCH({Name}, '^[0-9]+$') & LEN({Name})", fields: FormulaFixture.fields)
        let results = await withTaskGroup(of: FormulaValue.self) { group in
            for index in 0..<50 {
                group.addTask { compiled.evaluate(FormulaFixture.record(["Name": .string(String(index * 7))])) }
            }
            var values: [FormulaValue] = []
            for await value in group { values.append(value) }
            return values
        }
        #expect(results.count == 50)
        #expect(results.allSatisfy { if case .text(let t) = $0 { t.hasPrefix("1") } else { false } })
    }
}

@Suite struct FormulaRecordTests {
    @Test func recordsKeyedByNameOrIDAreReKeyedByID() throws {
        let record = Record(id: "recAAAAAAAAAAAAA9", createdTime: FormulaFixture.created,
                            fields: ["Name": "紅茶", "fldQty000000000001": 2, "Ghost": "ignored"])
        let formulaRecord = FormulaRecord(record, fields: FormulaFixture.fields, now: FormulaFixture.now)
        #expect(formulaRecord.cells == ["fldName00000000001": "紅茶", "fldQty000000000001": 2])
        let compiled = try CompiledFormula("AND({Name} = '紅茶', {Qty} = 2, RECORD_ID() = 'recAAAAAAAAAAAAA9')",
                                           fields: FormulaFixture.fields)
        #expect(compiled.matches(formulaRecord))
    }
}
