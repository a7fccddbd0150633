import DrinkShop
import DrinkShopCore
import Foundation
import HTTPServer

/// What each of the page's paths does. Reads show a page; every form answers with a redirect to the page to
/// show next (303), or with the same form again and the refusal on top.
extension OrderPage {
    private static let home = (href: "/order", label: "網路點餐 Order online")

    func get(_ route: Route, _ exchange: Exchange) async -> HTTPResponse {
        switch route {
        case .landing:
            let closed = await closedNow()
            return page(StartPages.landing(shop: title, closed: closed, limits: limits, token: tokenField(exchange)),
                        status: closed == nil ? 200 : 503, newCookie: exchange.newCookie)
        case .group(let id):
            return await groupPage(id, exchange)
        case .menu(let id):
            do throws(OrderPageRefusal) {
                try memberOfOpenGroup(id, exchange)
                return page(MenuPages.menu(shop: title, group: id, menu: try await menu()), newCookie: exchange.newCookie)
            } catch .notMember {
                return redirect(GroupPaths.base(id), newCookie: exchange.newCookie)
            } catch {
                return refusal(error, exchange, back: back(to: id, error))
            }
        case .drink(let id):
            do throws(OrderPageRefusal) {
                try memberOfOpenGroup(id, exchange)
                let name = FormFields(query: exchange.request.query)?["d"] ?? ""
                let drink = try await drinkOnMenu(name)
                guard drink.available else { throw OrderPageRefusal.rule(.soldOut(drink: drink.name), drink: drink.name) }
                if let ingredient = drink.missingIngredient {
                    throw OrderPageRefusal.rule(.ingredientSoldOut(drink: drink.name, ingredient: ingredient), drink: drink.name)
                }
                return await drinkForm(id, drink, line: nil, chosen: MenuPages.Chosen(), exchange)
            } catch .notMember {
                return redirect(GroupPaths.base(id), newCookie: exchange.newCookie)
            } catch {
                return refusal(error, exchange, back: (GroupPaths.menu(id), "← 菜單 Menu"))
            }
        case .line(let id, let lineID):
            do throws(OrderPageRefusal) {
                guard let browser = exchange.browser else { throw OrderPageRefusal.notMember }
                let line = try book.ownLine(id, line: lineID, by: browser)
                let drink = try await drinkOnMenu(line.line.drinkName)
                return await drinkForm(id, drink, line: lineID, chosen: MenuPages.Chosen(line.line.choices), exchange)
            } catch {
                return refusal(error, exchange, back: back(to: id, error))
            }
        case .events(let id):
            guard let browser = exchange.browser, let group = try? book.snapshot(id, for: browser), group.isMember else {
                return .text("Join the group first.\n", status: 403)
            }
            if exchange.request.method == "HEAD" { return HTTPResponse(status: 200, headers: ServerSentEvent.responseHeaders) }
            return .eventStream(GroupEventStream.start(group: id, viewer: browser, book: book, counter: shop.counter,
                                                       storeChanges: storeChanges(), heartbeat: heartbeat))
        case .script(let script):
            return .script(script.source)
        case .start, .join, .addLine, .changeLine, .deleteLine, .send:
            return .text("Use POST here.\n", status: 405)
        }
    }

    func post(_ route: Route, _ exchange: Exchange, _ form: FormFields) async -> HTTPResponse {
        guard let browser = exchange.browser else { return refusal(.cookiesNeeded, exchange, back: Self.home) }
        switch route {
        case .start:
            let name = form["name"] ?? "", mobile = form["mobile"] ?? ""
            do throws(OrderPageRefusal) {
                try await requireOpen()
                try guards.take(.groups, for: exchange.network)
                let id = try await book.start(by: browser, from: exchange.network, name: name, mobile: mobile)
                return redirect(GroupPaths.base(id))
            } catch {
                let closed: OrderPageRefusal? = [.closed, .closedForTheDay, .storeUnavailable].contains(error) ? error : nil
                return retrying(page(StartPages.landing(shop: title, closed: closed, message: closed == nil ? error.description : nil, name: name, mobile: mobile,
                                                        limits: limits, token: tokenField(exchange)), status: error.status, newCookie: nil), error)
            }
        case .join(let id):
            do throws(OrderPageRefusal) {
                try await requireOpen()
                try await book.join(id, by: browser, name: form["name"] ?? "")
                return redirect(GroupPaths.base(id))
            } catch .noSuchGroup {
                return refusal(.noSuchGroup, exchange, back: ("/order", "開新的揪團 Start a new group"))
            } catch {
                return await groupPage(id, exchange, message: error.description, status: error.status)
            }
        case .addLine(let id), .changeLine(let id, _):
            var lineID: Int?
            if case .changeLine(_, let line) = route { lineID = line }
            return await saveLine(id, line: lineID, browser: browser, exchange, form)
        case .deleteLine(let id, let lineID):
            do throws(OrderPageRefusal) {
                try await requireOpen()
                try await book.deleteLine(id, line: lineID, by: browser)
                return redirect(GroupPaths.base(id) + "#lines")
            } catch {
                return await groupPage(id, exchange, message: error.description, status: error.status)
            }
        case .send(let id):
            return await send(id, browser: browser, exchange)
        case .landing, .script, .group, .menu, .drink, .line, .events:
            return .text("Use GET here.\n", status: 405)
        }
    }

    // MARK: - Lines

