import DrinkShop
import DrinkShopCore
import Foundation
import HTTPServer

/// The customers' ordering page at `/order`: server-rendered forms that work without JavaScript, for one
/// person or a group (揪團), sent to the counter as one order through the customers' front of the shop's use
/// cases (`Counter.placeOnline`), then followed live to pickup. Tokenless like the pickup screen, and as
/// narrow: it can start and change open groups (kept in the store, see ``GroupBook``), place their orders while a
/// manager has opened online ordering, and read the status of the orders it placed; nothing else of the shop,
/// its staff, payments or API. Every other path is not its business (``respond(to:)`` returns nil).
///
/// ```swift
/// let page = OrderPage(shop: shop, storeChanges: { board.boardChanges() }, placed: { _ in board.changed() })
/// let server = HTTPServer(configuration: configuration, handler: page.handler { await api.handle($0) })
/// ```
public struct OrderPage: PathRoutes {
    public static let path = "/order"

    let shop: Shop
    public let book: GroupBook
    let storeChanges: @Sendable () -> AsyncStream<Void>
    let placed: @Sendable (OnlineTicket) -> Void
    let heartbeat: Duration
    let title: String
    let guards: PageGuards
    /// Proves a post came from the browser's own page.
    let formToken = FormToken()

    /// - Parameters:
    ///   - book: the groups; by default a new, empty book on the shop's clock with `OrderPageLimits()`.
    ///   - storeChanges: a new subscription to "the store may have changed" (the server's writes and tick);
    ///     a sent group's page reads its order's status again on each.
    ///   - placed: told of each order the page places (the pickup screen shows it at once; its stickers print).
    ///   - seconds: monotonic seconds for the per-network quotas (tests move it).
    public init(shop: Shop, book: GroupBook? = nil, storeChanges: @escaping @Sendable () -> AsyncStream<Void>,
                placed: @escaping @Sendable (OnlineTicket) -> Void = { _ in }, heartbeat: Duration = .seconds(15), title: String = "可不可熟成紅茶",
                seconds: (@Sendable () -> Double)? = nil)
    {
        let clock = shop.clock
        let book = book ?? GroupBook(now: { clock.now() })
        self.shop = shop
        self.book = book
        self.storeChanges = storeChanges
        self.placed = placed
        self.heartbeat = heartbeat
        self.title = title
        guards = PageGuards(limits: book.limits, seconds: seconds ?? PageGuards.systemSeconds)
    }

    var limits: OrderPageLimits { book.limits }

    /// A server handler that answers the page's paths and passes every other request to `otherRoutes`.
    /// The response to a request for the page, or nil when the request is for another route.
    public func respond(to request: HTTPRequest) async -> HTTPResponse? {
        guard Self.claims(request) else { return nil }
        guard var route = Route(path: request.path) else {
            return page(StartPages.refusal(shop: title, "這裡沒有頁面。There is no page here.", back: ("/order", "網路點餐 Order online")),
                        status: 404, newCookie: nil)
        }
        if case .line(let id, let line) = route, request.method == "POST" { route = .changeLine(id, line) }
        let isGet = request.method == "GET" || request.method == "HEAD"
        guard isGet == !route.isPost else {
            var response = HTTPResponse.text("Use \(route.isPost ? "POST" : "GET") here.\n", status: 405)
            response.headers.replaceOrAdd(name: "Allow", value: route.isPost ? "POST" : "GET, HEAD")
            return response
        }
        if case .script(let script) = route {
            guard request.body.isEmpty else { return .text("GET takes no request body\n", status: 400) }
            return .script(script.source)
        }
        var exchange = Exchange(request: request, browser: BrowserCookie.key(in: request.headers.values(for: "Cookie")))
        if isGet {
            guard request.body.isEmpty else { return .text("GET takes no request body\n", status: 400) }
            if exchange.browser == nil {
                // A browser's first visit: it gets its key, which will prove which lines are its own.
                let key = BrowserKey.make()
                exchange.browser = key
                exchange.newCookie = key
            }
            return await get(route, exchange)
        }
        guard Self.sameOrigin(request) else { return refusal(.foreignOrigin, exchange, back: ("/order", "網路點餐 Order online")) }
        guard request.body.count <= FormFields.maximumBytes else { return .text("The form is too large.\n", status: 413) }
        guard let form = FormFields(request.body) else {
            return refusal(.badForm("無法讀取 unreadable"), exchange, back: ("/order", "網路點餐 Order online"))
        }
        guard let browser = exchange.browser else { return refusal(.cookiesNeeded, exchange, back: ("/order", "網路點餐 Order online")) }
        // The cookie and the Origin are not enough: a page on another port of the same site sends both (`null`
        // through a redirect, the Lax cookie because it is same-site). Only the browser's own page has the token.
        guard formToken.accepts(form[FormToken.field], for: browser) else {
            return refusal(.staleForm, exchange, back: ("/order", "網路點餐 Order online"))
        }
        return await post(route, exchange, form)
    }

