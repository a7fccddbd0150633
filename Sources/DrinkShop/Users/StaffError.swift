import DrinkShopCore

/// Why a staff change or a PIN was refused, in the words staff use (中文 and English). Nothing was
/// written when one of these is thrown.
public enum StaffError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The shop's first PIN must be a manager's, or nobody could manage staff once PINs are on.
    case firstPINMustBeAManagers(name: String)
    /// Taking this PIN away, or this person off the staff, would leave PINs on with no manager to manage them.
    case lastManager(name: String)
    /// A new PIN typed twice differently.
    case pinsDiffer
    /// Nothing was typed when a PIN was asked for.
    case noPINGiven
    /// PINs are on and nobody of that name is on the staff: only a manager adds staff then.
    case unknownWhilePINsAreOn(name: String)
    /// A one-shot command needs to say who acts, with their PIN, once PINs are on.
    case oneShotNeedsStaff(AccessError)
    /// Hashing or checking a PIN failed (the machine's crypto library).
    case hashingFailed(String)

    public var description: String {
        switch self {
        case .firstPINMustBeAManagers(let name):
            return "\(name) is not a manager: the first PIN must be a manager's (staff add NAME manager), "
                + "or nobody could manage the staff once PINs are on (第一組 PIN 須為店長)"
        case .lastManager(let name):
            return "\(name) is the last manager with a PIN; give another manager a PIN first, "
                + "or remove the others' PINs (至少要有一位店長)"
        case .pinsDiffer: return "the two PINs differ; nothing changed (兩次 PIN 不同)"
        case .noPINGiven: return "no PIN given; nothing changed (未輸入 PIN)"
        case .unknownWhilePINsAreOn(let name):
            return "nobody called \(name) is on the staff; once PINs are set, a manager adds staff: "
                + "staff add \(name) (請店長新增員工)"
        case .oneShotNeedsStaff(let error):
            return "\(error); a one-shot command or a piped session needs DRINKSHOP_STAFF (or --staff) and DRINKSHOP_PIN"
        case .hashingFailed(let reason): return "the PIN could not be checked (無法驗證 PIN): \(reason)"
        }
    }
}
