// Linux only: MSG_NOSIGNAL, SOCK_CLOEXEC/SOCK_NONBLOCK and accept4 have no Darwin equivalents here.
@preconcurrency import Glibc

/// What the accept loop does after `accept` fails: an accept loop that stops on the first error
/// takes the whole server down with it.
enum AcceptErrorPolicy {
    enum Decision: Equatable {
        /// Nothing more is pending now; wait for the listener to become readable again.
        case waitForReadiness
        /// That one connection failed (aborted before accept, protocol error); try the next at once.
        case tryNext
        /// Out of descriptors or memory: the pending connection stays queued, so polling again at once
        /// would spin. Stop accepting for `delay` and let connections close meanwhile.
        case pause(Duration)
    }

    static let initialPause = Duration.milliseconds(10)
    static let maxPause = Duration.seconds(1)

    /// - Parameter previousPause: the pause after the previous consecutive failure, doubled each time.
    static func decide(errno code: Int32, previousPause: Duration?) -> Decision {
        switch code {
        case EAGAIN, EWOULDBLOCK:
            return .waitForReadiness
        case EINTR, ECONNABORTED, EPROTO, EPERM, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH, EOPNOTSUPP,
            ENETDOWN, ENETUNREACH:
            // Linux reports pending network errors of the new socket through accept; retry as accept(2) advises.
            return .tryNext
        default:
            // EMFILE, ENFILE, ENOBUFS, ENOMEM and anything unexpected: back off rather than spin or die.
            guard let previousPause else { return .pause(initialPause) }
            return .pause(min(previousPause * 2, maxPause))
        }
    }
}
