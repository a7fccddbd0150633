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

/// Text made safe for HTML content and quoted attribute values.
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
