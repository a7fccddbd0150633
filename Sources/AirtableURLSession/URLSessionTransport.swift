import Airtable
import AirtableHTTP
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live transport: Foundation's `URLSession` for `https://` (Airtable), with the Linux pitfalls avoided, and a
/// socket of our own for plain `http://` (`PlainHTTPExchange`: a drinkshop serve on the shop's network).
///
/// - One long-lived session per process (`shared`): creating and tearing down sessions per request is
///   the documented crash family of swift-corelibs-foundation.
/// - The deadline is enforced here, in Swift: on Linux `timeoutIntervalForResource` is never applied,
///   and `timeoutInterval` is an idle timeout truncated to whole seconds.
/// - No cookies, no cache; `Content-Type` set whenever there is a body (corelibs would otherwise send
///   `application/x-www-form-urlencoded`).
/// - No redirects followed: a 3xx is the answer (`FollowsNoRedirects`). A request goes only where its URL
///   says, so a webhook receiver cannot bounce a ping to an address nobody checked, and the client's
///   token never travels to a host a redirect names.
public final class URLSessionTransport: HTTPTransport {
    /// The process's one session-backed transport.
    public static let shared = URLSessionTransport()

    private let session: URLSession

    private init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 60
        configuration.httpMaximumConnectionsPerHost = 6
        session = URLSession(configuration: configuration)
    }

    /// Sends over the shared session, racing the answer against `timeout`.
    public func send(_ request: TransportRequest, timeout: Double) async throws(TransportError) -> TransportResponse {
        guard let url = URL(string: request.url), let host = url.host else {
            throw TransportError(.notSent, "the address \(Self.redactedAddress(request.url)) is not a valid URL")
        }
        guard timeout > 0 else { throw TransportError(.timedOut, "no time left to send the request") }
        let place = host + (url.port.map { ":\($0)" } ?? "")
        // Plain http (a drinkshop serve on the shop's network) goes over a socket of our own: see PlainHTTPExchange.
        if let target = PlainHTTPExchange.Target(request.url) {
            return try await PlainHTTPExchange.send(request, to: target, timeout: timeout, place: place)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        // Whole seconds (corelibs truncates fractions, and 0 fails at once), a second beyond the race
        // below: that race is the deadline, URLSession's idle timer only a backstop.
        urlRequest.timeoutInterval = max(1, timeout.rounded(.up)) + 1
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        // No connection is kept for later: when a server closes a connection libcurl keeps in its cache
        // (an idle timeout, a dropped answer), corelibs' URLSession can spin at full CPU and never answer
        // again (swift-corelibs-foundation #5477; seen here with a proxy that drops answers). A fresh
        // connection per request costs a handshake, which the per-base pacing of 5 requests/s easily covers.
        // It also keeps libcurl from quietly re-sending a request on a fresh connection when a reused one
        // dies before answering, which would undercut the rule that creates are never sent twice blindly.
        urlRequest.setValue("close", forHTTPHeaderField: "Connection")
        if let body = request.body {
            urlRequest.httpBody = Data(body)
            if urlRequest.value(forHTTPHeaderField: "Content-Type") == nil {
                urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        }
        let finalRequest = urlRequest
        let session = session

        // The answer, the deadline and the caller's cancellation race; whichever comes first decides, once.
        // The URLSession task is cancelled from a queue of its own, never from inside Swift's cancellation
        // handler or a task group's cancelAll: corelibs' `cancel()` waits for the session's queue, which may
        // at that moment be handing the answer to a continuation that waits for the same task's lock (a
        // deadlock seen here, under a deadline that fell as the answer came).
        let race = RequestRace()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                // Cancelled before it began: answered at once, nothing sent.
                guard race.start(continuation) else { return }
                let task = session.dataTask(with: finalRequest) { data, response, error in
                    if let error {
                        race.finish(.failed(Self.classify(error, place: place)), stoppingTransfer: false)
                    } else if let http = response as? HTTPURLResponse {
                        race.finish(.answered(Self.response(http, data ?? Data())), stoppingTransfer: false)
                    } else {
                        race.finish(.failed(TransportError(.interrupted, "\(place) answered with something other than HTTP")),
                                    stoppingTransfer: false)
                    }
                }
                // Corelibs asks a task's own delegate about redirects even for a task with a completion handler.
                task.delegate = FollowsNoRedirects.shared
                race.attach(task)
                RequestRace.timers.asyncAfter(deadline: .now() + timeout) { race.finish(.deadline, stoppingTransfer: true) }
                task.resume()
            }
        } onCancel: {
            RequestRace.timers.async {
                race.finish(.failed(TransportError(.cancelled, "the request to \(place) was cancelled")), stoppingTransfer: true)
            }
        }
        switch outcome {
        case .answered(let response): return response
        case .failed(let error): throw error
        case .deadline: throw TransportError(.timedOut, "\(place) did not answer in time")
        }
    }

    /// One request's race between its answer, its deadline and cancellation: the first to finish resumes
    /// the waiting caller; a deadline or a cancellation also cancels the URLSession task (on `timers`,
    /// outside any lock).
    private final class RequestRace: Sendable {
        static let timers = DispatchQueue(label: "URLSessionTransport deadlines")
        private let state = Mutex<(continuation: CheckedContinuation<Outcome, Never>?, task: URLSessionDataTask?, done: Bool)>(
            (nil, nil, false))

        /// Keeps the waiting caller; false (and the caller answered) when the race is already over.
        func start(_ continuation: CheckedContinuation<Outcome, Never>) -> Bool {
            let over = state.withLock { state -> Bool in
                if !state.done { state.continuation = continuation }
                return state.done
            }
            if over { continuation.resume(returning: .failed(TransportError(.cancelled, "the request was cancelled"))) }
            return !over
        }

        /// Keeps the task, so a deadline or cancellation can stop it (at once if one already came).
        func attach(_ task: URLSessionDataTask) {
            let over = state.withLock { state -> Bool in
                state.task = task
                return state.done
            }
            if over { task.cancel() }
        }

        /// The first outcome answers the caller; later ones are dropped. A deadline or a cancellation also
        /// stops the transfer (`stoppingTransfer`), called on `timers`, outside any lock.
        func finish(_ outcome: Outcome, stoppingTransfer: Bool) {
            let (won, continuation, task) = state.withLock { state in
                guard !state.done else { return (false, CheckedContinuation<Outcome, Never>?.none, URLSessionDataTask?.none) }
                state.done = true
                defer { state.continuation = nil }
                return (true, state.continuation, state.task)
            }
            guard won else { return }
            if stoppingTransfer { task?.cancel() }
            continuation?.resume(returning: outcome)
        }
    }

    /// Answers every redirect with nil: the 3xx response itself is handed to the completion handler.
    private final class FollowsNoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        static let shared = FollowsNoRedirects()

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
            completionHandler(nil)
        }
    }

    private enum Outcome: Sendable {
        case answered(TransportResponse)
        case failed(TransportError)
        case deadline
    }

    private static func response(_ http: HTTPURLResponse, _ data: Data) -> TransportResponse {
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: Array(data))
    }

    /// Sorts URLSession's failures by whether the request may have reached the server. The text names
    /// the host, never the full URL or any header.
    private static func classify(_ error: any Error, place: String) -> TransportError {
        guard let urlError = error as? URLError else {
            if error is CancellationError { return TransportError(.cancelled, "the request to \(place) was cancelled") }
            return TransportError(.interrupted, "the exchange with \(place) failed")
        }
        switch urlError.code {
        case .cancelled:
            return TransportError(.cancelled, "the request to \(place) was cancelled")
        case .cannotConnectToHost:
            return TransportError(.notSent, "could not connect to \(place) (is the server running?)")
        case .cannotFindHost, .dnsLookupFailed:
            return TransportError(.notSent, "the host of \(place) could not be found")
        case .notConnectedToInternet:
            return TransportError(.notSent, "this machine is not connected to a network")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return TransportError(.notSent, "a secure connection to \(place) could not be made")
        case .timedOut:
            return TransportError(.interrupted, "\(place) stopped answering")
        case .networkConnectionLost:
            return TransportError(.interrupted, "the connection to \(place) was lost")
        case .badServerResponse, .cannotParseResponse:
            return TransportError(.interrupted, "\(place) sent a response that is not valid HTTP")
        default:
            return TransportError(.interrupted, "the exchange with \(place) failed (URL error \(urlError.code.rawValue))")
        }
    }

    /// The scheme and host of an address, for messages about an unusable URL.
    private static func redactedAddress(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return "given" }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let host = authority.split(separator: "@").last.map(String.init) ?? ""
        return String(url[..<schemeEnd.upperBound]) + host
    }
}
