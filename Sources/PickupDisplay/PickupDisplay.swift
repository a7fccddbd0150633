import HTTPServer

/// The pickup screen's routes: `GET /display` (the page) and `GET /display/events` (its live board as
/// Server-Sent Events). Tokenless and read-only by design: they show only pickup numbers and states.
/// Every other path is not this type's business (``respond(to:)`` returns nil), so the server's other
/// routes, and their token, are untouched.
///
/// ```swift
/// let display = PickupDisplay(source: boards)
/// let server = HTTPServer(configuration: configuration, handler: display.handler { await api.handle($0) })
/// ```
public struct PickupDisplay: PathRoutes {
    /// The page's path; the event stream is at `path + "/events"`.
    public static let path = "/display"

    public let source: any PickupBoardSource
    /// How often an idle event stream sends a comment, so proxies and the browser keep it open.
    public let heartbeat: Duration
    /// The shop's name in the page's title and heading.
    public let title: String

    public init(source: any PickupBoardSource, heartbeat: Duration = .seconds(15), title: String = "取餐叫號") {
        self.source = source
        self.heartbeat = heartbeat
        self.title = title
    }

    /// A server handler that answers the pickup screen's paths and passes every other request to
    /// `otherRoutes` (e.g. the token-protected Airtable API), unchanged.
    /// The response for a pickup-screen request, or nil when the request is for another route.
    public func respond(to request: HTTPRequest) async -> HTTPResponse? {
        guard Self.claims(request) else { return nil }
        let route: Route
        switch request.path {
        case Self.path, Self.path + "/": route = .page
        case Self.path + "/events": route = .events
        case DisplayScript.path: route = .script
        default:
            return .text("There is nothing at \(Self.shown(request.path)); the pickup screen is at \(Self.path)\n", status: 404)
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.text("The pickup screen is read-only; use GET\n", status: 405)
            response.headers.replaceOrAdd(name: "Allow", value: "GET, HEAD")
            return response
        }
        guard request.body.isEmpty else { return .text("GET takes no request body\n", status: 400) }
        switch route {
        case .page:
            return HTTPResponse(
                status: 200,
                headers: [
                    "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache",
                    // Nothing from elsewhere: the page's inline style and its one script file (no inline script).
                    "Content-Security-Policy":
                        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'",
                    "X-Content-Type-Options": "nosniff",
                ],
                body: Array(DisplayPage.html(title: title, eventsPath: Self.path + "/events").utf8))
        case .script:
            return .script(DisplayScript.source)
        case .events:
            if request.method == "HEAD" { return HTTPResponse(status: 200, headers: ServerSentEvent.responseHeaders) }
            return .eventStream(BoardEventStream.start(source: source, heartbeat: heartbeat))
        }
    }

    private enum Route { case page, events, script }

    /// A path as echoed in an error: printable ASCII only, and not too long.
    private static func shown(_ path: String) -> String {
        String(path.unicodeScalars.filter { $0.value >= 0x21 && $0.value < 0x7F }.prefix(80).map(Character.init))
    }
}
