/// What the parser has recognised in the bytes fed to it so far.
public enum HTTPParserEvent: Sendable, Equatable {
    /// The request line and header section are complete and valid; the body (if any) comes next.
    case head(HTTPRequestHead)
    /// A whole request, body included.
    case request(HTTPRequest)
}

/// An incremental HTTP/1.1 request parser: a pure state machine over bytes, with no I/O and no clock.
///
/// Feed it bytes as they arrive with ``append(_:)`` and pull events with ``nextEvent()`` until it
/// returns nil (more bytes needed). For every request it yields `.head` then `.request`. Bytes after a
/// request stay buffered for the next one, so pipelined requests come out in order. After an error the
/// parser stays failed: the stream's framing can no longer be trusted.
public struct HTTPRequestParser: Sendable {
    /// The size limits this parser enforces.
    public let limits: HTTPParserLimits

    private enum State: Sendable {
        case requestLine(emptyLinesSkipped: Int)
        case headerLines(RequestLineSyntax.RequestLine, HTTPHeaders)
        case body(HTTPRequestHead, remaining: Int, body: [UInt8])
        case chunkSize(HTTPRequestHead, body: [UInt8])
        case chunkData(HTTPRequestHead, remaining: Int, body: [UInt8])
        case chunkDataEnd(HTTPRequestHead, body: [UInt8])
        case trailers(HTTPRequestHead, body: [UInt8], trailers: HTTPHeaders)
        case failed(HTTPParseError)
    }

    private var state: State = .requestLine(emptyLinesSkipped: 0)
    private var buffer = InputBuffer()
    /// Field lines and bytes of the current request's header and trailer sections, checked against the limits.
    private var fieldCount = 0
    private var fieldBytes = 0
    /// The 1-based line number of the next field line (the request line is line 1), for error messages.
    private var lineNumber = 1
    /// Whether the current request's head has been handed out yet.
    private var headEmitted = false

    /// Clients may send stray empty lines between requests (RFC 9112 §2.2); a few are skipped, not endless ones.
    private static let maxLeadingEmptyLines = 8

    /// A parser waiting for the first byte of a request.
    public init(limits: HTTPParserLimits = HTTPParserLimits()) {
        self.limits = limits
    }

