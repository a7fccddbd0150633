import Airtable
import DrinkShopCore

extension Shop {
    /// Identifies a staff member at the counter. A name the `User` table does not know yet is added as
    /// staff (a new colleague's first shift); a customer's name is refused.
    /// - Returns: the user and whether it was just added.
    public func logIn(name: String) async throws(ShopError) -> (user: User, isNew: Bool) {
        let user: User
        do { user = try User(name: name, role: .staff) } catch { throw .order("\(error)") }
        let formula = FormulaExpression.binary(.equal, .field("name"), .text(user.name)).description
        do {
            let found = try await store.allRecords(in: ShopSchema.userTable, query: ListQuery(filterByFormula: formula))
            if let record = found.first {
                let role = record.fields["role"]?.stringValue.flatMap(UserRole.init(rawValue:)) ?? .staff
                guard role == .staff else { throw ShopError.order("\(user.name) is a \(role.rawValue), not staff") }
                return (user, false)
            }
            _ = try await store.createRecord(in: ShopSchema.userTable,
                                             ["name": .string(user.name), "role": .string(UserRole.staff.rawValue)],
                                             options: WriteOptions(typecast: true))
            return (user, true)
        } catch let error as ShopError {
            throw error
        } catch {
            throw .wrap(error)
        }
    }
}
