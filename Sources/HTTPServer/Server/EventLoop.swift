@preconcurrency import Glibc
import Synchronization

/// The server's one I/O thread: a poll(2) loop over the listener, every connection and a wake-up
/// socket. Sockets are non-blocking, so the loop never waits on one client; handlers run as tasks on
/// the cooperative pool and post their responses back here.
///
/// `@unchecked Sendable` because its mutable state (everything but `inbox`) is touched only by the
/// loop thread; other threads reach it only through `inbox` and the wake-up socket.
final class EventLoop: @unchecked Sendable {
    typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    private struct Connection {
        let fd: Int32
        var machine: ConnectionStateMachine
        /// Accepted over a cap and only being told 503: not counted as a served connection.
        let isRejection: Bool
        /// The client's network (``ClientNetwork``), as `AdmissionPolicy` counts it.
        let network: String
    }

    private enum StreamEvent {
        case bytes([UInt8])
        case end
    }

    private struct Inbox {
        var responses: [(id: UInt64, response: HTTPResponse)] = []
        var streamEvents: [(id: UInt64, event: StreamEvent)] = []
        var shutdownRequested = false
        /// Set, under the lock, just before the wake-up sockets close: a handler finishing later must not
        /// write to a descriptor number the process may have reused for someone else's socket.
        var finished = false
    }

    /// Rejected connections still being told 503, at most; past this they are closed unanswered.
    private static let maxRejections = 64
    private static let readSize = 64 * 1_024
    /// The kernel send buffer of a streaming connection (Linux doubles it for its own bookkeeping).
    private static let streamSendBuffer: Int32 = 8 * 1_024

    private let configuration: HTTPServer.Configuration
    private let handler: Handler
    private let onFinish: @Sendable () -> Void
    private let clock = ContinuousClock()
    private let inbox = Mutex(Inbox())
    private let wakeReader: Int32
    private let wakeWriter: Int32

    // Loop-thread state.
    private var listener: Int32?
    private var connections: [UInt64: Connection] = [:]
    /// What is open, by client network; asked before serving a connection or a stream.
    private var admission: AdmissionPolicy
    /// The streams of connections relaying one (see `HTTPResponse.stream`).
    private var streams: [UInt64: HTTPResponseStream] = [:]
    private var nextID: UInt64 = 0
    private var acceptPausedUntil: ContinuousClock.Instant?
    private var lastPause: Duration?
    private var shutdownDeadline: ContinuousClock.Instant?
    private var readBuffer = [UInt8](repeating: 0, count: EventLoop.readSize)
    private var dateCache: (second: Int, text: String) = (-1, "")

    init(
        listener: Int32, configuration: HTTPServer.Configuration, handler: @escaping Handler,
        onFinish: @escaping @Sendable () -> Void
    ) throws(HTTPServerError) {
        (wakeReader, wakeWriter) = try POSIXSocket.makePair()
        self.listener = listener
        self.configuration = configuration
        self.handler = handler
        self.onFinish = onFinish
        admission = AdmissionPolicy(limits: .init(
            connections: configuration.maxConnections, connectionsPerNetwork: configuration.maxConnectionsPerNetwork,
            streams: configuration.maxStreams, streamsPerNetwork: configuration.maxStreamsPerNetwork))
    }

    /// Asks the loop to stop accepting, finish what is under way and exit. Safe from any thread.
    func requestShutdown() {
        inbox.withLock { inbox in
            inbox.shutdownRequested = true
            wake(inbox)
        }
    }

