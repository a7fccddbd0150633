import Foundation

/// Splits a command line into words: whitespace separates, a word starting with `"`, `'`, `“` or `「` is
/// quoted up to the matching close (a backslash escapes the next character inside double quotes; an
/// apostrophe inside a word, as in O'Brien, is just a letter), and a comma (`,` or `，`) outside quotes is a word of its own,
/// because it separates the lines of an order. Words outside quotes are brought to Unicode NFKC, so the
/// full-width letters, digits and spaces of a Chinese input method (`２杯`, `Ｍ`, `　`) read as typed
/// on an English keyboard; quoted text is kept exactly as typed.
enum Tokenizer {
    /// Opening quote to closing quote: straight quotes, and the curly and corner quotes a Chinese
    /// input method types.
    private static let closingQuote: [Character: Character] = ["\"": "\"", "'": "'", "“": "”", "「": "」"]

    static func tokenize(_ line: String) throws(CommandError) -> [String] {
        try words(line).map(\.text)
    }

    /// A word of a command line: what the grammar reads (`text`: NFKC outside quotes, a comma as `,`), and
    /// what staff typed (`typed`: the characters as they were, `，` and `！` too), with whether a space came
    /// before it. Free text (a reason) is given back as typed (`typedTail`).
    struct Word: Sendable, Equatable {
        var text: String
        var typed: String
        var spaced: Bool
    }

    /// The words of `line` (see `tokenize`).
    static func words(_ line: String) throws(CommandError) -> [Word] {
        var tokens: [Word] = []
        var current = ""
        var inToken = false
        var quote: Character?  // the closing character of the open quote
        var quoteColumn = 0
        var escaped = false
        var quoted = false
        var spaced = false  // whether a space came before the word being read
        func finish() {
            tokens.append(Word(text: quoted ? current : current.compatibilityNormalized, typed: current, spaced: spaced))
            quoted = false
            spaced = false
        }
        for (column, character) in line.enumerated() {
            if let close = quote {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if character == "\\" && close == "\"" {
                    escaped = true
                } else if character == close {
                    quote = nil
                } else {
                    current.append(character)
                }
                continue
            }
            // Most characters are letters of a word: ASCII ones other than quotes, commas and spaces, and
            // CJK ideographs, told apart without the general checks below.
            if let ascii = character.asciiValue {
                if ascii > 0x20 && ascii != 0x22 && ascii != 0x27 && ascii != 0x2C && ascii != 0x7F {
                    current.append(character)
                    inToken = true
                    continue
                }
            } else if character.unicodeScalars.count == 1, (0x4E00...0x9FFF).contains(character.unicodeScalars.first!.value) {
                current.append(character)
                inToken = true
                continue
            }
            if !inToken, let close = closingQuote[character] {
                quote = close
                quoteColumn = column + 1
                inToken = true
                quoted = true
                continue
            }
            switch character {
            case ",", "，":
                if inToken { finish() }
                tokens.append(Word(text: ",", typed: String(character), spaced: spaced))
                spaced = false
                current = ""
                inToken = false
            default:
                if character.asciiValue.map(Self.isASCIIWhitespace) ?? character.isWhitespace {
                    if inToken { finish() }
                    current = ""
                    inToken = false
                    spaced = !tokens.isEmpty
                } else {
                    current.append(character)
                    inToken = true
                }
            }
        }
        if quote != nil { throw CommandError(.unterminatedQuote(column: quoteColumn)) }
        if inToken { finish() }
        return tokens
    }

    /// Free text at the end of a command (a cancel's or void's reason, which the grammar joined with spaces) as
    /// staff typed it: the last words whose `text`s joined with spaces are `joined`, with their own characters
    /// (`，`, `！`, full-width letters) and spacing (no space before a comma typed without one). `joined` itself
    /// when no such words end the line.
    static func typedTail(_ words: [Word], joined: String) -> String {
        var texts: [String] = []
        for start in words.indices.reversed() {
            texts.insert(words[start].text, at: 0)
            guard texts.joined(separator: " ") == joined else { continue }
            let tail = words[start...]
            return tail.enumerated().map { index, word in (index > 0 && word.spaced ? " " : "") + word.typed }.joined()
        }
        return joined
    }

    /// Space, tab, and the line and page breaks: the ASCII characters `Character.isWhitespace` holds
    /// true for, answered without a look in Unicode's tables.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}

extension String {
    /// The text in Unicode NFKC. Text of ASCII and CJK ideographs only (nearly every command typed) is
    /// already in it and comes back as it is, without the trip through Foundation.
    var compatibilityNormalized: String {
        let stable = unicodeScalars.allSatisfy { $0.value < 0x80 || (0x4E00...0x9FFF).contains($0.value) }
        return stable ? self : precomposedStringWithCompatibilityMapping
    }
}
