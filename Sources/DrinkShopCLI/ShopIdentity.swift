import Airtable
import AirtableHTTP

/// The names drinkshop gives the modules below it that know nothing of the shop (LocalBase, the server,
/// the Airtable client): its base's owner, its base, its user agents, its pacing files. They are the words
/// earlier versions stored and sent, kept byte for byte: an existing store's owner (and so its createdBy
/// cells), pacing files already on disk, and what scripts/conformance expects of `serve`.
enum ShopIdentity {
    /// The owner a new embedded store (or outbox, or archive) is made with.
    static let baseOwner = OwnerProfile(name: "DrinkShop owner", email: "owner@drinkshop.local")
    /// What `serve` calls the base and its workspace in the metadata routes.
    static let baseName = "DrinkShop"
    static let workspaceID = "wspDrinkShopLocal"
    /// The `User-Agent` of a counter's requests to Airtable, and of the gateway's.
    static let clientUserAgent = "DrinkShop-AirtableClient/1"
    static let gatewayUserAgent = "DrinkShop-Gateway/1"
    /// The first word of this machine's pacing files (`$XDG_STATE_HOME/drinkshop/pacing/`).
    static let pacingFormatName = "drinkshop-pacing"
}