    /// The loop itself; runs on its dedicated thread until shutdown completes.
    func run() {
        while true {
            drainInbox(now: clock.now)
            if let shutdownDeadline, connections.isEmpty || clock.now >= shutdownDeadline { break }
            var fds = pollDescriptors()
            let status = poll(&fds, nfds_t(fds.count), pollTimeout(now: clock.now))
            // poll only fails for want of memory; pausing this (dedicated) thread beats spinning on it.
            if status < 0, errno != EINTR { usleep(10_000) }
            let now = clock.now
            if status > 0 { handleReadiness(fds, now: now) }
            for id in Array(connections.keys) {
                if let deadline = connections[id]?.machine.deadline, now >= deadline {
                    apply(id) { $0.tick(now: now, date: $1) }
                }
            }
        }
        for id in Array(connections.keys) { closeConnection(id) }
        if let listener { POSIXSocket.close(listener) }
        inbox.withLock { inbox in
            inbox.finished = true
            POSIXSocket.close(wakeReader)
            POSIXSocket.close(wakeWriter)
        }
        onFinish()
    }

    // MARK: Polling

    /// Slot 0 is the wake-up socket, slot 1 the listener (-1 while not accepting), then one per connection.
    /// A connection with nothing to wait for gets fd -1 so a hung-up peer cannot make poll spin.
    private func pollDescriptors() -> [pollfd] {
        var fds = [pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)]
        let accepting = listener != nil && acceptPausedUntil.map { clock.now >= $0 } ?? true
        fds.append(pollfd(fd: accepting ? listener ?? -1 : -1, events: Int16(POLLIN), revents: 0))
        orderedIDs = Array(connections.keys)
        for id in orderedIDs {
            guard let connection = connections[id] else { continue }
            var events: Int16 = 0
            if connection.machine.wantsRead { events |= Int16(POLLIN) }
            if connection.machine.wantsWrite { events |= Int16(POLLOUT) }
            fds.append(pollfd(fd: events == 0 ? -1 : connection.fd, events: events, revents: 0))
        }
        return fds
    }

    private var orderedIDs: [UInt64] = []

    private func pollTimeout(now: ContinuousClock.Instant) -> Int32 {
        var earliest = shutdownDeadline
        for connection in connections.values {
            if let deadline = connection.machine.deadline { earliest = min(earliest ?? deadline, deadline) }
        }
        if let paused = acceptPausedUntil { earliest = min(earliest ?? paused, paused) }
        guard let earliest else { return -1 }
        let (seconds, attoseconds) = (earliest - now).components
        let milliseconds = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }

    private func handleReadiness(_ fds: [pollfd], now: ContinuousClock.Instant) {
        if fds[0].revents != 0 { drainWakeSocket() }
        if fds[1].revents != 0 { acceptPending(now: now) }
        for (slot, id) in orderedIDs.enumerated() {
            let revents = Int32(fds[slot + 2].revents)
            guard revents != 0, let connection = connections[id] else { continue }
            if revents & Int32(POLLNVAL) != 0 {
                apply(id) { machine, _ in machine.failed() }
                continue
            }
            if revents & Int32(POLLIN | POLLHUP | POLLERR) != 0, connection.machine.wantsRead {
                read(id, fd: connection.fd, now: now)
            } else if revents & Int32(POLLERR) != 0 {
                apply(id) { machine, _ in machine.failed() }
            }
            if connections[id]?.machine.wantsWrite == true { flush(id, now: now) }
        }
    }

    private func read(_ id: UInt64, fd: Int32, now: ContinuousClock.Instant) {
        switch POSIXSocket.receive(fd, into: &readBuffer) {
        case .bytes(let count):
            let bytes = readBuffer[0..<count]
            apply(id) { $0.received(bytes, now: now, date: $1) }
        case .endOfInput:
            apply(id) { $0.inputEnded(now: now, date: $1) }
        case .wouldBlock:
            break
        case .failed:
            apply(id) { machine, _ in machine.failed() }
        }
    }

    private func flush(_ id: UInt64, now: ContinuousClock.Instant) {
        guard let connection = connections[id], connection.machine.wantsWrite else { return }
        switch POSIXSocket.send(connection.fd, connection.machine.pendingOutput) {
        case .wrote(let count):
            apply(id) { $0.wrote(count, now: now, date: $1) }
        case .wouldBlock:
            break
        case .failed:
            apply(id) { machine, _ in machine.failed() }
        }
    }

    // MARK: Accepting

    private func acceptPending(now: ContinuousClock.Instant) {
        guard let listener, shutdownDeadline == nil else { return }
        for _ in 0..<64 {
            switch POSIXSocket.accept(listener) {
            case .accepted(let fd, let remoteAddress):
                lastPause = nil
                acceptPausedUntil = nil
                admit(fd: fd, remoteAddress: remoteAddress, now: now)
            case .failed(let code):
                switch AcceptErrorPolicy.decide(errno: code, previousPause: lastPause) {
                case .waitForReadiness:
                    return
                case .tryNext:
                    continue
                case .pause(let delay):
                    lastPause = delay
                    acceptPausedUntil = now + delay
                    return
                }
            }
        }
    }

    private func admit(fd: Int32, remoteAddress: String?, now: ContinuousClock.Instant) {
        let network = ClientNetwork(remoteAddress: remoteAddress).key
        let id = nextID
        nextID += 1
        var decision = admission.admitConnection(from: network)
        if case .full = decision, evictIdleConnection(toAdmit: network) {
            decision = admission.admitConnection(from: network)
        }
        if let reason = decision.reason, connections.count - admission.connections < Self.maxRejections {
            let machine = ConnectionStateMachine.rejecting(
                timeouts: configuration.timeouts, remoteAddress: remoteAddress, now: now, date: date(), message: reason)
            connections[id] = Connection(fd: fd, machine: machine, isRejection: true, network: network)
            configuration.log?(HTTPRequestLogEntry(method: "-", path: "-", status: 503, milliseconds: 0))
            flush(id, now: now)
        } else if decision.isAdmitted {
            let machine = ConnectionStateMachine(
                limits: configuration.limits, timeouts: configuration.timeouts, remoteAddress: remoteAddress, now: now)
            connections[id] = Connection(fd: fd, machine: machine, isRejection: false, network: network)
        } else {
            POSIXSocket.close(fd)
        }
    }

    /// Every slot is taken and `network` asks for one: closes the oldest idle connection (nothing of a request
    /// arrived: kept alive between requests, or silent since accepted) of the network holding the most, when that
    /// network holds more than `network` does. So connections left open for nothing cannot keep anyone out.
    private func evictIdleConnection(toAdmit network: String) -> Bool {
        let asking = admission.connections(from: network)
        var chosen: (id: UInt64, held: Int)?
        for (id, connection) in connections where !connection.isRejection && connection.machine.isIdle {
            let held = admission.connections(from: connection.network)
            guard held > asking + 1 else { continue }
            if let best = chosen, best.held > held || (best.held == held && best.id < id) { continue }
            chosen = (id, held)
        }
        guard let chosen else { return false }
        closeConnection(chosen.id)
        return true
    }

    // MARK: Applying the state machine's actions

    /// Runs one event on a connection's state machine and carries out the actions it returns.
    private func apply(
        _ id: UInt64, _ event: (inout ConnectionStateMachine, String) -> [ConnectionStateMachine.Action]
    ) {
        guard var connection = connections[id] else { return }
        let actions = event(&connection.machine, date())
        connections[id] = connection
        for action in actions {
            switch action {
            case .runHandler(let request):
                let handler = handler
                Task(priority: configuration.handlerPriority) {
                    let response = await handler(request)
                    self.post(response, for: id)
                }
            case .log(let entry):
                configuration.log?(entry)
            case .halfClose:
                POSIXSocket.shutdownWrite(connection.fd)
            case .close:
                closeConnection(id)
            }
        }
        if connections[id]?.machine.wantsWrite == true { flush(id, now: clock.now) }
    }

    private func closeConnection(_ id: UInt64) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        POSIXSocket.close(connection.fd)
        if !connection.isRejection { admission.connectionClosed(from: connection.network) }
        // The producer learns the page has gone and stops.
        if let stream = streams.removeValue(forKey: id) {
            stream.close()
            admission.streamClosed(from: connection.network)
        }
    }

    // MARK: Cross-thread inbox

    private func post(_ response: HTTPResponse, for id: UInt64) {
        inbox.withLock { inbox in
            guard !inbox.finished else { return }
            inbox.responses.append((id, response))
            wake(inbox)
        }
    }

    private func postStreamEvent(_ event: StreamEvent, for id: UInt64) {
        inbox.withLock { inbox in
            guard !inbox.finished else { return }
            inbox.streamEvents.append((id, event))
            wake(inbox)
        }
    }

    private func drainInbox(now: ContinuousClock.Instant) {
        let pending = inbox.withLock { inbox in
            defer {
                inbox.responses.removeAll()
                inbox.streamEvents.removeAll()
            }
            return (inbox.responses, inbox.shutdownRequested, inbox.streamEvents)
        }
        for (id, response) in pending.0 {
            finishHandling(id, response, now: now)
        }
        for (id, event) in pending.2 {
            switch event {
            case .bytes(let bytes): apply(id) { machine, _ in machine.streamed(bytes, now: now) }
            case .end: apply(id) { machine, _ in machine.streamFinished() }
            }
        }
        if pending.1, shutdownDeadline == nil {
            shutdownDeadline = now + configuration.shutdownGracePeriod
            if let listener { POSIXSocket.close(listener) }
            listener = nil
            for id in Array(connections.keys) { apply(id) { machine, _ in machine.beginShutdown() } }
        }
    }

    /// Hands a handler's response to its connection; a streamed one is attached to the connection, or
    /// refused with 503 when `maxStreams` are open already, or its network holds its share of them.
    private func finishHandling(_ id: UInt64, _ response: HTTPResponse, now: ContinuousClock.Instant) {
        guard let stream = response.stream, let network = connections[id]?.network else {
            response.stream?.close()  // the client already left
            apply(id) { $0.handlerFinished(response, now: now, date: $1) }
            return
        }
        var response = response
        let decision = admission.admitStream(from: network)
        if let reason = decision.reason {
            stream.close()
            response = ResponseEncoder.errorResponse(status: 503, message: reason)
            response.headers.replaceOrAdd(name: "Retry-After", value: "5")
        }
        apply(id) { $0.handlerFinished(response, now: now, date: $1) }
        guard response.stream != nil, connections[id]?.machine.isStreaming == true else {
            stream.close()  // a HEAD request, a refused stream, or the client already left
            if decision.isAdmitted { admission.streamClosed(from: network) }
            return
        }
        streams[id] = stream
        // A live page sends little; with the kernel's buffer small, a client that stops reading shows as bytes
        // waiting here within a few events, and the write deadline closes it and frees its place.
        if let fd = connections[id]?.fd { POSIXSocket.limitSendBuffer(fd, to: Self.streamSendBuffer) }
        stream.attach(
            deliver: { [weak self] bytes in self?.postStreamEvent(.bytes(bytes), for: id) },
            end: { [weak self] in self?.postStreamEvent(.end, for: id) })
    }

    /// Called with the inbox locked, so the wake-up socket cannot be closed meanwhile.
    private func wake(_ inbox: borrowing Inbox) {
        guard !inbox.finished else { return }
        var byte: UInt8 = 1
        // Non-blocking: a full socket already holds a pending wake-up, so a failed send loses nothing.
        _ = Glibc.send(wakeWriter, &byte, 1, Int32(MSG_NOSIGNAL))
    }

    private func drainWakeSocket() {
        while case .bytes = POSIXSocket.receive(wakeReader, into: &readBuffer) {}
    }

    /// The `Date` header value, formatted at most once a second.
    private func date() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let second = Int(now.tv_sec)
        if second != dateCache.second { dateCache = (second, HTTPDate.format(secondsSince1970: Int64(second))) }
        return dateCache.text
    }
}