    /// A POST whose `Origin` (browsers send one with forms) names another site is refused. `null` (a browser
    /// that hides where a form came from, or a form sent on through a redirect) passes here: what stops such a
    /// post is the form's ``FormToken``, which only the browser's own page holds.
    static func sameOrigin(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headers["Origin"], origin != "null" else { return true }
        guard let host = request.headers["Host"], let schemeEnd = origin.range(of: "://") else { return false }
        return origin[schemeEnd.upperBound...] == host[...]
    }

    /// One request as the page handles it: who asks, and the key to give a new browser.
    struct Exchange {
        let request: HTTPRequest
        var browser: BrowserKey?
        var newCookie: BrowserKey?

        /// The client's network, which every quota counts.
        var network: ClientNetwork { ClientNetwork(remoteAddress: request.remoteAddress) }
        /// `http://host` as the browser reached the server.
        var origin: String { "http://" + (request.headers["Host"] ?? "127.0.0.1") }
    }

    /// The page's paths.
    enum Route: Equatable {
        case landing, start
        /// A page's script file, `/order/script/<name>.js`.
        case script(PageScript)
        case group(GroupID), join(GroupID), menu(GroupID), drink(GroupID), addLine(GroupID)
        case line(GroupID, Int), changeLine(GroupID, Int), deleteLine(GroupID, Int), send(GroupID), events(GroupID)

        /// The route for `path`; `line` and `changeLine` share theirs (GET shows, POST changes).
        init?(path: String) {
            var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            guard parts.first == "order" else { return nil }
            parts.removeFirst()
            if parts.isEmpty { self = .landing; return }
            if parts == ["start"] { self = .start; return }
            if parts.count == 2, parts[0] == "script", let script = PageScript(file: parts[1]) { self = .script(script); return }
            guard parts.count >= 2, parts[0] == "g", let id = GroupID(parts[1]) else { return nil }
            let rest = Array(parts.dropFirst(2))
            switch rest.count {
            case 0: self = .group(id)
            case 1:
                switch rest[0] {
                case "join": self = .join(id)
                case "menu": self = .menu(id)
                case "drink": self = .drink(id)
                case "lines": self = .addLine(id)
                case "send": self = .send(id)
                case "events": self = .events(id)
                default: return nil
                }
            case 2, 3:
                guard rest[0] == "lines", let line = Int(rest[1]), line > 0, line < 1_000_000 else { return nil }
                if rest.count == 3 {
                    guard rest[2] == "delete" else { return nil }
                    self = .deleteLine(id, line)
                } else {
                    self = .line(id, line)
                }
            default: return nil
            }
        }

        var isPost: Bool {
            switch self {
            case .start, .join, .addLine, .changeLine, .deleteLine, .send: true
            case .landing, .script, .group, .menu, .drink, .line, .events: false
            }
        }
    }
}
