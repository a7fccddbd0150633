import TextScalars

/// Routes that answer every request under one path (`/display`, `/order`) and pass any other request on,
/// so several of them and the server's other routes share one handler.
public protocol PathRoutes: Sendable {
    /// The path they answer, and every path below it.
    static var path: String { get }
    /// The response, or nil for a request of another route.
    func respond(to request: HTTPRequest) async -> HTTPResponse?
}

extension PathRoutes {
    /// Whether `request` is for these routes (`path`, `path/…`, with any query).
    public static func claims(_ request: HTTPRequest) -> Bool {
        request.path == path || request.path.hasPrefix(path + "/")
    }

    /// A handler that answers these routes and hands every other request to `otherRoutes`.
    public func handler(
        otherRoutes: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) -> @Sendable (HTTPRequest) async -> HTTPResponse {
        let routes = self
        return { request in
            if let response = await routes.respond(to: request) { return response }
            return await otherRoutes(request)
        }
    }
}

extension HTTPResponse {
    /// A page's script file (the pages carry no inline script: their policy is `script-src 'self'`).
    public static func script(_ source: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache",
                                            "X-Content-Type-Options": "nosniff"], body: Array(source.utf8))
    }
}

/// Text made safe for HTML content and quoted attribute values: the one HTML encoder of the web fronts.
/// It works on Unicode scalars, never on `Character`s (a `"` followed by U+0301, or a `<` after U+0600, is one
/// `Character` and equals neither), and draws every hidden scalar (controls, bidi and zero-width format
/// characters, line and paragraph separators: `isHiddenInText`) as U+FFFD, so what is shown is what is there.
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\n", "\t": result.unicodeScalars.append(scalar)
            default:
                if scalar.isHiddenInText { result += "\u{FFFD}" } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }
}
