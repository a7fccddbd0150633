import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The `Member` table: the only code that knows its fields. One record per mobile number, upserted on it.
struct MemberRecords: Sendable {
    let store: any RecordStore

    /// The member with this number; a number never seen is a new member with an empty card.
    func find(_ mobile: MobileNumber) async throws(TillError) -> Member {
        let records: [Record]
        do {
            records = try await store.allRecords(in: ShopSchema.memberTable, query: Self.query(mobile))
        } catch {
            throw .shop(.store(error))
        }
        return Self.member(mobile, from: records.first?.fields)
    }

    /// The member `cells` hold (nil: a number never seen, with an empty card).
    static func member(_ mobile: MobileNumber, from cells: Fields?) -> Member {
        guard let cells else { return Member(mobile: mobile) }
        var pass: MemberPass?
        if let name = cells[MemberField.passName]?.stringValue, !name.isEmpty,
           let expiresText = cells[MemberField.passExpiresAt]?.stringValue, let expires = AirtableTimestamp.parse(expiresText),
           let benefit = cells[MemberField.passBenefit]?.stringValue.flatMap(Self.benefit(from:)) {
            pass = try? MemberPass(name: name, expiresAt: expires, benefit: benefit)
        }
        return Member(mobile: mobile, card: StampCard(stamps: cells[MemberField.stamps]?.intValue ?? 0), pass: pass)
    }

    /// The query that finds the member with this number.
    static func query(_ mobile: MobileNumber) -> ListQuery {
        ListQuery(filterByFormula: (FormulaExpression.field(MemberField.mobile) == .text(mobile.digits)).description)
    }

    func save(_ member: Member) async throws(TillError) {
        do { _ = try await RecordWrite.apply([write(of: member)], to: store) } catch { throw .shop(error) }
    }

    /// The write that saves `member`: an upsert on the mobile number.
    func write(of member: Member) -> RecordWrite {
        .upsert(table: ShopSchema.memberTable, [Self.cells(of: member)], mergeOn: [MemberField.mobile.rawValue])
    }

    /// The member's cells.
    static func cells(of member: Member) -> Fields {
        Fields([
            MemberField.mobile: .string(member.mobile.digits), .stamps: .int(member.card.stamps),
            .passName: member.pass.map { .string($0.name) } ?? .null,
            .passExpiresAt: member.pass.map { .string(AirtableTimestamp.format($0.expiresAt)) } ?? .null,
            .passBenefit: member.pass.map { .string(Self.text(of: $0.benefit)) } ?? .null,
        ])
    }

    /// `percentOff:10` / `perCupOff:5`.
    static func text(of benefit: PassBenefit) -> String {
        switch benefit {
        case .percentOff(let value): "percentOff:\(value)"
        case .perCupOff(let value): "perCupOff:\(value)"
        }
    }

    static func benefit(from text: String) -> PassBenefit? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let value = Int(parts[1]) else { return nil }
        switch parts[0] {
        case "percentOff": return .percentOff(value)
        case "perCupOff": return .perCupOff(value)
        default: return nil
        }
    }
}