    /// Adds bytes received from the peer.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(bytes)
    }

    /// How many received bytes have not been consumed by a completed step yet.
    public var bufferedByteCount: Int { buffer.count }

    /// Whether the parser sits between requests with nothing buffered: no request has begun.
    public var isIdle: Bool {
        if case .requestLine = state, buffer.isEmpty { return true }
        return false
    }

    /// Whether the head of the current request has been parsed and its body is still being read.
    public var isReadingBody: Bool {
        switch state {
        case .body, .chunkSize, .chunkData, .chunkDataEnd, .trailers: true
        case .requestLine, .headerLines, .failed: false
        }
    }

    /// The error the parser failed with, if it has.
    public var failure: HTTPParseError? {
        if case .failed(let error) = state { return error }
        return nil
    }

    /// The next event the buffered bytes allow, or nil when more bytes are needed.
    /// - Throws: ``HTTPParseError`` when the bytes break the protocol or a limit; it is thrown again
    ///   on every later call.
    public mutating func nextEvent() throws(HTTPParseError) -> HTTPParserEvent? {
        if case .failed(let error) = state { throw error }
        do {
            return try step()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func step() throws(HTTPParseError) -> HTTPParserEvent? {
        while true {
            switch state {
            case .failed(let error):
                throw error

            case .requestLine(let skipped):
                switch buffer.takeLine(limit: limits.maxRequestLineLength) {
                case .needMoreBytes: return nil
                case .tooLong: throw .requestLineTooLong(limit: limits.maxRequestLineLength)
                case .line(let line) where line.isEmpty:
                    guard skipped < Self.maxLeadingEmptyLines else {
                        throw .malformedRequestLine("too many empty lines before the request line")
                    }
                    state = .requestLine(emptyLinesSkipped: skipped + 1)
                case .line(let line):
                    state = .headerLines(try RequestLineSyntax.parse(line), HTTPHeaders())
                    lineNumber = 2
                }

            case .headerLines(let requestLine, var headers):
                guard let field = try nextFieldLine() else { return nil }
                if let field {
                    headers.add(name: field.name, value: field.value)
                    state = .headerLines(requestLine, headers)
                    continue
                }
                let decision = try MessageFraming.decide(version: requestLine.version, headers: headers, limits: limits)
                let head = HTTPRequestHead(
                    method: requestLine.method, target: requestLine.target, version: requestLine.version,
                    headers: headers, framing: decision.framing, expectsContinue: decision.expectsContinue)
                switch decision.framing {
                case .none: state = .body(head, remaining: 0, body: [])
                case .length(let length): state = .body(head, remaining: length, body: [])
                case .chunked: state = .chunkSize(head, body: [])
                }
                headEmitted = true
                return .head(head)

            case .body(let head, let remaining, var body):
                if remaining > 0 {
                    let taken = buffer.take(upTo: remaining)
                    guard !taken.isEmpty else { return nil }
                    body.append(contentsOf: taken)
                    state = .body(head, remaining: remaining - taken.count, body: body)
                    continue
                }
                return .request(finish(head, body: body, trailers: HTTPHeaders()))

            case .chunkSize(let head, let body):
                switch buffer.takeLine(limit: limits.maxChunkLineLength) {
                case .needMoreBytes: return nil
                case .tooLong: throw .malformedChunk("a chunk-size line is longer than \(limits.maxChunkLineLength) bytes")
                case .line(let line):
                    let size = try ChunkSizeSyntax.parse(line, bodySoFar: body.count, limits: limits)
                    state = size == 0 ? .trailers(head, body: body, trailers: HTTPHeaders())
                        : .chunkData(head, remaining: size, body: body)
                }

            case .chunkData(let head, let remaining, var body):
                let taken = buffer.take(upTo: remaining)
                guard !taken.isEmpty else { return nil }
                body.append(contentsOf: taken)
                state = taken.count == remaining
                    ? .chunkDataEnd(head, body: body) : .chunkData(head, remaining: remaining - taken.count, body: body)

            case .chunkDataEnd(let head, let body):
                switch (buffer.peek(), buffer.peek(offset: 1)) {
                case (nil, _), (0x0D?, nil): return nil
                case (0x0A?, _): buffer.skip(1)
                case (0x0D?, 0x0A?): buffer.skip(2)
                default: throw .malformedChunk("chunk data is longer than its declared size (no CRLF after it)")
                }
                state = .chunkSize(head, body: body)

            case .trailers(let head, let body, var trailers):
                guard let field = try nextFieldLine() else { return nil }
                if let field {
                    trailers.add(name: field.name, value: field.value)
                    state = .trailers(head, body: body, trailers: trailers)
                    continue
                }
                return .request(finish(head, body: body, trailers: trailers))
            }
        }
    }

    /// The next header or trailer field: nil when more bytes are needed, `.some(nil)` at the empty line
    /// that ends the section.
    private mutating func nextFieldLine() throws(HTTPParseError) -> HTTPHeaders.Field?? {
        switch buffer.takeLine(limit: limits.maxHeaderLineLength) {
        case .needMoreBytes:
            return nil
        case .tooLong:
            throw .headerLineTooLong(line: lineNumber, limit: limits.maxHeaderLineLength)
        case .line(let line) where line.isEmpty:
            return .some(nil)
        case .line(let line):
            fieldCount += 1
            fieldBytes += line.count + 2
            guard fieldCount <= limits.maxHeaderCount else { throw .tooManyHeaders(limit: limits.maxHeaderCount) }
            guard fieldBytes <= limits.maxHeaderBytes else { throw .headersTooLarge(limit: limits.maxHeaderBytes) }
            let field = try FieldLineSyntax.parse(line, lineNumber: lineNumber)
            lineNumber += 1
            return .some(field)
        }
    }

    private mutating func finish(_ head: HTTPRequestHead, body: [UInt8], trailers: HTTPHeaders) -> HTTPRequest {
        state = .requestLine(emptyLinesSkipped: 0)
        fieldCount = 0
        fieldBytes = 0
        lineNumber = 1
        headEmitted = false
        return HTTPRequest(
            method: head.method, target: head.target, version: head.version, headers: head.headers,
            body: body, trailers: trailers)
    }
}
