import Foundation
@preconcurrency import Glibc

/// Which notification URLs a webhook may have. Airtable posts only to public https URLs; a server that
/// let any token holder name any URL could be made to post into its own network (a loopback admin port,
/// a router), to pass credentials from the URL on, or to map which ports answer. So, as Airtable:
/// https only, no user name or password in the URL, and no local or private address; an operator names
/// the local receivers it trusts (`drinkshop serve --webhook-allow http://127.0.0.1:8090`), matched by
/// scheme, host and port.
///
/// Checked when a webhook is made (422) and again before every ping, so a webhook stored by an earlier
/// version, or allowed by an earlier run, is not pinged once the allowance is gone.
public struct WebhookReceivers: Sendable, Equatable {
    /// An allowed receiver: scheme, host and port.
    public struct Origin: Sendable, Hashable, CustomStringConvertible {
        public var scheme: String
        public var host: String
        public var port: Int

        public var description: String {
            "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
    }

    public private(set) var allowed: Set<Origin>

    /// Only public https receivers.
    public init() { allowed = [] }

    /// Also the receivers named, each `http(s)://HOST[:PORT]` (the port defaults by scheme; no path,
    /// user or password).
    public init(allowing receivers: [String]) throws(WebhookReceiverError) {
        allowed = []
        for text in receivers {
            guard let parts = Self.parts(text), parts.path.isEmpty || parts.path == "/", !parts.hasCredentials else {
                throw .notAnOrigin(text)
            }
            allowed.insert(parts.origin)
        }
    }

    /// Why `url` may not receive notifications; nil when it may.
    public func refusal(_ url: String) -> String? {
        guard let parts = Self.parts(url) else {
            return "notificationUrl must be an https URL with a host"
        }
        if parts.hasCredentials {
            return "notificationUrl must not carry a user name or password"
        }
        if allowed.contains(parts.origin) { return nil }
        guard parts.origin.scheme == "https" else {
            return "notificationUrl must be an https URL, as Airtable requires"
                + (allowed.isEmpty ? "" : " (or one of the receivers this server allows: "
                    + allowed.map(\.description).sorted().joined(separator: ", ") + ")")
        }
        if Self.isLocal(parts.origin.host) {
            return "notificationUrl must be a public address; \(parts.origin.host) is local or private "
                + "(the server's operator can allow a local receiver with serve --webhook-allow)"
        }
        return nil
    }

    /// Where a ping to `url` goes, once its host resolved to `addresses` (canonical, see `ReceiverAddresses`)
    /// on a machine whose own addresses are `own`.
    ///
    /// The addresses are checked, not the URL's text: unless the operator named this receiver, none may be
    /// local, private or this machine's own. An http receiver (only those the operator named) is sent to the
    /// checked address itself, the name going in the Host header, so nothing resolves it again. An https
    /// receiver keeps its name, which TLS needs (SNI, and the certificate is checked against it): a second
    /// lookup by the transport could in principle answer differently (DNS rebinding), but what reached a
    /// local port then is a TLS handshake for the attacker's name, which no local service holds a
    /// certificate for, so no ping is delivered.
    public func destination(_ url: String, addresses: [String], own: Set<String>) -> WebhookDestination {
        if let refusal = refusal(url) { return .refused(refusal) }
        guard let parts = Self.parts(url) else { return .refused("notificationUrl must be an https URL with a host") }
        let host = parts.origin.host
        guard let first = addresses.first else { return .refused("the host \(host) could not be found") }
        if !allowed.contains(parts.origin) {
            if let local = addresses.first(where: { Self.isLocal($0) || own.contains($0) }) {
                return .refused("\(host) resolves to \(local), an address of this machine or of a private network "
                    + "(the server's operator can allow a local receiver with serve --webhook-allow)")
            }
        }
        guard parts.origin.scheme == "http" else { return .send(url: url, host: nil) }
        let bracketed = { (name: String) in name.contains(":") ? "[\(name)]" : name }
        let defaultPort = parts.origin.port == 80
        let hostHeader = bracketed(host) + (defaultPort ? "" : ":\(parts.origin.port)")
        return .send(url: "http://\(bracketed(first)):\(parts.origin.port)\(parts.pathAndQuery)", host: hostHeader)
    }

