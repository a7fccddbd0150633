import DrinkShopCore
import EInvoice

/// The shop as its invoices name it, and where Turnkey picks the files up: settings every counter shares (the
/// `Setting` table, under the till's scope on `drinkshop serve`), set by a manager with `einvoice seller`. A
/// shop that has set no seller issues no invoice (as before the e-invoice was built).
public struct InvoiceSetup: Sendable {
    public static let sellerKey = "einvoiceSeller"
    public static let nameKey = "einvoiceName"
    public static let addressKey = "einvoiceAddress"
    public static let qrKeyKey = "einvoiceQRKey"
    public static let turnkeyKey = "einvoiceTurnkey"
    /// Settings whose value is a secret: never shown, and their audit entries say only that they changed.
    public static let secretKeys: Set<String> = [qrKeyKey]

    public let seller: InvoiceSeller
    /// Turnkey's work folder; nil when not set (invoices are recorded, and their files written once it is).
    public let turnkey: TurnkeyFolder?

    public init(seller: InvoiceSeller, turnkey: TurnkeyFolder?) {
        self.seller = seller
        self.turnkey = turnkey
    }

    /// The setup the settings hold; nil when no seller is set.
    /// - Throws: `InvoiceDeskError.storedSetup` naming the setting that cannot be used.
    static func read(_ settings: [String: String]) throws(InvoiceDeskError) -> InvoiceSetup? {
        guard let number = settings[sellerKey], !number.isEmpty else { return nil }
        let key: QRKey
        do { key = try QRKey(hex: settings[qrKeyKey] ?? "") } catch { throw .storedSetup(key: qrKeyKey, error) }
        let seller: InvoiceSeller
        do {
            seller = try InvoiceSeller(businessNumber: number, name: settings[nameKey] ?? "", address: settings[addressKey] ?? "",
                                       qrKey: key)
        } catch {
            throw .storedSetup(key: sellerKey, error)
        }
        let folder = settings[turnkeyKey].flatMap { $0.isEmpty ? nil : TurnkeyFolder(root: $0) }
        return InvoiceSetup(seller: seller, turnkey: folder)
    }

    /// The settings that make this setup.
    var settings: [String: String] {
        [Self.sellerKey: seller.businessNumber, Self.nameKey: seller.name, Self.addressKey: seller.address,
         Self.qrKeyKey: seller.qrKey.hexForStorage, Self.turnkeyKey: turnkey?.root ?? ""]
    }
}
