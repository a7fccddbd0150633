import DrinkShop
import DrinkShopCore

/// Everything the ordering page refuses, each with the words a customer reads (Traditional Chinese first,
/// English after) and the HTTP status it is answered with. Callers decide by case, never by the message.
public enum OrderPageRefusal: Error, Sendable, CustomStringConvertible, Equatable {
    /// A manager closed online ordering (`online off`), or never opened it.
    case closed
    /// The business day is closed (`close` at a counter); ordering opens again the next business day.
    case closedForTheDay
    /// The group does not exist, or has expired (groups are kept for a while, see `OrderPageLimits`).
    case noSuchGroup
    /// This browser has not joined the group.
    case notMember
    /// Only the browser that started the group may send it.
    case notOrganiser
    /// The group's order was sent; nothing in it changes any more.
    case alreadySent
    /// The group's order is being sent right now.
    case sending
    /// A line of someone else's.
    case notYourLine
    /// The line is no longer in the group.
    case noSuchLine
    /// Sending a group without lines.
    case emptyGroup
    /// A name that cannot be used: empty, too long, several lines, or a phone number in the name field.
    case name(NameProblem)
    /// A member's mobile number that is not one (`09` and 8 more digits).
    case mobile(String)
    /// The server holds as many open groups as it will.
    case tooManyGroups
    /// This network holds its fair share of the groups the server holds.
    case tooManyGroupsFromNetwork
    /// The group holds as many lines as one order may.
    case groupFull(lines: Int)
    /// The group has as many people as it may.
    case tooManyPeople(Int)
    /// A drink the menu does not have (any more).
    case unknownDrink(String)
    /// A rule of the shop (sold out, 菓玉 not hot, at most two add-ons, required options…).
    case rule(OrderRuleViolation, drink: String)
    /// The number of cups outside what one line may have online.
    case cups(Int, allowed: ClosedRange<Int>)
    /// A note too long, or of several lines.
    case note(NoteProblem)
    /// This network did too much of `kind` lately.
    case quota(QuotaKind, retryAfterSeconds: Int)
    /// The page's open orders would go past a bound (their number, cups or unpaid NT$), in all or for this
    /// network (its fair share of it).
    case tooManyOpenOrders(OnlineBound, network: Bool)
    /// The counter refused the order while sending (a drink sold out meanwhile, the store failing…).
    case notPlaced(String)
    /// The browser sent no key (cookies are off): it cannot prove which lines are its own.
    case cookiesNeeded
    /// A form the page did not send (a field missing or malformed).
    case badForm(String)
    /// A request from another site (its `Origin` is not this server).
    case foreignOrigin
    /// A form without its page's token: sent from another page, or from a page older than the server.
    case staleForm
    /// The shop's store did not answer (the setting, the menu or an order could not be read).
    case storeUnavailable

    public enum NameProblem: Sendable, Equatable {
        case empty, tooLong(max: Int), controlCharacters, looksLikePhoneNumber, lookAlikeLetters
    }

    public enum NoteProblem: Sendable, Equatable {
        case tooLong(length: Int, max: Int), controlCharacters
    }

    /// What a network is limited in.
    public enum QuotaKind: String, Sendable, Equatable {
        case groups, lines, sends
    }

    /// The HTTP status the refusal is answered with.
    public var status: Int {
        switch self {
        case .closed, .closedForTheDay, .tooManyGroups, .tooManyOpenOrders, .storeUnavailable: 503
        case .noSuchGroup, .noSuchLine: 404
        case .notMember, .notOrganiser, .notYourLine, .cookiesNeeded, .foreignOrigin, .staleForm: 403
        case .alreadySent, .sending: 409
        case .quota, .tooManyGroupsFromNetwork: 429
        case .badForm: 400
        case .notPlaced: 502
        case .emptyGroup, .name, .mobile, .groupFull, .tooManyPeople, .unknownDrink, .rule, .cups, .note: 422
        }
    }

