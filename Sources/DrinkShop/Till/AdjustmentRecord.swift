import Airtable
import DrinkShopCore

/// How an `Adjustment` is stored in a table (and written in seed files): name, code, kind,
/// amount (signed NT$, perCup/perItem), percent (percentOff), needsManager.
enum AdjustmentRecord {
    static let keys: Set<String> = ["name", "code", "kind", "amount", "percent", "needsManager"]

    static func fields(of adjustment: Adjustment) -> Fields {
        var amount: JSONValue = .null
        var percent: JSONValue = .null
        switch adjustment.kind {
        case .perCup(let value), .perItem(let value): amount = .int(value)
        case .percentOff(let value): percent = .int(value)
        }
        return [
            "name": .string(adjustment.name),
            "code": .string(adjustment.code),
            "kind": .string(adjustment.kind.code),
            "amount": amount,
            "percent": percent,
            "needsManager": adjustment.needsManager ? .bool(true) : .null,
        ]
    }

    /// An adjustment from its cells; the error names the field.
    static func adjustment(from cells: Fields) throws(FieldProblem) -> Adjustment {
        for key in cells.keys.sorted() where !keys.contains(key) {
            throw FieldProblem(field: key, problem: .unknownField(of: .adjustment, known: keys.sorted()))
        }
        func text(_ key: String) throws(FieldProblem) -> String? {
            guard let value = cells[key], !value.isNull else { return nil }
            guard let string = value.stringValue else { throw FieldProblem(field: key, problem: .notText) }
            return string.isEmpty ? nil : string
        }
        func whole(_ key: String) throws(FieldProblem) -> Int? {
            guard let value = cells[key], !value.isNull else { return nil }
            guard let number = value.intValue else {
                let given = value.numberValue.map { "\($0)" } ?? value.kindDescription
                throw FieldProblem(field: key, problem: .notWholeNumber(found: given))
            }
            return number
        }
        guard let name = try text("name") else { throw FieldProblem(field: "name", problem: .missing) }
        guard let code = try text("code") else {
            throw FieldProblem(field: "code", problem: .missingAdjustmentCode)
        }
        guard let kindText = try text("kind") else { throw FieldProblem(field: "kind", problem: .missing) }
        var needsManager = false
        if let value = cells["needsManager"], !value.isNull {
            guard let flag = value.boolValue else { throw FieldProblem(field: "needsManager", problem: .notTrueOrFalse) }
            needsManager = flag
        }
        let amount = try whole("amount")
        let percent = try whole("percent")
        do {
            let kind = try AdjustmentValidationError.kind(code: kindText, amount: amount, percent: percent)
            return try Adjustment(name: name, code: code, kind: kind, needsManager: needsManager)
        } catch {
            throw FieldProblem(field: error.field, problem: .adjustment(error))
        }
    }
}
