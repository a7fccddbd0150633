import DrinkShopCore
import Foundation
import HTTPServer
import LineEditor
import Printing
import Testing
import TestSupport
import TextScalars

/// Generated hostile text: pieces an attacker strings together (markup and quotes behind combining marks and
/// prefixed number signs, bidi controls, zero-width characters, terminal escape sequences, carriage returns,
/// line and paragraph separators, C1 controls) among ordinary Chinese and Latin text and emoji.
struct HostileText {
    static let pieces: [String] = [
        "a", "Ben", "王小明", "少冰", " ", "  ", ",", "\"", "'", "<", ">", "&", "&amp;", "<svg onload=alert(1)>",
        "\"\u{301}", "<\u{301}", "\u{600}<", "\u{600}\"", "\u{605}", "\u{301}", "\u{300}\u{316}\u{20DD}", "e\u{301}",
        "\u{202E}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        "\u{200E}", "\u{200F}", "\u{61C}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{3164}",
        "\u{1B}", "\u{1B}[2K", "\u{1B}[1A", "\u{1B}[31m", "\u{1B}[8m", "\u{1B}[0m", "\u{1B}]0;owned\u{7}", "\u{1B}c",
        "\u{9B}2J", "\u{85}", "\r", "\n", "\r\n", "\t", "\u{0}", "\u{7}", "\u{7F}", "\u{2028}", "\u{2029}",
        "=SUM(A1)", "@", "-", "+", "·", " · ", "😀", "👨‍👩‍👧", "❤️", "\u{E000}", "\\", "\\[\"]",
    ]

    static func make(_ random: inout SplitMix64, pieces count: Int = 12) -> String {
        (0..<Int.random(in: 0...count, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
    }

    /// Every scalar an encoder must not pass through as it is (line feed and tab are each encoder's own call).
    static func isHiddenButWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isHiddenInText && scalar != "\n" && scalar != "\t"
    }
}

@Suite struct HiddenScalarsTests {
    @Test func whatIsHidden() {
        for hidden: Unicode.Scalar in ["\u{0}", "\u{1B}", "\r", "\n", "\u{7F}", "\u{85}", "\u{9B}", "\u{202E}", "\u{2066}",
                                       "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{600}", "\u{2028}", "\u{2029}", "\u{3164}", "\u{E0041}"]
        {
            #expect(hidden.isHiddenInText, "U+\(String(hidden.value, radix: 16))")
        }
        for shown: Unicode.Scalar in ["a", " ", "\"", "<", "王", "\u{301}", "\u{FE0F}", "😀", "·", "\u{3000}"] {
            #expect(!shown.isHiddenInText, "U+\(String(shown.value, radix: 16))")
        }
    }

    /// The Han ideographs are answered without the property tables: the answer must be the tables' own, for
    /// them and for the scalars around them (U+3164, a Hangul filler, is hidden; U+3000 is a space).
    @Test func hanIdeographsAreAnsweredAsThePropertyTablesWould() {
        for value in UInt32(0x3000)...0xA0FF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = scalar.properties
            let byTables = [.control, .format, .lineSeparator, .paragraphSeparator, .surrogate].contains(properties.generalCategory)
                || (properties.isDefaultIgnorableCodePoint && !properties.isVariationSelector)
            #expect(scalar.isHiddenInText == byTables, "U+\(String(value, radix: 16))")
        }
    }

    @Test func lookAlikeScriptsInOneWord() {
        #expect(LookAlikeScripts.mixed("\u{412}\u{435}n"))  // Вen
        #expect(LookAlikeScripts.mixed("P\u{430}ul"))  // Pаul
        #expect(!LookAlikeScripts.mixed("Ben Иван"))
        #expect(!LookAlikeScripts.mixed("王小明 Ben"))
        #expect(!LookAlikeScripts.mixed("Zoë"))
    }
}

@Suite struct HTMLEncoderFuzzTests {
    static let entities: [(String, Unicode.Scalar)] = [("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"), ("&quot;", "\""), ("&#39;", "'")]

