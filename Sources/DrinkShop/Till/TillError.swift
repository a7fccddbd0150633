import DrinkShopCore

/// What the till's services refuse (payments, menu control, staff, the drawer, members), with a message
/// for the person at the counter. Nothing was written when one of these is thrown.
public enum TillError: Error, Sendable, CustomStringConvertible {
    /// The store or the order desk refused.
    case shop(ShopError)
    case payment(PaymentError)
    case menu(MenuChangeError)
    case drawer(DrawerError)
    case access(AccessError)
    case login(LoginError)
    case pin(PINError)
    case staff(StaffError)
    case member(MemberError)
    case invoice(InvoiceDetailsError)
    case charge(ChargeError)
    /// An order kept on this counter (not yet sent) has no pickup number to pay against.
    case unsentOrder(OrderNumber)
    /// Nobody by that name works here.
    case noSuchStaff(String)
    /// A PIN is needed and there was no way to ask for it.
    case pinRequired(name: String, hint: String)
    /// A date or range that could not be read.
    case badDate(String)
    /// Anything else the till refuses, said plainly.
    case refused(String)

    public var description: String {
        switch self {
        case .shop(let error): return error.description
        case .payment(let error): return "payment refused, nothing recorded: \(error)"
        case .menu(let error): return error.description
        case .drawer(let error): return error.description
        case .access(let error): return error.description
        case .login(let error): return error.description
        case .pin(let error): return error.description
        case .staff(let error): return error.description
        case .member(let error): return error.description
        case .invoice(let error): return error.description
        case .charge(let error): return error.description
        case .unsentOrder(let number):
            return "order \(number) has not reached the store yet; take payment once it has a pickup number"
        case .noSuchStaff(let name): return "nobody called \(name) is on the staff"
        case .pinRequired(let name, let hint): return "\(name) has a PIN: \(hint)"
        case .badDate(let text): return "\"\(text)\" is not a date like 2026-12-01 (or today, yesterday)"
        case .refused(let message): return message
        }
    }
}
