import DrinkShop
import DrinkShopCore
import Foundation
import HTTPServer

/// How the page answers: HTML with its headers, redirects after a form, refusals, and what it reads of the shop.
extension OrderPage {
    static let pageHeaders: HTTPHeaders = [
        "Content-Type": "text/html; charset=utf-8",
        // A page shows one browser's own view of a group: no cache keeps it for another.
        "Cache-Control": "no-store",
        // Nothing from elsewhere: the page's own inline style, its script files (never inline script: markup
        // that slipped into a page runs nothing), its event stream, its forms.
        "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
            + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff",
        // Not `no-referrer`: with it, browsers send `Origin: null` with the page's own forms.
        "Referrer-Policy": "same-origin",
    ]

    /// The hidden field that proves a form came from `exchange`'s browser's own page (``FormToken``).
    func tokenField(_ exchange: Exchange) -> String {
        exchange.browser.map { formToken.hiddenField(for: $0) } ?? ""
    }

    func page(_ html: String, status: Int = 200, newCookie: BrowserKey?) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: Self.pageHeaders, body: Array(html.utf8))
        if let newCookie { response.headers.add(name: "Set-Cookie", value: BrowserCookie.setting(newCookie)) }
        return response
    }

    /// After a form: the page to show next (303, so reloading it does not post again).
    func redirect(_ location: String, newCookie: BrowserKey? = nil) -> HTTPResponse {
        var response = HTTPResponse(status: 303, headers: ["Location": location, "Cache-Control": "no-store"])
        if let newCookie { response.headers.add(name: "Set-Cookie", value: BrowserCookie.setting(newCookie)) }
        return response
    }

    func refusal(_ refusal: OrderPageRefusal, _ exchange: Exchange, back: (href: String, label: String)) -> HTTPResponse {
        retrying(page(StartPages.refusal(shop: title, refusal.description, back: back), status: refusal.status,
                      newCookie: exchange.newCookie), refusal)
    }

    /// `response` with `Retry-After` when `refusal` is an address's quota.
    func retrying(_ response: HTTPResponse, _ refusal: OrderPageRefusal) -> HTTPResponse {
        guard case .quota(_, let seconds) = refusal else { return response }
        var response = response
        response.headers.add(name: "Retry-After", value: String(seconds))
        return response
    }

    /// Why the page takes no orders now, as the store says (nil: it takes them): ordering closed, the business day
    /// closed, or a store that does not answer.
    func closedNow() async -> OrderPageRefusal? {
        do {
            switch try await shop.counter.onlineOrderingRefusal() {
            case nil: return nil
            case .closedForTheDay: return .closedForTheDay
            case .closed, .tooManyOpen, .refused: return .closed
            }
        } catch {
            return .storeUnavailable
        }
    }

    /// Succeeds only while online ordering is open.
    func requireOpen() async throws(OrderPageRefusal) {
        if let refusal = await closedNow() { throw refusal }
    }

    /// The menu as the store has it now (a sold-out or restocked drink shows on the next page, not after the
    /// catalog's 30 s): the served store is the embedded one, where reading the menu is one small listing.
    func menu() async throws(OrderPageRefusal) -> Menu {
        do { return try await shop.catalog.menu(refresh: true) } catch { throw .storeUnavailable }
    }

    /// The promotion the counter would give `group`'s lines now (an estimate: the counter prices the order).
    func promotion(for group: GroupSnapshot) async -> AppliedPromotion? {
        guard !group.lines.isEmpty, let promotions = try? await shop.catalog.promotions() else { return nil }
        return Pricing.bestPromotion(for: group.orderLines, among: promotions, at: shop.clock.now())
    }

    /// How the drink form prices its line: among `group`'s lines as the browser sees them now (a changed line in its
    /// place, a new one last), with the promotions the group's page applies (`promotion(for:)`).
    func linePricing(_ id: GroupID, line: Int?, _ exchange: Exchange) async -> LinePricing {
        guard let group = try? book.snapshot(id, for: exchange.browser) else { return LinePricing(now: shop.clock.now()) }
        let lines = group.orderLines
        let place = line.flatMap { line in group.lines.firstIndex { $0.id == line } }
        return LinePricing(before: place.map { Array(lines[..<$0]) } ?? lines,
                           after: place.map { Array(lines[($0 + 1)...]) } ?? [],
                           promotions: (try? await shop.catalog.promotions()) ?? [], now: shop.clock.now())
    }

    /// `14:30`: when a group expires, on the shop's clock.
    func clockTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = shop.clock.timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let hour = parts.hour ?? 0, minute = parts.minute ?? 0
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// The group's page for `exchange`'s browser, with `message` on top when something was refused.
    func groupPage(_ id: GroupID, _ exchange: Exchange, message: String? = nil, status: Int = 200) async -> HTTPResponse {
        let group: GroupSnapshot
        do { group = try book.snapshot(id, for: exchange.browser) } catch {
            return refusal(error, exchange, back: ("/order", "開新的揪團 Start a new group"))
        }
        let closed = await closedNow()
        guard group.isMember else {
            return page(StartPages.join(shop: title, group: group, closed: closed, message: message, limits: limits,
                                        token: tokenField(exchange)),
                        status: status, newCookie: exchange.newCookie)
        }
        // Once sent, the order as the counter holds it now (its status, and its drinks and price after an edit).
        var placed: OnlineOrder?
        if case .sent(let ticket, _) = group.state { placed = try? await shop.counter.onlineOrder(ticket) }
        let estimate = placed == nil ? await promotion(for: group) : nil
        let context = GroupPage.Context(shop: title, group: placed.map(group.showing) ?? group, closed: closed,
                                        promotion: placed.map(\.promotion) ?? estimate,
                                        status: placed?.status, bill: placed?.bill, origin: exchange.origin,
                                        expiresAt: clockTime(group.expiresAt), message: message, token: tokenField(exchange))
        return page(GroupPage.html(context), status: status, newCookie: exchange.newCookie)
    }
}