    /// The escaped text read back as a browser reads content and quoted attributes, scalar by scalar (as
    /// `String`'s own comparisons would not: `&lt;` followed by U+0301 ends in one `Character`, `;́`).
    static func unescaped(_ html: String) -> [Unicode.Scalar]? {
        let scalars = Array(html.unicodeScalars)
        var result: [Unicode.Scalar] = [], index = 0
        while index < scalars.count {
            guard scalars[index] == "&" else { result.append(scalars[index]); index += 1; continue }
            guard let (entity, scalar) = entities.first(where: { scalars[index...].starts(with: $0.0.unicodeScalars) }) else {
                return nil
            }
            result.append(scalar)
            index += entity.unicodeScalars.count
        }
        return result
    }

    @Test func graphemeHiddenMarkupIsEscaped() {
        #expect(HTMLText.escape("\"\u{301} onclick=x") == "&quot;\u{301} onclick=x")
        #expect(HTMLText.escape("\u{600}<svg onload=x>") == "\u{FFFD}&lt;svg onload=x&gt;")
        #expect(HTMLText.escape("Amy\u{202E}1 x 02") == "Amy\u{FFFD}1 x 02")
    }

    @Test func generatedTextNeverOpensMarkupOrHidesItself() {
        var random = SplitMix64(seed: 0x4854_4D4C)
        for _ in 0..<5_000 {
            let text = HostileText.make(&random)
            let html = HTMLText.escape(text)
            let scalars = Array(html.unicodeScalars)
            #expect(!scalars.contains { "<>\"'".unicodeScalars.contains($0) }, "\(text.debugDescription) → \(html.debugDescription)")
            #expect(!scalars.contains(where: HostileText.isHiddenButWhitespace), "\(text.debugDescription)")
            // Every & starts one of the entities written, and read back it is the text with each hidden scalar
            // drawn as U+FFFD.
            let shown = text.replacingHiddenScalars { $0 == "\n" || $0 == "\t" ? String($0) : "\u{FFFD}" }
            #expect(Self.unescaped(html) == Array(shown.unicodeScalars), "\(text.debugDescription)")
        }
    }
}

@Suite struct TerminalEncoderFuzzTests {
    static let ourColours: Set<String> = Set(
        ["0", "1", "2", "31", "32", "33", "36"])

    /// Every ESC in `text` starts a colour sequence of ours; no other control, C1, bidi or separator is left.
    static func problems(_ text: String) -> [String] {
        var found: [String] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}" {
                var end = index + 1
                guard end < scalars.count, scalars[end] == "[" else { found.append("bare ESC"); index += 1; continue }
                end += 1
                var parameters = ""
                while end < scalars.count, scalars[end] != "m", parameters.count < 40 {
                    parameters.unicodeScalars.append(scalars[end])
                    end += 1
                }
                let allowed = !parameters.isEmpty && parameters.split(separator: ";", omittingEmptySubsequences: false)
                    .allSatisfy { ourColours.contains(String($0)) }
                if end >= scalars.count || !allowed { found.append("ESC [\(parameters)") }
                index = end + 1
                continue
            }
            if HostileText.isHiddenButWhitespace(scalar) { found.append("U+" + String(scalar.value, radix: 16)) }
            index += 1
        }
        return found
    }

    @Test func cursorMovesAndErasuresAreDrawnNotObeyed() {
        #expect(TerminalSafeText.encode("Ben\u{1B}[2K\u{1B}[1Aok\r") == "Ben␛[2K␛[1Aok␍")
        #expect(TerminalSafeText.encode("a\u{1B}[8mhidden") == "a␛[8mhidden")
        #expect(TerminalSafeText.encode("x\u{202E}y\u{2028}z\u{9B}") == "x\u{FFFD}y\u{FFFD}z\u{FFFD}")
        let painted = ColorPolicy.styled.paint("ready", .green, .bold) + "\n"
        #expect(TerminalSafeText.encode(painted) == painted)
    }

    @Test func generatedTextLeavesOnlyOurColours() {
        var random = SplitMix64(seed: 0x5454_5920)
        for _ in 0..<5_000 {
            let text = HostileText.make(&random)
            let styled = ColorPolicy.styled.paint(text, .yellow) + HostileText.make(&random)
            for encoded in [TerminalSafeText.encode(text), TerminalSafeText.encode(styled)] {
                #expect(Self.problems(encoded) == [], "\(text.debugDescription) → \(encoded.debugDescription)")
                #expect(TerminalSafeText.encode(encoded) == encoded)
            }
        }
    }

    @Test func generatedCellsKeepATableToItsLines() {
        var random = SplitMix64(seed: 0x5441_424C)
        for _ in 0..<1_000 {
            var table = TextTable(columns: [.init("#", alignment: .right), .init("For"), .init("Note")])
            let rows = Int.random(in: 1...4, using: &random)
            for number in 0..<rows { table.append(["\(number)", HostileText.make(&random), HostileText.make(&random)]) }
            // The same table of plain cells: as many lines as the hostile one.
            let plain = TextTable(columns: table.columns, rows: table.rows.map { $0.map { _ in "x" } })
            for style in [ColorPolicy.plain, .styled] {
                let lines = table.lines(style: style, width: 80)
                #expect(lines.count == plain.lines(style: style, width: 80).count)
                for line in lines { #expect(Self.problems(line) == [] && !line.unicodeScalars.contains("\n")) }
            }
        }
    }
}

