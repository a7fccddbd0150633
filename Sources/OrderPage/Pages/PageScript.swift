/// The pages' small scripts: niceties only (every page works without them). They are files, served from one
/// place (`/order/script/<name>.js`, ``OrderPage/Route/script(_:)``), never inline: the pages' policy is
/// `script-src 'self'`, so markup that slipped into a page could run nothing. What a script needs to know of
/// its page it reads from its own `<script>` element's `data-` attributes.
enum PageScript: String, CaseIterable, Sendable {
    /// The drink form (`Scripts/price.js`): the line's price follows the size, add-ons and cups as they change.
    case price
    /// The group page (`Scripts/group.js`): the list follows everyone's changes (the page is drawn again when the
    /// group's version moves on), and once sent the order's status follows the counter (已下單 → 製作中 → 可取餐).
    /// The browser's EventSource reconnects by itself; should it give up (the server restarted), a new one is
    /// opened after two seconds. Its element carries the group's `data-events` path and `data-version`.
    case group

    /// Where the page loads it from.
    var path: String { OrderPage.path + "/script/" + rawValue + ".js" }

    /// The file's text: `Scripts/<name>.js`, embedded in the binary by scripts/embed-page-scripts
    /// (`EmbeddedScripts.swift`).
    var source: String {
        switch self {
        case .price: Self.priceScript
        case .group: Self.groupScript
        }
    }

    /// The script for `path`'s last part (`group.js`), or nil.
    init?(file: String) {
        guard file.hasSuffix(".js"), let script = PageScript(rawValue: String(file.dropLast(3))) else { return nil }
        self = script
    }
}
