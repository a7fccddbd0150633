/// Who is served: the server's caps on connections and streamed responses, in total and per client address.
///
/// A pure ledger of what is open, by address, that the event loop asks before serving a new connection or
/// relaying a stream, and tells when either ends. The per-address caps sit well below the totals, so no one
/// address (a script holding 500 idle sockets, a page opening stream after stream without reading) can take
/// every slot: the pickup screen and the counters on other addresses still get in.
struct AdmissionPolicy: Sendable {
    /// The caps.
    struct Limits: Sendable, Equatable {
        var connections: Int
        var connectionsPerAddress: Int
        var streams: Int
        var streamsPerAddress: Int
    }

    /// The answer to one request for a slot.
    enum Decision: Sendable, Equatable {
        case admit
        /// Refused; the message says why, for the 503's body.
        case refuse(String)
    }

    let limits: Limits
    private(set) var connections = 0
    private(set) var streams = 0
    private var connectionsByAddress: [String: Int] = [:]
    private var streamsByAddress: [String: Int] = [:]

    init(limits: Limits) {
        self.limits = limits
    }

    /// The client part of an address as the socket layer writes it (`127.0.0.1:51234`, `[::1]:51234`): the
    /// host, without the port. A connection whose address is unknown counts under "".
    static func client(of remoteAddress: String?) -> String {
        guard let remoteAddress, let colon = remoteAddress.lastIndex(of: ":") else { return remoteAddress ?? "" }
        return String(remoteAddress[..<colon])
    }

    /// Asks for a connection from `client`; an admitted one counts until `connectionClosed(client)`.
    mutating func admitConnection(from client: String) -> Decision {
        guard connections < limits.connections else {
            return .refuse("the server is at its connection limit; try again shortly")
        }
        guard connectionsByAddress[client, default: 0] < limits.connectionsPerAddress else {
            return .refuse("too many connections from your address; close some and try again")
        }
        connections += 1
        connectionsByAddress[client, default: 0] += 1
        return .admit
    }

    mutating func connectionClosed(from client: String) {
        connections = max(0, connections - 1)
        Self.decrement(&connectionsByAddress, client)
    }

    /// Asks for a streamed response (a live page) on an admitted connection from `client`; an admitted one counts
    /// until `streamClosed(client)`.
    mutating func admitStream(from client: String) -> Decision {
        guard streams < limits.streams else {
            return .refuse("too many live pages are open on this server; close one and try again")
        }
        guard streamsByAddress[client, default: 0] < limits.streamsPerAddress else {
            return .refuse("too many live pages are open from your address; close one and try again")
        }
        streams += 1
        streamsByAddress[client, default: 0] += 1
        return .admit
    }

    mutating func streamClosed(from client: String) {
        streams = max(0, streams - 1)
        Self.decrement(&streamsByAddress, client)
    }

    /// Connections open from `client`.
    func connections(from client: String) -> Int { connectionsByAddress[client, default: 0] }

    /// Streams open from `client`.
    func streams(from client: String) -> Int { streamsByAddress[client, default: 0] }

    private static func decrement(_ counts: inout [String: Int], _ client: String) {
        guard let count = counts[client] else { return }
        counts[client] = count > 1 ? count - 1 : nil
    }
}