    public var description: String {
        switch self {
        case .closed:
            return "目前未開放網路點餐，請至櫃台點餐。Online ordering is closed right now; please order at the counter."
        case .closedForTheDay:
            return "今日已打烊，明天再來點餐。The shop has closed for today; please order again tomorrow."
        case .noSuchGroup:
            return "找不到這個揪團：連結不對，或揪團已過期。This group does not exist or has expired."
        case .notMember:
            return "請先輸入名字加入揪團。Join the group with your name first."
        case .notOrganiser:
            return "只有開團的人可以送出訂單。Only the person who started the group can send it."
        case .alreadySent:
            return "訂單已送出，不能再修改。The order was sent; nothing can change now."
        case .sending:
            return "訂單送出中，請稍候。The order is being sent; wait a moment."
        case .notYourLine:
            return "只能修改或刪除自己點的飲料。You can change or delete only your own drinks."
        case .noSuchLine:
            return "這杯飲料已不在清單上。That drink is no longer on the list."
        case .emptyGroup:
            return "清單上還沒有飲料，請先點一杯。Add a drink before sending."
        case .name(.empty):
            return "請輸入名字。Enter your name."
        case .name(.tooLong(let max)):
            return "名字太長：最多約 \(max / 3) 個中文字（\(max) 位元組）。A name has at most \(max) bytes: \(max) letters or about \(max / 3) Chinese characters."
        case .name(.controlCharacters):
            return "名字只能有一行，不可有隱藏字元。A name is one line of visible text."
        case .name(.lookAlikeLetters):
            return "名字的一個字不可混用外觀相似的拉丁、希臘或西里爾字母。A word of a name cannot mix Latin, Greek or Cyrillic letters that look alike."
        case .name(.looksLikePhoneNumber):
            return "名字欄請填名字；會員手機請填在手機欄。Put your name here; a member's mobile number goes in its own field."
        case .mobile(let problem):
            return "會員手機號碼不對：\(problem)（09 開頭共 10 碼）。Not a mobile number: \(problem) (09 and 8 more digits)."
        case .tooManyGroups:
            return "目前揪團太多，請稍後再試。Too many groups are open; try again later."
        case .tooManyGroupsFromNetwork:
            return "你的網路已開了太多揪團，請稍後再試。Your network has too many groups open; try again later."
        case .groupFull(let lines):
            return "一張訂單最多 \(lines) 項。One order holds at most \(lines) lines."
        case .tooManyPeople(let count):
            return "這個揪團最多 \(count) 人。This group is full (\(count) people)."
        case .unknownDrink(let name):
            return "菜單上沒有「\(name)」。The menu has no \(name)."
        case .rule(let violation, let drink):
            return CustomerWords.rule(violation, drink: drink)
        case .cups(let cups, let allowed):
            return "杯數請選 \(allowed.lowerBound) 到 \(allowed.upperBound) 杯（不是 \(cups)）。Cups: \(allowed.lowerBound) to \(allowed.upperBound), not \(cups)."
        case .note(.tooLong(let length, let max)):
            return "備註太長：最多約 \(max / 3) 個中文字（\(max) 位元組，現在 \(length)）。A note has at most \(max) bytes (about \(max / 3) Chinese characters), not \(length)."
        case .note(.controlCharacters):
            return "備註只能有一行，不可有隱藏字元。A note is one line of visible text."
        case .quota(let kind, let seconds):
            let wait = seconds >= 60 ? "\((seconds + 59) / 60) 分鐘" : "\(seconds) 秒"
            let waitEnglish = seconds >= 60 ? "\((seconds + 59) / 60) min" : "\(seconds) s"
            let what: (String, String) = switch kind {
            case .groups: ("開團", "started groups")
            case .lines: ("加點", "added drinks")
            case .sends: ("送單", "sent orders")
            }
            return "你的網路\(what.0)太頻繁，請 \(wait) 後再試。Your network \(what.1) too often; try again in \(waitEnglish)."
        case .tooManyOpenOrders(.orders(let limit), false):
            return "店裡已有 \(limit) 張網路訂單在製作，請稍後再送或至櫃台點餐。\(limit) online orders are being made; send later or order at the counter."
        case .tooManyOpenOrders(.cups(let limit), false):
            return "網路訂單同時最多 \(limit) 杯，請稍後再送或至櫃台點餐。Online orders hold \(limit) cups at most at once; send later or order at the counter."
        case .tooManyOpenOrders(.unpaid(let limit), false):
            return "尚未付款的網路訂單已達 NT$\(limit)，請稍後再送或至櫃台點餐。Unpaid online orders have reached NT$\(limit); send later or order at the counter."
        case .tooManyOpenOrders(.orders(let limit), true):
            return "你的網路已有 \(limit) 張訂單在製作，請取餐後再送。Your network has \(limit) orders being made; send more once they are collected."
        case .tooManyOpenOrders(.cups(let limit), true):
            return "你的網路的訂單同時最多 \(limit) 杯，請取餐後再送。Your network's open orders may hold \(limit) cups; send more once they are collected."
        case .tooManyOpenOrders(.unpaid(let limit), true):
            return "你的網路尚未付款的訂單最多 NT$\(limit)，請付款後再送。Your network's unpaid orders may come to NT$\(limit); send more once they are paid."
        case .notPlaced(let why):
            return "訂單沒有送出：\(why)"
        case .cookiesNeeded:
            return "請開啟瀏覽器的 Cookie：本頁用它記得哪些飲料是你點的。Turn cookies on: the page uses one to know which drinks are yours."
        case .badForm(let what):
            return "表單不完整：\(what)。The form was incomplete: \(what)."
        case .staleForm:
            return "這個表單已過期或不是從本頁送出，請重新整理頁面再試。This form is out of date or did not come from this page; reload the page and try again."
        case .foreignOrigin:
            return "請從本店的點餐頁送出。Send the form from the shop's own page."
        case .storeUnavailable:
            return "店裡的系統暫時無法連線，請稍後再試或至櫃台點餐。The shop's system is not answering; try again shortly or order at the counter."
        }
    }
}

