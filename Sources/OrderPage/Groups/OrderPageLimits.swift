/// The ordering page's bounds: how long groups live, how big they grow, how much one client network may do
/// (a network never takes more than its fair share of a bound held in all: `FairShare`).
/// Every number a street could push on has one here; tests make them small.
public struct OrderPageLimits: Sendable {
    /// How long an unsent group is kept (in the store, across restarts of the server) after it was started.
    public var groupLifetime: Double = 2 * 60 * 60
    /// How long a sent group is kept after sending, so its page can follow the order to pickup.
    public var sentLifetime: Double = 2 * 60 * 60
    /// Groups held at once (unsent and sent): the memory the page may use.
    public var groups = 1_000
    /// Lines in one group (one order).
    public var linesPerGroup = 40
    /// People in one group.
    public var peoplePerGroup = 30
    /// Cups one line may have.
    public var cupsPerLine: ClosedRange<Int> = 1...20
    /// The longest name, in UTF-8 bytes (20 Chinese characters; the name goes into the line's note: `for NAME`).
    /// Bytes, not `Character`s: one Character can hold any number of combining marks.
    public var nameLength = 60
    /// The longest note a person adds to a drink, in UTF-8 bytes (50 Chinese characters).
    public var noteLength = 150
    /// Orders from the page still open (placed, being made, ready) before the next is refused.
    public var openOnlineOrders = 20
    /// Cups in the page's open orders, at most (a group order holds up to 40 lines of 20 cups).
    public var openOnlineCups = 200
    /// NT$ the page's open orders may leave unpaid, at most: what the shop makes before anyone has paid.
    public var openOnlineUnpaid = 12_000
    /// Groups one network may start: a burst, then one more each `every` seconds.
    public var groupsPerNetwork = NetworkQuota.Rate(burst: 6, every: 10 * 60)
    /// Lines one network may add or change (refused attempts count too).
    public var linesPerNetwork = NetworkQuota.Rate(burst: 60, every: 20)
    /// Orders one network may send.
    public var sendsPerNetwork = NetworkQuota.Rate(burst: 6, every: 5 * 60)

    public init() {}
}
