/// Who is served: the server's caps on connections and streamed responses, in total and per client network.
///
/// A pure ledger of what is open, by network (``ClientNetwork``: an IPv4 /24, an IPv6 /64), that the event loop
/// asks before serving a new connection or relaying a stream, and tells when either ends. A network may hold no
/// more than its fixed cap and no more than its ``FairShare`` of the total, so no one network (a script holding
/// 500 idle sockets from 500 addresses of one machine, a page opening stream after stream without reading) can
/// take every slot: the pickup screen and the counters on other networks still get in.
struct AdmissionPolicy: Sendable {
    /// The caps.
    struct Limits: Sendable, Equatable {
        var connections: Int
        var connectionsPerNetwork: Int
        var streams: Int
        var streamsPerNetwork: Int
    }

    /// The answer to one request for a slot.
    enum Decision: Sendable, Equatable {
        case admit
        /// Refused because every slot is taken; an idle connection may be closed to make room.
        case full(String)
        /// Refused because the asker's network holds its share; the message says why, for the 503's body.
        case refuse(String)

        var isAdmitted: Bool { self == .admit }

        /// The 503's body, when refused.
        var reason: String? {
            switch self {
            case .admit: nil
            case .full(let reason), .refuse(let reason): reason
            }
        }
    }

    let limits: Limits
    private var connectionCounts = NetworkCounts()
    private var streamCounts = NetworkCounts()

    init(limits: Limits) {
        self.limits = limits
    }

    var connections: Int { connectionCounts.total }
    var streams: Int { streamCounts.total }

    /// Asks for a connection from `network`; an admitted one counts until `connectionClosed(network)`.
    mutating func admitConnection(from network: String) -> Decision {
        guard connectionCounts.total < limits.connections else {
            return .full("the server is at its connection limit; try again shortly")
        }
        guard connectionCounts.allows(network, cap: limits.connections, perNetwork: limits.connectionsPerNetwork) else {
            return .refuse("too many connections from your network; close some and try again")
        }
        connectionCounts.add(network)
        return .admit
    }

    mutating func connectionClosed(from network: String) {
        connectionCounts.remove(network)
    }

    /// Asks for a streamed response (a live page) on an admitted connection from `network`; an admitted one
    /// counts until `streamClosed(network)`.
    mutating func admitStream(from network: String) -> Decision {
        guard streamCounts.total < limits.streams else {
            return .full("too many live pages are open on this server; close one and try again")
        }
        guard streamCounts.allows(network, cap: limits.streams, perNetwork: limits.streamsPerNetwork) else {
            return .refuse("too many live pages are open from your network; close one and try again")
        }
        streamCounts.add(network)
        return .admit
    }

    mutating func streamClosed(from network: String) {
        streamCounts.remove(network)
    }

    /// Connections open from `network`.
    func connections(from network: String) -> Int { connectionCounts[network] }

    /// Streams open from `network`.
    func streams(from network: String) -> Int { streamCounts[network] }
}

/// What each network holds of one kind of slot, and the total.
struct NetworkCounts: Sendable {
    private var counts: [String: Int] = [:]
    private(set) var total = 0

    subscript(network: String) -> Int { counts[network, default: 0] }

    /// Whether `network` may take one more of `cap`: within `perNetwork` and its ``FairShare``.
    func allows(_ network: String, cap: Int, perNetwork: Int) -> Bool {
        FairShare.allows(holding: self[network], total: total, cap: cap, perNetwork: perNetwork)
    }

    mutating func add(_ network: String) {
        counts[network, default: 0] += 1
        total += 1
    }

    mutating func remove(_ network: String) {
        guard let count = counts[network] else { return }
        counts[network] = count > 1 ? count - 1 : nil
        total -= 1
    }
}
