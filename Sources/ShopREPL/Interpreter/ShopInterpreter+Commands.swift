import DrinkShop
import DrinkShopCore

/// Each command's handler: the one switch from a parsed `Command` to the method that runs it (its access was
/// checked before, by its entry in the one table, `CommandSpec`).
extension ShopInterpreter {
    func execute(_ command: Command) async throws {
        switch command {
        case .menu(let filter, let json): try await showMenu(filter: filter, json: json)
        case .order(let draft): try await placeOrder(draft)
        case .orders(let filter, let json, let days): try await listOrders(filter, json: json, days: days)
        case .watchOrders: try await watchOrders()
        case .edit(let number, let line, let change): try await edit(number, line: line, change: change)
        case .advance(let number, let unpaid): try await advanceAndTell(number, unpaid: unpaid)
        case .cancel(let number, let reason): try await cancel(number, reason: reason)
        case .void(let number, let reason): try await void(number, reason: reason)
        case .delete(let number, let confirmed): try await delete(number, confirmed: confirmed)
        case .label(let number, let cup, let preview): try await label(number, cup: cup, preview: preview)
        case .receipt(let number, let preview): try await receipt(number, preview: preview)
        case .seed(let path, let replace): try await seed(path, replace: replace)
        case .banner(let move): try await showBanner(move)
        case .promos: try await showPromotions()
        case .printer(let role, let address): try await printer(role, address: address)
        case .online(let on): try await online(on)
        case .report(let json, let days): try await showReport(json: json, days: days)
        case .log(let days): try await showLog(days: days)
        case .login(let name): try await logIn(name)
        case .logout: logOut()
        case .help(let topic): say(try HelpView.text(topic: topic, style: style, width: screenWidth))
        case .quit: break
        case .pay(let number, let method, let amount): try await pay(number, method, amount)
        case .adjust(let number, let uses): try await adjust(number, uses)
        case .invoice(let number, let text): try await invoice(number, text)
        case .soldOut(let drink): try await changeMenu(drink, .soldOut)
        case .restock(let drink): try await changeMenu(drink, .restock)
        case .price(let drink, let size, let price): try await changeMenu(drink, .price(size, price))
        case .staffList: try await listStaff()
        case .staffAdd(let name, let role): try await addStaff(name, role: role)
        case .staffPIN(let name): try await setPIN(for: name)
        case .staffNoPIN(let name): try await removePIN(for: name)
        case .staffRemove(let name): try await removeStaff(name)
        case .shiftShow: try await showShift()
        case .shiftOpen(let float): try await openShift(float: float)
        case .close(let counted, let archive): try await closeDrawer(counted: counted, archive: archive)
        case .archive(let request): try await runArchive(request)
        case .einvoice(let request): try await runEInvoice(request)
        case .export(let path, let from, let to): try await export(path: path, from: from, to: to)
        case .member(let text): try await showMember(text)
        case .redeem(let number, let cups): try await redeem(number, cups: cups)
        case .buyPass(let text, let name): try await sellPass(name, to: text)
        }
    }

    /// `advance #N`: the order moved on, and a ready one called out with its pickup number.
    private func advanceAndTell(_ number: OrderNumber, unpaid: Bool) async throws {
        let stored = try await advance(number, unpaid: unpaid)
        let order = stored.order
        if order.status == .ready {
            let label = number.description.dropFirst()
            say(style.paint("取餐號 \(label) 可取餐 — order \(number) for \(order.orderName) is ready", .green, .bold)
                + "\n")
        } else {
            say("\(Self.name(stored, today: shop.clock.today) ?? number.description) is now \(order.status.rawValue) (\(order.status.chineseLabel))\n")
        }
    }

    private func seed(_ path: String, replace: Bool) async throws {
        let report = try await shop.counter.seed(contentsOf: path, replace: replace, by: try await acting())
        say(SeedView.summary(report, path: path))
    }

    private func logOut() {
        // A one-shot command's PIN grant ends too.
        if let grants = credentials.grants { grants.end(staff ?? defaultStaff) }
        say(staff.map { "Goodbye, \($0).\n" } ?? (credentials.grants != nil ? "\(defaultStaff)'s PIN is asked for again from now on.\n" : "Nobody was logged in.\n"))
        staff = nil
        staffRole = nil
    }
}
