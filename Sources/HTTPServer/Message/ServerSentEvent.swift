/// One Server-Sent Event in the `text/event-stream` format (WHATWG HTML §9.2).
public struct ServerSentEvent: Sendable, Equatable {
    /// The event type; nil for the default `message`.
    public var event: String?
    /// The data; each line becomes a `data:` field.
    public var data: String
    /// The id the browser sends back as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// How long the browser waits before reconnecting, in milliseconds.
    public var retryMilliseconds: Int?

    public init(event: String? = nil, data: String, id: String? = nil, retryMilliseconds: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retryMilliseconds = retryMilliseconds
    }

    /// The event's bytes, ending with the blank line that dispatches it. CR and LF inside `event` and
    /// `id` are dropped so a value cannot start a field of its own.
    public var bytes: [UInt8] {
        var text = ""
        if let retryMilliseconds { text += "retry: \(max(0, retryMilliseconds))\n" }
        if let id { text += "id: \(Self.oneLine(id))\n" }
        if let event { text += "event: \(Self.oneLine(event))\n" }
        let lines = data.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        for line in lines { text += "data: \(line)\n" }
        text += "\n"
        return Array(text.utf8)
    }

    /// A comment line: ignored by the browser, but it keeps proxies and the connection from going idle.
    public static let heartbeat: [UInt8] = Array(": heartbeat\n\n".utf8)

    /// The headers of an event stream response.
    public static let responseHeaders: HTTPHeaders = [
        "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache",
    ]

    private static func oneLine(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" })
    }
}