@Suite struct CSVEncoderFuzzTests {
    /// RFC 4180 read back: the records of `text`, each its fields.
    static func parse(_ text: String) -> [[String]] {
        var records: [[String]] = [], fields: [String] = [], field = String.UnicodeScalarView()
        var quoted = false, index = text.unicodeScalars.startIndex
        let scalars = text.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if quoted {
                if scalar == "\"" {
                    if next < scalars.endIndex, scalars[next] == "\"" { field.append("\""); index = scalars.index(after: next); continue }
                    quoted = false
                } else { field.append(scalar) }
            } else if scalar == "\"" && field.isEmpty {
                quoted = true
            } else if scalar == "," {
                fields.append(String(field)); field = String.UnicodeScalarView()
            } else if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" {
                fields.append(String(field)); field = String.UnicodeScalarView()
                records.append(fields); fields = []
                index = scalars.index(after: next)
                continue
            } else { field.append(scalar) }
            index = next
        }
        return records
    }

    @Test func aQuoteBehindACombiningMarkIsDoubled() {
        #expect(CSVTable.field("a\"\u{301},b") == "\"a\"\"\u{301},b\"")
        #expect(CSVTable.field("Amy\u{202E}\u{2028}") == "Amy\u{FFFD}\u{FFFD}")
    }

    @Test func generatedFieldsReadBackOneLineEach() {
        var random = SplitMix64(seed: 0x4353_5620)
        for _ in 0..<3_000 {
            let row = (0..<3).map { _ in HostileText.make(&random) }
            var table = CSVTable(header: ["a", "b", "c"])
            table.append(row)
            let text = table.text
            #expect(text.unicodeScalars.filter { $0 == "\n" }.count == 2, "\(row)")
            #expect(!text.unicodeScalars.contains(where: { HostileText.isHiddenButWhitespace($0) && $0 != "\r" }))
            let expected = row.map { $0.replacingHiddenScalars { _ in "\u{FFFD}" } }
            #expect(Self.parse(text) == [["a", "b", "c"], expected], "\(row)")
        }
    }
}

@Suite struct PrinterEncoderFuzzTests {
    static func label(_ random: inout SplitMix64) -> CupLabel {
        CupLabel(pickupNumber: "A0" + HostileText.make(&random, pieces: 2), cupIndex: 1, cupCount: 2, drink: HostileText.make(&random),
                 size: "大杯", sugar: HostileText.make(&random, pieces: 3), ice: "少冰", addOns: [HostileText.make(&random, pieces: 3)],
                 note: HostileText.make(&random), time: Date(timeIntervalSince1970: 1_800_000_000),
                 customerName: HostileText.make(&random, pieces: 4))
    }

