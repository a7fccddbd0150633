import Foundation
@preconcurrency import Glibc

/// The addresses a webhook receiver's host resolves to, and this machine's own: what a ping would
/// really connect to, so the check is made on that and not on the URL's text (`127.0.0.1.nip.io` reads as
/// public and resolves to loopback; this server's own public address reads as public and reaches its own
/// ports).
///
/// `getaddrinfo` and `getifaddrs` block (DNS may take seconds), so they run on a thread of their own,
/// never on the cooperative pool. Tests pass their own lookups.
public struct ReceiverAddresses: Sendable {
    /// The numeric addresses `host` resolves to (empty when it does not resolve); blocking.
    let lookUp: @Sendable (_ host: String) -> [String]
    /// The addresses of this machine's interfaces; blocking.
    let ownAddresses: @Sendable () -> Set<String>

    public init(lookUp: @escaping @Sendable (String) -> [String], ownAddresses: @escaping @Sendable () -> Set<String>) {
        self.lookUp = lookUp
        self.ownAddresses = ownAddresses
    }

    /// The system's resolver and interfaces.
    public static let system = ReceiverAddresses(lookUp: systemLookUp, ownAddresses: systemOwnAddresses)

    /// What `host` resolves to and this machine's addresses, looked up on a thread of its own.
    func resolve(_ host: String) async -> (addresses: [String], own: Set<String>) {
        let (lookUp, ownAddresses) = (lookUp, ownAddresses)
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                let found = lookUp(host).map(Self.canonical)
                continuation.resume(returning: (found, Set(ownAddresses().map(Self.canonical))))
            }
            thread.name = "webhook address lookup"
            thread.start()
        }
    }

    /// One spelling per address: IPv4-mapped IPv6 addresses as IPv4, the rest as `inet_ntop` writes them.
    static func canonical(_ address: String) -> String {
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return numeric(family: AF_INET6, &v6) ?? address
    }

    private static func numeric<T>(family: Int32, _ address: inout T) -> String? {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, &address, &text, socklen_t(text.count)) != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func text(of address: UnsafePointer<sockaddr>) -> String? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            return numeric(family: AF_INET, &v4)
        case AF_INET6:
            var v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            return numeric(family: AF_INET6, &v6)
        default:
            return nil
        }
    }

    private static func systemLookUp(_ host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var found: [String] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr, let text = text(of: address), !found.contains(text) { found.append(text) }
            entry = current.pointee.ai_next
        }
        return found
    }

    private static func systemOwnAddresses() -> Set<String> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: Set<String> = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ifa_addr, let text = text(of: address) { found.insert(text) }
            entry = current.pointee.ifa_next
        }
        return found
    }
}
