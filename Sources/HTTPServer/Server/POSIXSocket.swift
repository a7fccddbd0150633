// Linux only: MSG_NOSIGNAL, SOCK_CLOEXEC/SOCK_NONBLOCK and accept4 have no Darwin equivalents here.
@preconcurrency import Glibc

/// The few socket system calls the server makes, each retried on EINTR and reporting errno as a value.
/// Every socket is non-blocking and close-on-exec; every send uses MSG_NOSIGNAL.
enum POSIXSocket {
    enum ReadResult: Equatable {
        case bytes(Int)
        case endOfInput
        case wouldBlock
        case failed(Int32)
    }

    enum WriteResult: Equatable {
        case wrote(Int)
        case wouldBlock
        case failed(Int32)
    }

    enum AcceptResult: Equatable {
        case accepted(fd: Int32, remoteAddress: String?)
        case failed(Int32)
    }

    /// A socket bound to `host:port` and listening; port 0 takes any free port.
    /// - Returns: the descriptor and the port actually bound.
    static func listen(host: String, port: Int, backlog: Int32) throws(HTTPServerError) -> (fd: Int32, port: Int) {
        guard (0...65_535).contains(port) else { throw .invalidPort(port) }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw .cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(results) }
        var lastError: Int32 = 0
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | socketFlags, 0)
            guard fd >= 0 else { lastError = errno; continue }
            var one: Int32 = 1
            // Restarting must not fail on connections of the previous run lingering in TIME_WAIT.
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, Glibc.listen(fd, backlog) == 0 {
                return (fd, boundPort(of: fd) ?? port)
            }
            lastError = errno
            _ = Glibc.close(fd)
        }
        throw .cannotListen(host: host, port: port, reason: describe(lastError))
    }

    static func accept(_ listener: Int32) -> AcceptResult {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        while true {
            let fd = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { acceptWithFlags(listener, $0, &length) }
            }
            if fd >= 0 {
                var one: Int32 = 1
                // Responses go out in one write; waiting to coalesce them only adds latency.
                _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return .accepted(fd: fd, remoteAddress: format(&address, length: length))
            }
            if errno != EINTR { return .failed(errno) }
        }
    }

    static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> ReadResult {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfInput }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// Sends as much of `bytes` as the socket takes now, looping over short writes.
    static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> WriteResult {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress.map { $0 + sent }, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return sent > 0 ? .wrote(sent) : .wouldBlock
            default: return sent > 0 ? .wrote(sent) : .failed(errno)
            }
        }
        return .wrote(sent)
    }

    /// Fixes the kernel's send buffer at about `bytes` (which also stops Linux growing it, up to 4 MiB by
    /// default), so what a client does not read soon waits in the server, where its write deadline runs.
    static func limitSendBuffer(_ fd: Int32, to bytes: Int32) {
        var size = bytes
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    static func shutdownWrite(_ fd: Int32) {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes without retrying on EINTR: on Linux the descriptor is released even then, and a retry
    /// could close a descriptor another thread has just been given.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// A connected, non-blocking pair used to wake the poll loop from other threads.
    static func makePair() throws(HTTPServerError) -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | socketFlags, 0, &fds) == 0 else {
            throw .cannotCreateWakeChannel(reason: describe(errno))
        }
        return (fds[0], fds[1])
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    // MARK: Internals

    private static let socketFlags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)

    private typealias Accept4 = @convention(c) (
        Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32
    ) -> Int32

    /// `accept4` sets close-on-exec and non-blocking atomically, but Glibc's module does not export it
    /// (it sits behind _GNU_SOURCE), so it is looked up in the C library once at run time.
    private static let accept4: Accept4? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "accept4") else { return nil }
        return unsafeBitCast(symbol, to: Accept4.self)
    }()

    private static func acceptWithFlags(
        _ listener: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
    ) -> Int32 {
        if let accept4 { return accept4(listener, address, length, socketFlags) }
        let fd = Glibc.accept(listener, address, length)
        if fd >= 0 {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return fd
    }

    private static func boundPort(of fd: Int32) -> Int? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { return nil }
        return format(&address, length: length).flatMap { $0.split(separator: ":").last.flatMap { Int($0) } }
    }

    /// `host:port`, or `[host]:port` for IPv6, from a socket address.
    private static func format(_ address: inout sockaddr_storage, length: socklen_t) -> String? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: 32)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo(
                    $0, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                    NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard status == 0 else { return nil }
        let hostText = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let portText = String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return hostText.contains(":") ? "[\(hostText)]:\(portText)" : "\(hostText):\(portText)"
    }
}
