/// The protocol version of a request line: only HTTP/1.0 and HTTP/1.1 are served.
public struct HTTPVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The digit before the dot.
    public var major: Int
    /// The digit after the dot.
    public var minor: Int

    /// The version `HTTP/major.minor`.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// HTTP/1.0: connections close after each response unless the client asks for keep-alive.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1: connections persist unless either side says close.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// Orders by major, then minor version.
    public static func < (lhs: HTTPVersion, rhs: HTTPVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    /// `HTTP/1.1`
    public var description: String { "HTTP/\(major).\(minor)" }
}
