import Airtable
import Foundation

/// An Airtable personal access token (or any bearer token). Every textual form of it, including
/// `dump` and string interpolation, shows only that a token is there, so it cannot leak into output,
/// logs, errors or crash reports by accident.
public struct AccessToken: Sendable, Hashable {
    /// The secret itself; read only where the `Authorization` header is built.
    let secret: String

    /// A token; nil when it is empty or holds white space or control characters (which could not be
    /// sent in a header, and usually mean a copy-paste went wrong).
    public init?(_ secret: String) {
        guard !secret.isEmpty,
              !secret.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else { return nil }
        self.secret = secret
    }

    /// The `Authorization` header value.
    /// The `Authorization` value: for requests only, never for output.
    public var bearerHeader: String { "Bearer " + secret }

    /// `text` with every occurrence of the token replaced, for messages built from what a server sent
    /// (a misbehaving server might echo the request back).
    func redacting(_ text: String) -> String {
        text.replacingOccurrences(of: secret, with: "[token]")
    }
}

extension AccessToken: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "[token hidden]" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
