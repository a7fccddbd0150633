import DrinkShop
import DrinkShopCore

/// The order and edit grammar: `<drink words> <options…> [xN] [note "…"]`, lines separated by commas,
/// and `for NAME` anywhere (once) for the whole order.
extension CommandParser {
    static func orderDraft(_ words: [String], usage: String) throws(CommandError) -> OrderDraft {
        var orderName: String?
        var lines: [LineDraft] = []
        for (index, segment) in split(words).enumerated() {
            var parsed = try lineWords(segment, usage: usage, line: index + 1)
            if let name = parsed.orderName {
                if orderName != nil {
                    throw CommandError(.orderNameTwice, usage: usage)
                }
                orderName = name
            }
            guard !parsed.drinkWords.isEmpty else {
                let line = lines.isEmpty && split(words).count == 1 ? nil : index + 1
                throw CommandError(.noDrink(line: line), usage: usage)
            }
            parsed.line.drink = parsed.drinkWords.joined(separator: " ")
            lines.append(parsed.line)
        }
        return OrderDraft(orderName: orderName, lines: lines)
    }

    /// `[DRINK words] <options…> [xN] [note "…"]`: words before the first option name another drink for the line.
    static func lineChange(_ words: [String], usage: String) throws(CommandError) -> LineChangeDraft {
        var change = LineChangeDraft()
        var index = 0
        let drinkWords = words.prefix { word in
            let lower = word.lowercased()
            return OptionVocabulary.option(for: word) == nil && quantity(word) == nil
                && !["no", "note", "備註", "no add-ons", "noaddons", "不加料", "無加料"].contains(lower)
        }
        if !drinkWords.isEmpty {
            change.drink = drinkWords.joined(separator: " ")
            index = drinkWords.count
        }
        while index < words.count {
            let lower = words[index].lowercased()
            if ["no add-ons", "noaddons", "不加料", "無加料"].contains(lower) {
                change.clearAddOns = true
                index += 1
            } else if lower == "no", index + 1 < words.count, ["add-ons", "addons", "toppings"].contains(words[index + 1].lowercased()) {
                change.clearAddOns = true
                index += 2
            } else if let quantity = quantity(words[index]) {
                change.quantity = quantity
                index += 1
            } else if lower == "note" || lower == "備註" {
                guard index + 1 < words.count else { throw CommandError(.noNoteText, usage: usage) }
                guard change.note == nil else { throw CommandError(.noteTwice(line: nil), usage: usage) }
                change.note = words[index + 1]
                index += 2
            } else if let match = OptionVocabulary.match(words, at: index) {
                change.options.append(match.option)
                index += match.tokenCount
            } else {
                throw CommandError(.notAnOption(words[index]), usage: usage)
            }
        }
        return change
    }

    private struct ParsedLine {
        var line = LineDraft(drink: "")
        var drinkWords: [String] = []
        var orderName: String?
    }

    private static func lineWords(_ words: [String], usage: String, line number: Int) throws(CommandError) -> ParsedLine {
        var parsed = ParsedLine()
        var index = 0
        while index < words.count {
            let word = words[index]
            let lower = word.lowercased()
            if lower == "for" || lower == "給" {
                guard parsed.orderName == nil else { throw CommandError(.orderNameTwice, usage: usage) }
                let name = words[(index + 1)...].prefix { !["note", "備註"].contains($0.lowercased()) }
                guard !name.isEmpty else { throw CommandError(.noOrderName, usage: usage) }
                if name.contains(where: { ["for", "給"].contains($0.lowercased()) }) {
                    throw CommandError(.orderNameTwice, usage: usage)
                }
                parsed.orderName = name.joined(separator: " ")
                index += 1 + name.count
            } else if lower == "note" || lower == "備註" {
                guard index + 1 < words.count else {
                    throw CommandError(.noNoteText, usage: usage)
                }
                guard parsed.line.note == nil else {
                    throw CommandError(.noteTwice(line: number), usage: usage)
                }
                parsed.line.note = words[index + 1]
                index += 2
            } else if let quantity = quantity(word) {
                guard parsed.line.quantity == nil else {
                    throw CommandError(.quantityTwice(line: number), usage: usage)
                }
                parsed.line.quantity = quantity
                index += 1
            } else if let match = OptionVocabulary.match(words, at: index) {
                parsed.line.options.append(match.option)
                index += match.tokenCount
            } else {
                parsed.drinkWords.append(word)
                index += 1
            }
        }
        return parsed
    }

    /// `x2`, `X2`, `×2`, `*2`, `2杯`: a quantity; anything else is not one.
    static func quantity(_ word: String) -> Int? {
        // By scalar: the digits must be ASCII, so a mark joined to the x or to 杯 spoils the word either way.
        var digits = Substring(word).unicodeScalars
        switch digits.first {
        case "x", "X", "×", "*": digits = digits.dropFirst()
        case _ where digits.last == "杯": digits = digits.dropLast()
        default: return nil
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(Substring(digits)) else { return nil }
        return value
    }

    private static func split(_ words: [String]) -> [[String]] {
        var segments: [[String]] = [[]]
        for word in words {
            if word == "," { segments.append([]) } else { segments[segments.count - 1].append(word) }
        }
        return segments.filter { !$0.isEmpty }
    }
}
