import Foundation
@preconcurrency import Glibc

/// Sends finished jobs to one printer. Each send runs on a thread of its own with short deadlines, so
/// neither a printer that is off nor one that stops reading ever holds up the cooperative pool or the
/// order being printed; failure comes back as a ``PrinterError``.
public struct PrinterSink: Sendable {
    public var address: PrinterAddress
    /// How long connecting to a network printer may take.
    public var connectTimeout: Duration
    /// How long the printer may go without taking any of the job's bytes.
    public var writeTimeout: Duration

    public init(address: PrinterAddress, connectTimeout: Duration = .seconds(2), writeTimeout: Duration = .seconds(5)) {
        self.address = address
        self.connectTimeout = connectTimeout
        self.writeTimeout = writeTimeout
    }

    /// Parses `setting` (see ``PrinterAddress``) into a sink with the default timeouts.
    public init(setting: String) throws(PrinterAddressError) {
        self.init(address: try PrinterAddress(parsing: setting))
    }

    /// Sends `bytes` and returns once all were handed over (and the connection closed), or throws.
    ///
    /// The work runs on a thread of its own; a ``SendWatch`` ends the wait when that thread makes no progress
    /// for longer than the stage's deadline (plus a little), even if it is stuck in a call that cannot time
    /// out (an `open` of a hung device or network file system). The stuck thread is then left to finish on
    /// its own; its late result is dropped.
    public func send(_ bytes: [UInt8]) async throws(PrinterError) {
        let sink = self
        let stage: String
        if case .network = address { stage = "connect" } else { stage = "open" }
        let watch = SendWatch(address: address.description, openStage: stage, openLimit: connectTimeout,
                              writeLimit: writeTimeout)
        let result: Result<Void, PrinterError> = await withCheckedContinuation { continuation in
            watch.begin(continuation)
            let thread = Thread { watch.finish(sink.sendBlocking(bytes, watch: watch)) }
            thread.name = "PrinterSink \(sink.address)"
            thread.start()
        }
        try result.get()
    }

    /// The blocking part; called only on the send's own thread.
    func sendBlocking(_ bytes: [UInt8], watch: SendWatch? = nil) -> Result<Void, PrinterError> {
        switch address {
        case .file(let path), .device(let path):
            let fd: Int32
            switch open(path, creating: address == .file(path: path)) {
            case .success(let opened): fd = opened
            case .failure(let error): return .failure(error)
            }
            defer { _ = close(fd) }
            watch?.progress(writing: true)
            return write(bytes, to: fd, address: path, watch: watch)
        case .network(let host, let port):
            let fd: Int32
            switch connect(host: host, port: port) {
            case .success(let connected): fd = connected
            case .failure(let error): return .failure(error)
            }
            defer { _ = close(fd) }
            watch?.progress(writing: true)
            let result = write(bytes, to: fd, address: address.description, watch: watch)
            // Tell the printer the job is complete; it prints on end of data.
            _ = shutdown(fd, Int32(SHUT_WR))
            return result
        }
    }

    /// Opens a file, device or named pipe without ever blocking: `O_NONBLOCK`, so a device whose printer is
    /// off, or a FIFO that nobody reads (ENXIO), answers at once. A FIFO is tried again until
    /// `connectTimeout` (a spooler may be between two jobs); its writes then wait with poll's deadline.
    private func open(_ path: String, creating: Bool) -> Result<Int32, PrinterError> {
        let flags = O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (creating ? O_CREAT | O_APPEND : 0)
        let deadline = ContinuousClock.now + connectTimeout
        while true {
            let fd = Glibc.open(path, flags, 0o644)
            if fd >= 0 { return .success(fd) }
            let code = errno
            if code == EINTR { continue }
            guard code == ENXIO else { return .failure(.cannotOpen(path: path, reason: Self.describe(code))) }
            guard ContinuousClock.now < deadline else {
                return .failure(.noReader(path: path, seconds: Self.seconds(connectTimeout)))
            }
            usleep(50_000)
        }
    }

    private func connect(host: String, port: Int) -> Result<Int32, PrinterError> {
        let shown = address.description
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            return .failure(.cannotResolve(host: host, reason: String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(results) }
        let deadline = ContinuousClock.now + connectTimeout
        var lastError: PrinterError = .unreachable(address: shown, reason: "no address to connect to")
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = socket(info.pointee.ai_family, flags, 0)
            guard fd >= 0 else { continue }
            var code: Int32 = 0
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 {
                code = errno
                if code == EINPROGRESS {
                    guard wait(fd, for: Int16(POLLOUT), until: deadline) else {
                        _ = close(fd)
                        lastError = .timedOut(address: shown, stage: "connect", seconds: Self.seconds(connectTimeout))
                        continue
                    }
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                }
            }
            if code == 0 { return .success(fd) }
            _ = close(fd)
            lastError = code == ECONNREFUSED
                ? .refused(address: shown) : .unreachable(address: shown, reason: Self.describe(code))
        }
        return .failure(lastError)
    }

    /// Writes everything, waiting for the descriptor to take more for at most `writeTimeout` each time.
    private func write(_ bytes: [UInt8], to fd: Int32, address: String, watch: SendWatch?) -> Result<Void, PrinterError> {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                fd.isSocket
                    ? Glibc.send(fd, raw.baseAddress.map { $0 + sent }, raw.count - sent, Int32(MSG_NOSIGNAL))
                    : Glibc.write(fd, raw.baseAddress.map { $0 + sent }, raw.count - sent)
            }
            if count > 0 {
                sent += count
                watch?.progress(writing: true)
                continue
            }
            let code = errno
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                guard wait(fd, for: Int16(POLLOUT), until: ContinuousClock.now + writeTimeout) else {
                    return .failure(.timedOut(address: address, stage: "write", seconds: Self.seconds(writeTimeout)))
                }
            case ECONNREFUSED:
                return .failure(.refused(address: address))
            default:
                return .failure(.writeFailed(address: address, reason: Self.describe(code)))
            }
        }
        return .success(())
    }

    /// Whether `fd` became ready for `events` before `deadline`.
    private func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1)
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let status = poll(&descriptor, 1, milliseconds)
            if status > 0 { return true }
            if status < 0, errno != EINTR { return true }  // let the write report the error
        }
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

private extension Int32 {
    var isSocket: Bool {
        var status = stat()
        return fstat(self, &status) == 0 && (status.st_mode & S_IFMT) == S_IFSOCK
    }
}
