/// Why the server could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidPort(Int)
    case cannotResolve(host: String, reason: String)
    case cannotListen(host: String, port: Int, reason: String)
    case cannotCreateWakeChannel(reason: String)
    /// `start()` or `run()` after `shutdown()`: a server runs once.
    case alreadyShutDown

    /// What went wrong, with the address involved.
    public var description: String {
        switch self {
        case .invalidPort(let port):
            "port \(port) is not between 0 and 65535"
        case .cannotResolve(let host, let reason):
            "cannot resolve host '\(host)': \(reason)"
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(host):\(port): \(reason)"
        case .cannotCreateWakeChannel(let reason):
            "cannot create the server's internal wake-up channel: \(reason)"
        case .alreadyShutDown:
            "this server has been shut down; create a new one to serve again"
        }
    }
}
