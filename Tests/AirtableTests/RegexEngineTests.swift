@testable import AirtableFormula
import Testing
@testable import Airtable

/// The REGEX_ functions' engine reads RE2's syntax and finds what RE2 (Airtable's engine) finds.
@Suite struct RegexEngineTests {
    private func extract(_ text: String, _ pattern: String) throws -> String? {
        let regex = try FormulaRegex(pattern)
        return try? regex.extract(from: text, budget: FormulaBudget())
    }

    private func replace(_ text: String, _ pattern: String, _ template: String) throws -> String {
        try FormulaRegex(pattern).replace(in: text, with: template, budget: FormulaBudget())
    }

    @Test(arguments: [
        ("Order 42 of 99", "\\d+", "42"),
        ("aaa", "a*?", ""),
        ("aaa", "a+?", "a"),
        ("abcabc", "(abc){2}", "abcabc"),
        ("abab", "(?:ab)+", "abab"),
        ("xabcx", "a|ab|abc", "a"),
        ("xabcx", "abc|ab|a", "abc"),
        ("Hello World", "(?i)world", "World"),
        ("Hello World", "(?i:HELLO) W", "Hello W"),
        ("one\ntwo", "(?m)^two$", "two"),
        ("one\ntwo", "one.two", nil),
        ("one\ntwo", "(?s)one.two", "one\ntwo"),
        ("a-b_c", "[[:alpha:]_-]+", "a-b_c"),
        ("x9y", "[^a-z]", "9"),
        ("tab\there", "\\s", "\t"),
        ("cat concat", "\\bcat\\b", "cat"),
        ("concat", "\\Bcat", "cat"),
        ("珍珠奶茶 大杯", "珍珠.茶", "珍珠奶茶"),
        ("🧋🧋x", "🧋+x", "🧋🧋x"),
        ("a{1}", "a{", "a{"),
        ("price: 55", "\\x{35}+", "55"),
        ("aaaa", "a{2,3}", "aaa"),
        ("aaaa", "a{2,}", "aaaa"),
        ("ab", "a$", nil),
        ("ÄBC", "(?i)äbc", "ÄBC"),
    ] as [(String, String, String?)])
    func findsWhatRE2Finds(text: String, pattern: String, expected: String?) throws {
        #expect(try extract(text, pattern) == expected)
    }

    @Test func replacesWithGroupsAndEmptyMatches() throws {
        #expect(try replace("Order 42 of 99", "\\d+", "#") == "Order # of #")
        #expect(try replace("珍珠奶茶", "(珍珠)(奶茶)", "$2$1") == "奶茶珍珠")
        #expect(try replace("abc", "x*", "-") == "-a-b-c-")
        #expect(try replace("aaa", "a*", "-") == "--")
        #expect(try replace("2026-12-06", "(\\d+)-(\\d+)-(\\d+)", "$3/$2/$1 \\$0 $0") == "06/12/2026 $0 2026-12-06")
        #expect(try replace("ab", "(a)|(b)", "[$1$2]") == "[a][b]")
    }

    /// Backreferences and lookaround (what makes backtracking exponential) are refused, as RE2 refuses them,
    /// and so are patterns too large to run in bounded time.
    @Test(arguments: ["(a)\\1", "(?=a)", "(?!a)", "(?<=a)b", "a**", "a{1001}", "((a{100}){100}){100}", "[z-a]", "\\q",
                      String(repeating: "(", count: 200) + String(repeating: ")", count: 200)])
    func refusesWhatRE2Refuses(pattern: String) {
        #expect(throws: FormulaFailure.self) { try FormulaRegex(pattern) }
    }

    /// The work is linear: the classic exponential patterns over long texts take a bounded number of steps.
    @Test func stepsGrowWithTextTimesPattern() throws {
        for (pattern, text) in [("(a+)+b", String(repeating: "a", count: 2_000)), ("(.+)+$$x", String(repeating: "n", count: 2_000)),
                                ("(a|a)*c", String(repeating: "a", count: 2_000))] {
            let regex = try FormulaRegex(pattern)
            let budget = FormulaBudget(steps: 1_000_000)
            #expect(try regex.matches(text, budget: budget) == false)
            #expect(!budget.isSpent, "\(pattern)")
        }
    }
}
