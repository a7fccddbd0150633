import Foundation
@preconcurrency import Glibc

/// A TCP socket bound to a free port of 127.0.0.1 (port 0), for the tests' own servers: listening (a fake printer, a
/// raw HTTP server), or never listening, which holds a port that refuses every connection until it is closed.
public enum LoopbackSocket {
    /// The socket's descriptor and port; `backlog` nil leaves it bound but not listening.
    public static func bound(listening backlog: Int32?) throws -> (descriptor: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, backlog.map({ listen(fd, $0) == 0 }) ?? true else {
            _ = close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