    private func saveLine(_ id: GroupID, line lineID: Int?, browser: BrowserKey, _ exchange: Exchange, _ form: FormFields)
        async -> HTTPResponse
    {
        let drink: Drink
        do throws(OrderPageRefusal) {
            try await requireOpen()
            try memberOfOpenGroup(id, exchange)
            try guards.take(.lines, for: exchange.network)
            drink = try await drinkOnMenu(form["drink"] ?? "")
        } catch {
            return refusal(error, exchange, back: back(to: id, error))
        }
        let (choices, unreadable) = Self.choices(from: form)
        do throws(OrderPageRefusal) {
            if let unreadable { throw OrderPageRefusal.badForm(unreadable) }
            if let lineID {
                try await book.replaceLine(id, line: lineID, by: browser, drink: drink, choices: choices)
            } else {
                try await book.addLine(id, by: browser, drink: drink, choices: choices)
            }
            return redirect(GroupPaths.base(id) + "#lines")
        } catch {
            switch error {
            case .rule, .cups, .note, .badForm:
                var missing: Set<OptionGroup> = []
                if case .rule(.missingRequired(let groups), _) = error { missing = Set(groups) }
                return await drinkForm(id, drink, line: lineID, chosen: MenuPages.Chosen(choices), exchange,
                                       message: error.description, missing: missing, status: error.status)
            default:
                return refusal(error, exchange, back: back(to: id, error))
            }
        }
    }

    /// The choices a drink form sent; the second value names a field that is not one of the shop's values.
    static func choices(from form: FormFields) -> (DrinkChoices, unreadable: String?) {
        var choices = DrinkChoices()
        var unreadable: String?
        if let text = form["size"] { choices.size = CupSize(rawValue: text); if choices.size == nil { unreadable = "尺寸 size" } }
        if let text = form["ice"] { choices.ice = IceLevel(rawValue: text); if choices.ice == nil { unreadable = "溫度 ice" } }
        if let text = form["sugar"] { choices.sugar = SugarLevel(rawValue: text); if choices.sugar == nil { unreadable = "甜度 sugar" } }
        for text in form.all("addon") {
            guard let addOn = AddOn(rawValue: text) else { unreadable = "加料 add-on"; continue }
            choices.addOns.append(addOn)
        }
        let cups = (form["cups"] ?? "1").trimmingCharacters(in: .whitespaces)
        if let count = Int(cups), cups.count <= 4 { choices.quantity = count } else { unreadable = "杯數 cups" }
        let note = form["note"] ?? ""
        choices.note = note.isEmpty ? nil : note
        return (choices, unreadable)
    }

    // MARK: - Sending

    private func send(_ id: GroupID, browser: BrowserKey, _ exchange: Exchange) async -> HTTPResponse {
        let draft: OrderDraft, member: MobileNumber?, orderRef: String?
        do throws(OrderPageRefusal) {
            try await requireOpen()
            try guards.take(.sends, for: exchange.network)
            (draft, member, orderRef) = try await book.beginSendingWithMember(id, by: browser)
        } catch {
            return retrying(await groupPage(id, exchange, message: error.description, status: error.status), error)
        }
        let counter = shop.counter, guards = guards, network = exchange.network
        let bounds = OnlineOrderBounds(orders: limits.openOnlineOrders, cups: limits.openOnlineCups, unpaid: limits.openOnlineUnpaid)
        let result = await guards.sends.run { () async -> Result<OnlineTicket, OnlineRefusal> in
            do throws(OnlineRefusal) {
                let ticket = try await counter.placeOnline(draft, member: member, within: bounds, from: guards.sender(network),
                                                            orderRef: orderRef)
                guards.placed(ticket.orderRef, by: network)
                return .success(ticket)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let ticket):
            await book.sent(id, as: ticket)
            placed(ticket)
            return redirect(GroupPaths.base(id))
        case .failure(let error):
            await book.notSent(id)
            let refusal: OrderPageRefusal = switch error {
            case .closed: .closed
            case .closedForTheDay: .closedForTheDay
            case .tooManyOpen(let bound, let yourShare): .tooManyOpenOrders(bound, network: yourShare)
            case .refused(let shopError): .notPlaced(CustomerWords.notPlaced(shopError))
            }
            return await groupPage(id, exchange, message: refusal.description, status: refusal.status)
        }
    }

    // MARK: - Helpers

    private func memberOfOpenGroup(_ id: GroupID, _ exchange: Exchange) throws(OrderPageRefusal) {
        let group = try book.snapshot(id, for: exchange.browser)
        guard group.isMember else { throw .notMember }
        switch group.state {
        case .open: return
        case .sending: throw .sending
        case .sent: throw .alreadySent
        }
    }

    private func drinkOnMenu(_ name: String) async throws(OrderPageRefusal) -> Drink {
        let menu = try await menu()
        guard let drink = menu.drinks.first(where: { $0.name == name }) else {
            throw .unknownDrink(String(String.UnicodeScalarView(name.unicodeScalars.prefix(30))))
        }
        return drink
    }

    /// The form for a new line of `drink` (`line` nil) or for changing the browser's line `line`.
    private func drinkForm(_ id: GroupID, _ drink: Drink, line: Int?, chosen: MenuPages.Chosen, _ exchange: Exchange,
                           message: String? = nil, missing: Set<OptionGroup> = [], status: Int = 200) async -> HTTPResponse
    {
        let action = line.map { GroupPaths.line(id, $0) } ?? GroupPaths.lines(id)
        return page(MenuPages.drink(shop: title, group: id, drink: drink, action: action, chosen: chosen, editing: line != nil,
                                    message: message, missing: missing, limits: limits,
                                    pricing: await linePricing(id, line: line, exchange), token: tokenField(exchange)),
                    status: status, newCookie: exchange.newCookie)
    }

    /// Where to go after a refusal: the group's page while the group exists, else a new group.
    private func back(to id: GroupID, _ refusal: OrderPageRefusal) -> (href: String, label: String) {
        refusal == .noSuchGroup ? ("/order", "開新的揪團 Start a new group") : (GroupPaths.base(id), "← 回訂單 Back to the order")
    }
}
