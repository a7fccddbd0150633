/// What the pickup screen shows: the pickup numbers being made and those ready to collect, and
/// nothing else (no names, no drinks, no record ids).
public struct PickupBoard: Sendable, Equatable {
    /// Numbers of orders placed or being made (製作中), oldest first.
    public var preparing: [Int]
    /// Numbers of orders ready to collect (可取餐), oldest first.
    public var ready: [Int]

    public init(preparing: [Int] = [], ready: [Int] = []) {
        self.preparing = preparing
        self.ready = ready
    }

    /// `{"preparing":[...],"ready":[...]}`: the whole of what the page receives.
    public var json: String {
        "{\"preparing\":[\(preparing.map(String.init).joined(separator: ","))],"
            + "\"ready\":[\(ready.map(String.init).joined(separator: ","))]}"
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
