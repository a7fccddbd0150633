/// The life of one connection as a pure state machine: bytes, handler results, write progress and
/// the clock go in; what the socket layer must do comes out. No sockets, no threads, no clock reads,
/// so every keep-alive, pipelining, deadline and close rule is testable on its own.
struct ConnectionStateMachine: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// What the socket layer must do next.
    enum Action: Sendable, Equatable {
        /// Run the handler on this request and report its response with `handlerFinished`.
        case runHandler(HTTPRequest)
        case log(HTTPRequestLogEntry)
        /// Everything is written: `shutdown(SHUT_WR)`, then keep reading (and discarding) until EOF or deadline.
        case halfClose
        case close
    }

    enum Phase: Sendable, Equatable {
        /// Between requests; nothing of the next one has arrived.
        case awaitingRequest(deadline: Instant, firstRequest: Bool)
        case readingHead(deadline: Instant)
        case readingBody(deadline: Instant)
        /// The handler is running; nothing more is read meanwhile (pipelined bytes wait in the parser).
        case handling
        case writingResponse(deadline: Instant)
        /// A streamed response (`HTTPResponse.stream`) is being relayed; the deadline runs only while
        /// written bytes wait for a client that does not read them.
        case streaming(deadline: Instant?)
        /// Half-closed after the last response; draining input so closing does not reset the connection.
        case lingering(deadline: Instant)
        case closed
    }

    /// Input drained while lingering, at most; a client still sending after that is simply cut off.
    static let maxLingerBytes = 1 << 20
    /// Streamed bytes waiting for a client that reads too slowly, at most; past this it is cut off
    /// rather than let one stalled page hold the server's memory. A live page's events are small (a board's
    /// change, a group's version), so a client this far behind has stopped reading.
    static let maxStreamBacklog = 64 * 1_024

    let timeouts: ConnectionTimeouts
    let remoteAddress: String?
    private(set) var phase: Phase
    private var parser: HTTPRequestParser
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var closeAfterResponse = false
    private var inputClosed = false
    private var shuttingDown = false
    private var lingerBytes = 0
    private var streamEnded = false
    /// The request being read or handled: what the log and keep-alive decision need of it.
    private var current: (head: HTTPRequestHead?, startedAt: Instant)?

    init(limits: HTTPParserLimits, timeouts: ConnectionTimeouts, remoteAddress: String?, now: Instant) {
        self.timeouts = timeouts
        self.remoteAddress = remoteAddress
        parser = HTTPRequestParser(limits: limits)
        phase = .awaitingRequest(deadline: now + timeouts.header, firstRequest: true)
    }

    /// A connection over one of the server's caps: it is only told 503 (with `message`) and closed.
    static func rejecting(
        timeouts: ConnectionTimeouts, remoteAddress: String?, now: Instant, date: String,
        message: String = "the server is at its connection limit; try again shortly"
    ) -> ConnectionStateMachine {
        var machine = ConnectionStateMachine(
            limits: HTTPParserLimits(), timeouts: timeouts, remoteAddress: remoteAddress, now: now)
        machine.current = (nil, now)
        _ = machine.respondWithError(
            status: 503, message: message, now: now, date: date)
        return machine
    }

    // MARK: What the socket layer asks

    var isClosed: Bool { phase == .closed }

    var wantsRead: Bool {
        guard !inputClosed else { return false }
        switch phase {
        // A stream reads only to notice the client leaving.
        case .awaitingRequest, .readingHead, .readingBody, .lingering, .streaming: return true
        case .handling, .writingResponse, .closed: return false
        }
    }

    var wantsWrite: Bool { outputOffset < output.count }

    /// Bytes waiting to be sent, starting at the first unsent one.
    var pendingOutput: ArraySlice<UInt8> { output[outputOffset...] }

    var deadline: Instant? {
        switch phase {
        case .awaitingRequest(let deadline, _), .readingHead(let deadline), .readingBody(let deadline),
            .writingResponse(let deadline), .lingering(let deadline):
            deadline
        case .streaming(let deadline):
            deadline
        case .handling, .closed:
            nil
        }
    }

    /// Nothing of a request has arrived: kept alive between requests, or silent since it was accepted. Closing it
    /// loses no one's request, so the server may when it needs the slot.
    var isIdle: Bool {
        if case .awaitingRequest = phase { return true }
        return false
    }

    var isStreaming: Bool {
        if case .streaming = phase { return true }
        return false
    }

    // MARK: Events

    mutating func received(_ bytes: some Collection<UInt8>, now: Instant, date: String) -> [Action] {
        switch phase {
        case .lingering, .streaming:
            // Nothing more is answered on a streaming connection; what the client sends is dropped.
            lingerBytes += bytes.count
            return lingerBytes > Self.maxLingerBytes ? close() : []
        case .awaitingRequest(let deadline, let firstRequest):
            guard !bytes.isEmpty else { return [] }
            // The first request's header clock started at accept, so a slow first byte gains nothing.
            phase = .readingHead(deadline: firstRequest ? deadline : now + timeouts.header)
            current = (nil, now)
        case .readingHead, .readingBody:
            break
        case .handling, .writingResponse, .closed:
            // Not asked for; keep it for the next request rather than lose it.
            parser.append(bytes)
            return []
        }
        parser.append(bytes)
        return advance(now: now, date: date)
    }

    /// The peer will send nothing more (read returned 0).
    mutating func inputEnded(now: Instant, date: String) -> [Action] {
        inputClosed = true
        switch phase {
        case .awaitingRequest, .readingHead, .readingBody, .lingering, .streaming:
            // Nothing complete to answer; a half-sent request cannot be finished; a page has gone.
            return close()
        case .handling, .writingResponse:
            closeAfterResponse = true
            return []
        case .closed:
            return []
        }
    }

    mutating func handlerFinished(_ response: HTTPResponse, now: Instant, date: String) -> [Action] {
        guard phase == .handling, let head = current?.head else { return [] }
        let keepAlive = !closeAfterResponse && KeepAlivePolicy.keepsAlive(
            requestVersion: head.version, requestHeaders: head.headers, responseHeaders: response.headers,
            serverWantsClose: shuttingDown)
        closeAfterResponse = !keepAlive
        if response.stream != nil, head.method != "HEAD" {
            // The connection belongs to the stream from now on and closes when it ends.
            closeAfterResponse = true
            output += ResponseEncoder.encodeStreamHead(response, date: date)
            phase = .streaming(deadline: now + timeouts.write)
            if shuttingDown { streamEnded = true }
            return [.log(logEntry(status: response.status, now: now))]
        }
        output += ResponseEncoder.encode(
            response, isHeadRequest: head.method == "HEAD", keepAlive: keepAlive, requestVersion: head.version,
            date: date)
        phase = .writingResponse(deadline: now + timeouts.write)
        return [.log(logEntry(status: response.status, now: now))]
    }

    /// More bytes of a streamed response.
    mutating func streamed(_ bytes: [UInt8], now: Instant) -> [Action] {
        guard case .streaming(let deadline) = phase, !streamEnded else { return [] }
        if output.count - outputOffset + bytes.count > Self.maxStreamBacklog { return close() }
        output += bytes
        phase = .streaming(deadline: deadline ?? now + timeouts.write)
        return []
    }

    /// The streamed response has ended: close once what it sent is written.
    mutating func streamFinished() -> [Action] {
        guard isStreaming else { return [] }
        streamEnded = true
        return wantsWrite ? [] : close()
    }

    /// `count` bytes of `pendingOutput` were sent.
    mutating func wrote(_ count: Int, now: Instant, date: String) -> [Action] {
        outputOffset = min(output.count, outputOffset + count)
        if case .streaming = phase {
            guard outputOffset == output.count else {
                phase = .streaming(deadline: now + timeouts.write)  // progress: the client is reading
                return []
            }
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
            phase = .streaming(deadline: nil)
            return streamEnded ? close() : []
        }
        guard outputOffset == output.count else { return [] }
        output.removeAll(keepingCapacity: true)
        outputOffset = 0
        guard case .writingResponse = phase else { return [] }  // an interim 100 Continue went out
        current = nil
        if closeAfterResponse || shuttingDown {
            if inputClosed { return close() }
            phase = .lingering(deadline: now + timeouts.linger)
            return [.halfClose]
        }
        phase = .awaitingRequest(deadline: now + timeouts.idle, firstRequest: false)
        guard parser.bufferedByteCount > 0 else { return inputClosed ? close() : [] }
        // A pipelined request is already waiting in the buffer.
        phase = .readingHead(deadline: now + timeouts.header)
        current = (nil, now)
        let actions = advance(now: now, date: date)
        if inputClosed, phase != .handling, !wantsWrite { return actions + close() }
        return actions
    }

    /// The socket failed (reset, broken pipe): nothing more can be sent or received.
    mutating func failed() -> [Action] {
        close()
    }

    /// Checks the deadline of the current stage.
    mutating func tick(now: Instant, date: String) -> [Action] {
        guard let deadline, now >= deadline else { return [] }
        switch phase {
        case .readingHead:
            return respondWithError(
                status: 408, message: "the request header was not received within \(timeouts.header)",
                now: now, date: date)
        case .readingBody:
            return respondWithError(
                status: 408, message: "the request body was not received within \(timeouts.body)", now: now,
                date: date)
        case .awaitingRequest, .writingResponse, .lingering, .streaming, .handling, .closed:
            return close()
        }
    }

    /// The server is stopping: idle connections close now, requests under way finish and then close.
    mutating func beginShutdown() -> [Action] {
        shuttingDown = true
        closeAfterResponse = true
        if case .awaitingRequest = phase { return close() }
        if isStreaming { return streamFinished() }
        return []
    }

    // MARK: Internals

    private mutating func advance(now: Instant, date: String) -> [Action] {
        while true {
            let event: HTTPParserEvent?
            do {
                event = try parser.nextEvent()
            } catch {
                return respondWithError(status: error.status, message: error.description, now: now, date: date)
            }
            switch event {
            case nil:
                return []
            case .head(let head)?:
                current = (head, current?.startedAt ?? now)
                if head.hasBody {
                    if head.expectsContinue, parser.bufferedByteCount == 0 { output += ResponseEncoder.continueResponse }
                    phase = .readingBody(deadline: now + timeouts.body)
                }
            case .request(var request)?:
                request.remoteAddress = remoteAddress
                phase = .handling
                return [.runHandler(request)]
            }
        }
    }

    private mutating func respondWithError(status: Int, message: String, now: Instant, date: String) -> [Action] {
        closeAfterResponse = true
        output += ResponseEncoder.encode(
            ResponseEncoder.errorResponse(status: status, message: message), isHeadRequest: false,
            keepAlive: false, requestVersion: .http1_1, date: date)
        phase = .writingResponse(deadline: now + timeouts.write)
        return [.log(logEntry(status: status, now: now))]
    }

    private func logEntry(status: Int, now: Instant) -> HTTPRequestLogEntry {
        let head = current?.head
        let elapsed = now - (current?.startedAt ?? now)
        let (seconds, attoseconds) = elapsed.components
        return HTTPRequestLogEntry(
            method: head?.method ?? "-", path: head.map { HTTPRequest.pathOf($0.target) } ?? "-", status: status,
            milliseconds: Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }

    private mutating func close() -> [Action] {
        guard phase != .closed else { return [] }
        phase = .closed
        output = []
        outputOffset = 0
        return [.close]
    }
}
