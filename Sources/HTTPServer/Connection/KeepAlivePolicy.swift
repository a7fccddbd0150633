/// Whether a connection stays open after a response (RFC 9112 §9.3), as a pure decision.
///
/// HTTP/1.1 connections persist unless either side says `Connection: close`; HTTP/1.0 connections
/// persist only when the client asked with `Connection: keep-alive`. `Connection` is a comma-separated
/// list of case-insensitive tokens, possibly spread over several field lines.
public enum KeepAlivePolicy {
    /// Whether the client's request allows the connection to be reused.
    public static func clientAllowsReuse(version: HTTPVersion, headers: HTTPHeaders) -> Bool {
        let tokens = headers.tokens(for: "Connection")
        if tokens.contains("close") { return false }
        if version >= .http1_1 { return true }
        return tokens.contains("keep-alive")
    }

    /// Whether to keep the connection open after answering `request` with `response`.
    /// - Parameter serverWantsClose: the server's own reason to close (shutting down, for instance).
    public static func keepsAlive(
        requestVersion: HTTPVersion, requestHeaders: HTTPHeaders, responseHeaders: HTTPHeaders,
        serverWantsClose: Bool = false
    ) -> Bool {
        !serverWantsClose
            && !responseHeaders.tokens(for: "Connection").contains("close")
            && clientAllowsReuse(version: requestVersion, headers: requestHeaders)
    }
}
