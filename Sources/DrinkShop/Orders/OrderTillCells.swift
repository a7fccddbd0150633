import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The cells an order carries for the till (`TillCopy`) and its own audit entries: with `OrderRecord`, the
/// only code that knows these `OrderDrink` fields.
extension OrderRecord {
    /// The till's copy on an order's record; nil when the record has none (an earlier version's order).
    static func tillCopy(from cells: Fields) -> TillCopy? {
        guard cells[OrderField.paid]?.intValue != nil else { return nil }
        guard let paidBy = TillCopy.amounts(cells[OrderField.paidBy]?.stringValue ?? ""),
              let refundedBy = TillCopy.amounts(cells[OrderField.refundedBy]?.stringValue ?? "")
        else { return nil }
        let copy = TillCopy(paidBy: paidBy, refundedBy: refundedBy, bill: cells[OrderField.bill]?.intValue)
        // A copy that does not add up is not trusted: the ledger is read instead.
        guard copy.paid == cells[OrderField.paid]?.intValue, copy.refunded == (cells[OrderField.refunded]?.intValue ?? 0)
        else { return nil }
        return copy
    }

    /// The cells of `copy`; nil clears them, so the order is read from the ledger again.
    static func cells(of copy: TillCopy?) -> Fields {
        guard let copy else {
            return Fields([OrderField.paid: .null, .refunded: .null, .paidBy: .null, .refundedBy: .null, .bill: .null])
        }
        return Fields([
            OrderField.paid: .int(copy.paid), .refunded: .int(copy.refunded),
            .paidBy: copy.paidBy.isEmpty ? .null : .string(TillCopy.text(copy.paidBy)),
            .refundedBy: copy.refundedBy.isEmpty ? .null : .string(TillCopy.text(copy.refundedBy)),
            .bill: copy.bill.map(JSONValue.int) ?? .null,
        ])
    }

    /// The fields only this version writes on orders: a store `setup` has not yet given them refuses them.
    static let tillAndAuditFields: Set<String> = Set([OrderField.paid, .refunded, .paidBy, .refundedBy, .bill, .audit].map(\.rawValue))
}

/// An order's own audit entries, in its `audit` cell: one JSON object a line (`at`, `by`, `action`,
/// `subject`, `detail`), appended with the change they record, in the same write.
enum OrderAuditCell {
    /// The cell with `entries` added after what `text` held.
    static func appending(_ entries: [AuditEntry], to text: String?) -> String {
        let lines = entries.map { entry in
            JSONWriter.string(.object([
                AuditField.at.rawValue: .string(AirtableTimestamp.format(entry.at)), AuditField.by.rawValue: .string(entry.by),
                AuditField.action.rawValue: .string(entry.action.rawValue), AuditField.subject.rawValue: .string(entry.subject),
                AuditField.detail.rawValue: .string(entry.detail),
            ]))
        }
        let old = (text ?? "").trimmingCharacters(in: .newlines)
        return ([old].filter { !$0.isEmpty } + lines).joined(separator: "\n")
    }

    /// The entries of a cell, oldest first; a line that cannot be read is skipped (the rest still show).
    static func entries(_ text: String?) -> [AuditEntry] {
        guard let text else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONParser.parse(String(line)).objectValue,
                  let atText = object[AuditField.at.rawValue]?.stringValue, let at = AirtableTimestamp.parse(atText)
            else { return nil }
            let actionName = object[AuditField.action.rawValue]?.stringValue ?? ""
            var detail = object[AuditField.detail.rawValue]?.stringValue ?? ""
            let action = ShopAction(rawValue: actionName) ?? .staffChanges
            if ShopAction(rawValue: actionName) == nil { detail = "\(actionName): \(detail)" }
            return AuditEntry(at: at, by: object[AuditField.by.rawValue]?.stringValue ?? "", action: action,
                              subject: object[AuditField.subject.rawValue]?.stringValue ?? "", detail: detail)
        }.sorted { $0.at < $1.at }
    }
}
