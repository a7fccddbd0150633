import Foundation

/// The rows of a cup sticker: number and cup count large on top, then the drink, its options, the
/// note, and the shortened name with the time.
enum LabelLayout {
    static func rows(for label: CupLabel, columns: Int, timeZone: TimeZone) -> [PrintRow] {
        var rows: [PrintRow] = []
        // Large text takes two columns per column.
        rows.append(.pair(label.pickupNumber, "\(label.cupIndex)/\(label.cupCount)", large: true))
        for line in PrintText.wrap(label.drink, columns: columns) { rows.append(.text(line, .left, large: false)) }
        let options = [label.size, label.sugar, label.ice].filter { !$0.isEmpty }.joined(separator: " ")
        if !options.isEmpty {
            for line in PrintText.wrap(options, columns: columns) { rows.append(.text(line, .left, large: false)) }
        }
        if !label.addOns.isEmpty {
            let addOns = label.addOns.map { "+" + $0 }.joined(separator: " ")
            for line in PrintText.wrap(addOns, columns: columns) { rows.append(.text(line, .left, large: false)) }
        }
        if let note = label.note?.trimmingCharacters(in: .whitespacesAndNewlines), !note.isEmpty {
            for line in PrintText.wrap("備註 " + note, columns: columns, indent: "  ") {
                rows.append(.text(line, .left, large: false))
            }
        }
        let time = PrintText.time(label.time, timeZone: timeZone, withYear: false)
        rows.append(.pair(CustomerName.shortened(label.customerName) ?? "", time, large: false))
        return rows
    }
}
