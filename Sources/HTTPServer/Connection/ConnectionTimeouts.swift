/// How long a connection may take at each stage before the server gives up on it.
///
/// Each is a total for its stage, not a gap between bytes: a client trickling one byte a second
/// still runs into the header deadline.
public struct ConnectionTimeouts: Sendable, Equatable {
    /// From accepting a connection, or from the first byte of a later request, to the end of its header
    /// section; on expiry the client gets 408 and the connection closes.
    public var header: Duration
    /// From the end of the header section to the end of the body; 408 and close on expiry.
    public var body: Duration
    /// How long a kept-alive connection may wait between requests; it is closed quietly after.
    public var idle: Duration
    /// How long a response may take to be written to a client that reads slowly.
    public var write: Duration
    /// After the last response on a closing connection: how long unread input is drained so the
    /// client receives that response instead of a reset.
    public var linger: Duration

    /// Timeouts with the given values; the defaults suit a server on a trusted network.
    public init(
        header: Duration = .seconds(10), body: Duration = .seconds(30), idle: Duration = .seconds(60),
        write: Duration = .seconds(30), linger: Duration = .seconds(2)
    ) {
        self.header = header
        self.body = body
        self.idle = idle
        self.write = write
        self.linger = linger
    }
}
