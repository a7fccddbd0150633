@preconcurrency import Glibc

/// The network a client's address belongs to, which is what every quota counts: one machine has many
/// addresses (all of 127/8, every address of its IPv6 /64), so a count per exact address is a count per
/// whim of the client. An IPv4 address counts as its /24, an IPv6 address as its /64, and an IPv4-mapped
/// IPv6 address (`::ffff:203.0.113.9`) as its IPv4 /24. The one place that rule is written.
///
/// Behind a proxy every client shares the proxy's network; the server trusts no `X-Forwarded-For` (anyone can
/// send one), so put it before no proxy, or size the per-network quotas for the proxy.
public struct ClientNetwork: Hashable, Sendable, CustomStringConvertible {
    /// `203.0.113.0/24`, `2001:db8:1:2::/64`; an address that is not one (a test's made-up peer) is its own key.
    public let key: String

    /// The network of a peer as the socket layer writes it: `203.0.113.9:51234`, `[2001:db8::1]:51234`, or a bare
    /// address. No address (a request built by hand) counts under "".
    public init(remoteAddress: String?) {
        self.init(host: Self.host(of: remoteAddress ?? ""))
    }

    /// The network of a bare address (`203.0.113.9`, `2001:db8::1`, `fe80::1%eth0`).
    public init(host: String) {
        key = Self.ipv4Key(host) ?? Self.ipv6Key(host) ?? host
    }

    public var description: String { key }

    /// The host part of `host:port` or `[v6]:port`; a bare address as it is.
    static func host(of address: String) -> String {
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
            return String(address[address.index(after: address.startIndex)..<close])
        }
        // One colon: `host:port`. None, or several (a bare IPv6 address): the whole text.
        guard let colon = address.firstIndex(of: ":"), address.lastIndex(of: ":") == colon else { return address }
        return String(address[..<colon])
    }

    private static func ipv4Key(_ host: String) -> String? {
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { ipv4Key(Array($0)) }
    }

    private static func ipv4Key(_ bytes: [UInt8]) -> String {
        "\(bytes[0]).\(bytes[1]).\(bytes[2]).0/24"
    }

    private static func ipv6Key(_ host: String) -> String? {
        // A link-local address's zone (`%eth0`) names the interface, not the network.
        let bare = host.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? host
        var address = in6_addr()
        guard inet_pton(AF_INET6, bare, &address) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &address) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return ipv4Key(Array(bytes[12..<16]))
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
