import Foundation
@preconcurrency import Glibc
import Synchronization

/// A network printer on a loopback port (shared by the printing and the shop tests) (port 0): accepts connections on its own thread and records
/// every byte until the sender closes. `reads: false` makes a printer that accepts but never reads.
public final class FakePrinter: Sendable {
    public let port: Int
    private let listener: Int32
    private let received = Mutex<[[UInt8]]>([])
    private let done = Mutex<[CheckedContinuation<[UInt8], Never>]>([])
    private let reads: Bool

    public init(reads: Bool = true) throws {
        (listener, port) = try LoopbackSocket.bound(listening: 4)
        self.reads = reads
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The bytes of the next job to finish (the sender closed its side).
    public func nextJob() async -> [UInt8] {
        await withCheckedContinuation { continuation in
            let ready: [UInt8]? = received.withLock { jobs in
                jobs.isEmpty ? nil : jobs.removeFirst()
            }
            if let ready { continuation.resume(returning: ready) } else { done.withLock { $0.append(continuation) } }
        }
    }

    public func stop() {
        _ = shutdown(listener, Int32(SHUT_RDWR))
        _ = close(listener)
    }

    private func serve() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            guard reads else {
                // A jammed printer: holds the connection, takes nothing.
                continue
            }
            var job: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                job += buffer[0..<count]
            }
            _ = close(client)
            let waiter = done.withLock { waiters in waiters.isEmpty ? nil : waiters.removeFirst() }
            if let waiter { waiter.resume(returning: job) } else { received.withLock { $0.append(job) } }
        }
    }
}

/// A loopback port with nothing listening: bound, never listening, and kept so for the life of the process.
public func closedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    // Kept bound and never listening, for the life of the test process: a connection to the port is refused, and no
    // listener of a test running beside this one can be given the port (closing it let one take it, under load).
    return Int(UInt16(bigEndian: address.sin_port))
}