    // MARK: - Pieces

    private struct Parts {
        var origin: Origin
        var path: String
        /// The path (at least `/`) and query, as percent-encoded in the URL; no fragment.
        var pathAndQuery: String
        var hasCredentials: Bool
    }

    private static func parts(_ text: String) -> Parts? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", var host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65_535).contains(port) else { return nil }
        // `@` anywhere before the path is a user part, whatever URLComponents made of it.
        let authority = text.dropFirst(scheme.count + 3).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let credentials = components.user != nil || components.password != nil || authority.contains("@")
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return Parts(origin: Origin(scheme: scheme, host: host, port: port), path: components.path,
                     pathAndQuery: path + (components.percentEncodedQuery.map { "?" + $0 } ?? ""), hasCredentials: credentials)
    }

    /// A name or literal address that means this machine or a private network: `localhost`, loopback,
    /// private, link-local, carrier-grade NAT, unspecified and multicast addresses, in any spelling
    /// `inet_aton` takes (`127.1`, `0x7f000001`, `2130706433`) and IPv6 (with IPv4-mapped addresses).
    static func isLocal(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host.hasSuffix(".local")
            || host.hasSuffix(".internal") || !host.contains(".") && !host.contains(":") && Int(host) == nil
            && !host.hasPrefix("0x") {
            // A single-label name resolves on the local network, if at all.
            return true
        }
        var v4 = in_addr()
        if !host.contains(":"), inet_aton(host, &v4) != 0 {
            return isLocal(v4: UInt32(bigEndian: v4.s_addr))
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            let bytes = withUnsafeBytes(of: v6) { Array($0) }
            func v4(at offset: Int) -> UInt32 {
                bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
            }
            // An IPv4 address inside an IPv6 one is judged as that IPv4 address: mapped (::ffff:a.b.c.d),
            // compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff { return isLocal(v4: v4(at: 12)) }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) { return true }  // :: and ::1
            if bytes[0..<12].allSatisfy({ $0 == 0 }) { return isLocal(v4: v4(at: 12)) }
            if bytes[0..<12] == [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return isLocal(v4: v4(at: 12)) }
            if bytes[0] == 0x20, bytes[1] == 0x02 { return isLocal(v4: v4(at: 2)) }
            if bytes[0] & 0xfe == 0xfc { return true }  // fc00::/7, unique local
            if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0x80 { return true }  // fe80::/10, link-local
            if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0xc0 { return true }  // fec0::/10, the old site-local
            if bytes[0] == 0xff { return true }  // multicast
            return false
        }
        return false
    }

    private static func isLocal(v4 address: UInt32) -> Bool {
        func within(_ network: UInt32, _ bits: UInt32) -> Bool {
            address >> (32 - bits) == network >> (32 - bits)
        }
        return within(0x0000_0000, 8) || within(0x0A00_0000, 8) || within(0x7F00_0000, 8)
            || within(0x6440_0000, 10) || within(0xA9FE_0000, 16) || within(0xAC10_0000, 12)
            || within(0xC0A8_0000, 16) || within(0xE000_0000, 3)
    }
}

/// Where one ping goes: the URL to send and the Host header to send with it (nil: the URL's own), or why
/// it is not sent.
public enum WebhookDestination: Sendable, Equatable {
    case send(url: String, host: String?)
    case refused(String)
}

/// A `--webhook-allow` value that is not a receiver's origin.
public enum WebhookReceiverError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAnOrigin(String)

    public var description: String {
        switch self {
        case .notAnOrigin(let text):
            "--webhook-allow takes a receiver as http://HOST:PORT or https://HOST:PORT (no path, user or "
                + "password), not \(text)"
        }
    }
}
