import Foundation

/// What the pickup screen shows: the pickup numbers being made, those ready to collect, the one most
/// recently ready, and earlier days' uncollected orders apart with their day. Numbers and days only
/// (no names, no drinks, no record ids). Build it from orders with ``init(tickets:today:)``, which makes
/// every decision about what goes where; the page only lays it out.
public struct PickupBoard: Sendable, Equatable {
    /// Today's numbers of orders placed or being made (製作中), in numeric order.
    public var preparing: [Int]
    /// Today's numbers of orders ready to collect (可取餐), in numeric order.
    public var ready: [Int]
    /// The ready number that became ready last: the page keeps it on screen and calls it out.
    public var newestReady: Int?
    /// Earlier business days' orders still waiting to be collected, oldest day first: shown apart, each
    /// with its day, so yesterday's #4 is never read as today's #4.
    public var earlier: [Leftover]
    /// Today's numbers on the board that a counter first gave out as a provisional number while the store
    /// was away (47 → "P1"): the customer's cup says P1, so the screen shows `P1 → 47` until it is collected.
    public var formerNumbers: [Int: String]

    /// An earlier day's ready order.
    public struct Leftover: Sendable, Equatable {
        public var number: Int
        /// The business day, `2026-12-02`.
        public var day: String

        public init(number: Int, day: String) {
            self.number = number
            self.day = day
        }

        /// The day as the screen prints it beside the number: `12/02` (the year is noise on a TV), or the
        /// stored text itself when it is not a `yyyy-MM-dd` day.
        public var dayLabel: String {
            let parts = day.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                  parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } })
            else { return String(day.prefix(10)) }
            return "\(parts[1])/\(parts[2])"
        }
    }

    /// A board exactly as given (tests, and sources that decided already).
    public init(preparing: [Int] = [], ready: [Int] = [], newestReady: Int? = nil, earlier: [Leftover] = [],
                formerNumbers: [Int: String] = [:]) {
        self.preparing = preparing
        self.ready = ready
        self.newestReady = newestReady
        self.earlier = earlier
        self.formerNumbers = formerNumbers
    }

    /// The board for `tickets` on the business day `today` (`yyyy-MM-dd`, compared as text as the shop's
    /// days are):
    /// - today's (and, should the day turn mid-read, later) numbers in numeric order, each once: a customer
    ///   scans for their number, and placement order (…20, 21, 32, 22…) hides it;
    /// - the newest ready is the one with the latest `readyAt`; tickets without one (a base older than the
    ///   step fields) rank by their place in `tickets`, oldest order first, below any that have one;
    /// - an earlier day's *ready* order goes to ``earlier`` with its day; an earlier day's order still
    ///   placed or being made is left out: nobody is making it tonight, and calling it would send a
    ///   customer to the counter for nothing; the counter sees it in `orders`, with its day;
    /// - a number shown today that was first a provisional number keeps that number beside it.
    public init(tickets: [PickupTicket], today: String) {
        var preparing = Set<Int>(), ready = Set<Int>()
        var earlier: [Leftover] = []
        var former: [Int: String] = [:]
        var newest: (readyAt: Date, index: Int, number: Int)?
        for (index, ticket) in tickets.enumerated() where ticket.number > 0 {
            guard ticket.businessDay >= today else {
                if ticket.stage == .ready { earlier.append(Leftover(number: ticket.number, day: ticket.businessDay)) }
                continue
            }
            if let was = ticket.formerNumber { former[ticket.number] = was }
            switch ticket.stage {
            case .preparing:
                preparing.insert(ticket.number)
            case .ready:
                ready.insert(ticket.number)
                let key = (readyAt: ticket.readyAt ?? .distantPast, index: index, number: ticket.number)
                if let best = newest, (best.readyAt, best.index) > (key.readyAt, key.index) { continue }
                newest = key
            }
        }
        // A number both ready and being made today (two orders claimed it) is shown as ready: that is the
        // one a customer can collect, and the counter sorts out the other.
        preparing.subtract(ready)
        var seen = Set<String>()
        earlier = earlier.filter { seen.insert("\($0.number)@\($0.day)").inserted }
        earlier.sort { ($0.day, $0.number) < ($1.day, $1.number) }
        self.init(preparing: preparing.sorted(), ready: ready.sorted(), newestReady: newest?.number, earlier: earlier,
                  formerNumbers: former)
    }

    /// `{"preparing":[...],"ready":[...],"newestReady":7,"earlier":[{"number":4,"day":"2026-12-02","label":"12/02"}],
    /// "formerly":[{"number":47,"was":"P1"}]}` (`formerly` only when there is one): the whole of what the page receives.
    public var json: String {
        let earlierItems = earlier.map { leftover in
            "{\"number\":\(leftover.number),\"day\":\(Self.quoted(leftover.day)),\"label\":\(Self.quoted(leftover.dayLabel))}"
        }
        // In the P numbers' order (P2 before P10): a customer holding a P1 cup looks for P1.
        let formerItems = formerNumbers.sorted { ($0.value.count, $0.value, $0.key) < ($1.value.count, $1.value, $1.key) }
            .map { number, was in
            "{\"number\":\(number),\"was\":\(Self.quoted(was))}"
        }
        return "{\"preparing\":[\(preparing.map(String.init).joined(separator: ","))],"
            + "\"ready\":[\(ready.map(String.init).joined(separator: ","))],"
            + "\"newestReady\":\(newestReady.map(String.init) ?? "null"),"
            + "\"earlier\":[\(earlierItems.joined(separator: ","))]"
            + (formerItems.isEmpty ? "" : ",\"formerly\":[\(formerItems.joined(separator: ","))]") + "}"
    }

    /// A JSON string: the day comes from a stored cell, so it is escaped like any text from outside.
    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            // `<` too, so no text can close the page's script if a board is ever inlined.
            case "<": result += "\\u003c"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// One order as the board model sees it: its pickup number, business day and stage.
public struct PickupTicket: Sendable, Equatable {
    public enum Stage: Sendable, Equatable {
        /// Placed or being made.
        case preparing
        /// Ready to collect.
        case ready
    }

    public var number: Int
    /// The order's business day, `yyyy-MM-dd`.
    public var businessDay: String
    public var stage: Stage
    /// When it became ready, if known.
    public var readyAt: Date?
    /// The provisional number it was given first (`P1`), when a counter kept it while the store was away.
    public var formerNumber: String?

    public init(number: Int, businessDay: String, stage: Stage, readyAt: Date? = nil, formerNumber: String? = nil) {
        self.number = number
        self.businessDay = businessDay
        self.stage = stage
        self.readyAt = readyAt
        self.formerNumber = formerNumber
    }
}

/// Where the pickup screen gets its board. The shop's services implement it (phase 2: the order desk
/// over any backend); the display never reads order records itself.
public protocol PickupBoardSource: Sendable {
    /// The board as it is now. A source that cannot reach its store throws; the page keeps what it shows.
    func currentBoard() async throws -> PickupBoard
    /// A signal that the board may have changed; each call gives a new subscription, which ends when the
    /// source shuts down. The display re-reads ``currentBoard()`` on each element and sends only real changes.
    func boardChanges() -> AsyncStream<Void>
}