/// The shop's refusals in a customer's words: Traditional Chinese first, then the English.
enum CustomerWords {
    static func rule(_ violation: OrderRuleViolation, drink: String) -> String {
        switch violation {
        case .soldOut:
            return "\(drink)已售完。\(drink) is sold out."
        case .ingredientSoldOut(_, let ingredient):
            return "\(drink) 售完（\(ingredient)已售完）。\(drink) is sold out: the \(ingredient) has run out."
        case .sizeSoldOut(_, let size):
            return "\(drink) \(size.rawValue)已售完，請改選其他尺寸。\(drink) in \(size.englishLabel) is sold out; choose another size."
        case .addOnSoldOut(let addOn):
            return "\(addOn.rawValue)已售完，請不加或改選其他配料。\(addOn.englishLabel) is sold out; order without it."
        case .missingRequired(let groups):
            let chinese = groups.map(\.chineseName).joined(separator: "、")
            return "請選擇\(chinese)（\(chinese)為必填）。Choose the \(groups.map(\.englishName).joined(separator: ", "))."
        case .conflictingChoice(let group, _, _):
            return "\(group.chineseName)只能選一個。Choose one \(group.englishName)."
        case .sizeUnavailable(_, let size):
            return "\(drink)沒有\(size.rawValue)。\(drink) does not come in \(size.englishLabel)."
        case .notServedHot(_, let ice):
            return "\(drink)不可做\(ice.rawValue)飲，請重選溫度。\(drink) cannot be served \(ice.englishLabel.lowercased())."
        case .tooManyAddOns(let count):
            return "加料最多選擇 \(OrderRules.maximumAddOns) 項（選了 \(count) 項）。At most \(OrderRules.maximumAddOns) add-ons, not \(count)."
        case .duplicateAddOn(let addOn):
            return "\(addOn.shortName)只能加一次。\(addOn.englishLabel) at most once."
        case .addOnNotServedHot(let addOn, _):
            return "\(addOn.shortName)無法於溫熱飲中製作，請重選溫度或配料。\(addOn.englishLabel) cannot go into a warm or hot drink; choose another temperature or add-on."
        case .quantityOutOfRange(let quantity):
            return "杯數不對（\(quantity)）。Not a number of cups: \(quantity)."
        case .noteTooLong(let length):
            return "備註太長（\(length) 位元組）。The note is too long (\(length) bytes)."
        case .noteHasControlCharacters:
            return "備註只能有一行，不可有隱藏字元。A note is one line of visible text."
        }
    }

    /// Why the counter did not place the order, for the organiser.
    static func notPlaced(_ error: ShopError) -> String {
        switch error {
        case .rule(let violation, let drink, let line):
            return (line.map { "第 \($0) 項 line \($0): " } ?? "") + rule(violation, drink: drink)
        case .drink(let error, let line):
            return (line.map { "第 \($0) 項 line \($0): " } ?? "") + "菜單上找不到這杯飲料。\(error)"
        case .store, .pickupNumbersExhausted:
            return "店裡的系統暫時無法接單，請稍後再試或至櫃台點餐。The shop's system cannot take orders right now; try again or order at the counter."
        default:
            return "\(error)"
        }
    }
}
