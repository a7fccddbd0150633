import Airtable
import Foundation

extension AirtableClient {
    /// Where the client talks to and how politely.
    public struct Configuration: Sendable, CustomStringConvertible {
        /// The base (`app…`).
        public var baseID: String
        /// The bearer token; never shown by any textual form of the configuration.
        public var token: AccessToken
        /// The API root without a trailing slash, e.g. `https://api.airtable.com` or
        /// `http://127.0.0.1:8080/prefix` (a path prefix is kept, as pyairtable keeps it).
        public private(set) var endpoint: String
        /// The sustained request rate per base; Airtable allows 5.
        public var requestsPerSecond: Double
        /// Requests sent back to back before the rate applies; nil picks `RequestThrottle.defaultBurst`.
        public var burst: Int?
        /// Attempts, backoff and the wait after a 429.
        public var retry: RetryPolicy
        /// The most one request may take, in seconds, from asking for its turn to its answer, across
        /// every retry and wait.
        public var deadline: Double
        /// The longest one attempt waits for its answer; a stalled attempt is abandoned and, if the
        /// request is safe to repeat, sent again (within `deadline`).
        public var attemptTimeout: Double
        /// The `User-Agent` of every request: the program using the client names itself here.
        public var userAgent = Configuration.defaultUserAgent

        /// The `User-Agent` of a program that names none.
        public static let defaultUserAgent = "AirtableClient-Swift/1"

        /// Airtable's own API.
        public static let airtableEndpoint = "https://api.airtable.com"

        /// Checks and normalises the settings; the error says which one is wrong and how.
        public init(baseID: String, token: String, endpoint: String = Configuration.airtableEndpoint,
                    requestsPerSecond: Double = 5, burst: Int? = nil, retry: RetryPolicy = RetryPolicy(),
                    deadline: Double = 60, attemptTimeout: Double = 20) throws(ClientConfigurationError) {
            guard !baseID.isEmpty, !baseID.unicodeScalars.contains(where: { $0.value <= 0x20 || $0 == "/" }) else {
                throw ClientConfigurationError("the base id must be one word like appXXXXXXXXXXXXXX, not \"\(baseID)\"")
            }
            guard let token = AccessToken(token) else {
                throw ClientConfigurationError(token.isEmpty ? "the access token is empty"
                    : "the access token contains spaces or control characters; check how it was copied")
            }
            guard requestsPerSecond > 0, requestsPerSecond.isFinite else {
                throw ClientConfigurationError("the request rate must be a positive number of requests per second")
            }
            guard deadline > 0, deadline.isFinite, attemptTimeout > 0, attemptTimeout.isFinite else {
                throw ClientConfigurationError("the deadline and the attempt timeout must be positive numbers of seconds")
            }
            if let burst, burst < 1 { throw ClientConfigurationError("the burst must be at least 1 request") }
            self.baseID = baseID
            self.token = token
            self.endpoint = try Configuration.normalizedEndpoint(endpoint)
            self.requestsPerSecond = requestsPerSecond
            self.burst = burst
            self.retry = retry
            self.deadline = deadline
            self.attemptTimeout = attemptTimeout
        }

        /// The burst the throttle uses.
        public var effectiveBurst: Int { burst ?? RequestThrottle.defaultBurst(for: requestsPerSecond) }

        /// `Airtable base appXXXX at https://api.airtable.com`; no token.
        public var description: String { "Airtable base \(baseID) at \(endpoint)" }

        /// `http(s)://host[:port][/prefix]`, without a trailing slash; no credentials, query or fragment.
        static func normalizedEndpoint(_ text: String) throws(ClientConfigurationError) -> String {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let schemeEnd = trimmed.firstRange(of: "://") else {
                throw ClientConfigurationError("the endpoint URL must start with http:// or https://")
            }
            let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "http" || scheme == "https" else {
                throw ClientConfigurationError("the endpoint URL must start with http:// or https://, not \(scheme)://")
            }
            let rest = trimmed[schemeEnd.upperBound...]
            let authority = rest.prefix { $0 != "/" }
            guard !authority.contains("@") else {
                throw ClientConfigurationError("the endpoint URL may not carry a user name or password; "
                    + "give the token separately")
            }
            guard !authority.isEmpty, !rest.contains("?"), !rest.contains("#"),
                  !rest.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F })
            else {
                throw ClientConfigurationError("the endpoint URL must be a plain address like "
                    + "https://api.airtable.com or http://127.0.0.1:8080, with no query or spaces")
            }
            var path = rest.dropFirst(authority.count)
            while path.hasSuffix("/") { path = path.dropLast() }
            return scheme + "://" + authority + path
        }
    }
}

/// A client setting that cannot be used; the text says which and why.
public struct ClientConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