    /// TSPL: every line a command of ours; a TEXT's string holds no bare quote and no control byte.
    static func tsplProblems(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                lines.append(line); line = []; index += 2; continue
            }
            if bytes[index] < 0x20 || bytes[index] == 0x7F { problems.append("control byte \(bytes[index])") }
            line.append(bytes[index])
            index += 1
        }
        if !line.isEmpty { problems.append("unterminated command") }
        for line in lines {
            let text = String(decoding: line.prefix(6), as: UTF8.self)
            guard ["SIZE ", "GAP ", "DIRECT", "CLS", "PRINT ", "TEXT "].contains(where: { text.hasPrefix($0) }) else {
                problems.append("unknown command \(text)"); continue
            }
            guard text.hasPrefix("TEXT ") else { continue }
            // TEXT x,y,"font",0,s,s,"…": the string runs from the seventh field's quote to the last byte.
            guard let open = line.indices.filter({ line[$0] == 0x22 }).dropFirst(2).first, line.last == 0x22 else {
                problems.append("TEXT without its string"); continue
            }
            var body = Array(line[(open + 1)..<(line.count - 1)])
            // Drop each \["] escape; Big5 trail bytes are 0x40 and up, so no byte of a character is a quote.
            var cleaned: [UInt8] = []
            var at = 0
            while at < body.count {
                if at + 3 < body.count, body[at...(at + 3)].elementsEqual([0x5C, 0x5B, 0x22, 0x5D]) { at += 4; continue }
                cleaned.append(body[at]); at += 1
            }
            body = cleaned
            if body.contains(0x22) { problems.append("bare quote in a TEXT string: \(String(decoding: line, as: UTF8.self).debugDescription)") }
        }
        return problems
    }

    /// ESC/POS: every control byte starts one of the formatter's own commands.
    static func escposProblems(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        var index = 0
        var cuts = 0
        while index < bytes.count {
            let byte = bytes[index], next = index + 1 < bytes.count ? bytes[index + 1] : 0
            switch (byte, next) {
            case (0x1B, 0x40), (0x1C, 0x26): index += 2
            case (0x1B, 0x61), (0x1B, 0x64), (0x1D, 0x21): index += 3
            case (0x1D, 0x56): cuts += 1; index += 3
            case (0x0A, _): index += 1
            case (0x81...0xFE, _): index += 2
            case (0x20...0x7E, _): index += 1
            default: problems.append("control byte \(byte) then \(next)"); index += 1
            }
        }
        if cuts != 1 { problems.append("\(cuts) cuts") }
        return problems
    }

    @Test func aStickerWithEscapesAndQuotesStaysOurCommands() {
        var random = SplitMix64(seed: 0x5453_504C)
        for _ in 0..<1_000 {
            let labels = [Self.label(&random), Self.label(&random)]
            let job = TSPLFormatter(timeZone: TimeZone(identifier: "Asia/Taipei") ?? .current).format(labels)
            #expect(Self.tsplProblems(job.bytes) == [], "\(labels.map(\.note))")
        }
    }

    @Test func aReceiptWithEscapesOpensNoDrawerAndCutsOnce() {
        var random = SplitMix64(seed: 0x4553_4350)
        for _ in 0..<1_000 {
            let receipt = Receipt(shopName: HostileText.make(&random), pickupNumber: "A01", time: Date(timeIntervalSince1970: 1_800_000_000),
                                  lines: [.init(name: HostileText.make(&random), detail: HostileText.make(&random), quantity: 1, amount: 55)],
                                  adjustments: [.init(label: HostileText.make(&random), amount: -5)], total: 50,
                                  payments: [.init(method: "cash", amount: 50)], footer: [HostileText.make(&random)])
            let job = ESCPOSFormatter(timeZone: TimeZone(identifier: "Asia/Taipei") ?? .current).format(receipt)
            #expect(Self.escposProblems(job.bytes) == [], "\(receipt.lines[0].name.debugDescription)")
        }
    }

    @Test func printedTextHasNoHiddenScalar() {
        #expect(PrintJob.printed("a\u{1B}p\u{0}\u{19}b\r\nc\u{202E}") == "a?p??b  c?")
        var random = SplitMix64(seed: 0x5052_4E54)
        for _ in 0..<3_000 {
            #expect(!PrintJob.printed(HostileText.make(&random)).containsHiddenScalar)
        }
    }
}

@Suite struct LinePersonSeparatorTests {
    @Test func aNameHoldingTheSeparatorStaysOnePerson() throws {
        let note = LinePerson.note(for: "Ben · 多冰 · for Boss", "少冰")
        let parsed = try #require(LinePerson.parse(note))
        #expect(parsed.person == "Ben ・ 多冰 ・ for Boss")
        #expect(parsed.note == "少冰")
        var random = SplitMix64(seed: 0x4C50_4552)
        for _ in 0..<2_000 {
            let person = "P" + HostileText.make(&random, pieces: 5), rest = HostileText.make(&random, pieces: 5)
            let parsed = try #require(LinePerson.parse(LinePerson.note(for: person, rest)))
            #expect(parsed.person == String(String.UnicodeScalarView(person.unicodeScalars.map { $0 == "·" ? "・" : $0 })))
            #expect(parsed.note == (rest.isEmpty ? nil : rest))
        }
    }
}
