import Foundation

/// Where a printer's bytes go, parsed from a setting such as `PRINTER_LABEL=tcp://192.168.1.50:9100`.
///
/// Accepted spellings:
/// - `tcp://HOST:PORT` or `tcp://HOST` (port 9100, the raw printing port); IPv6 hosts in brackets;
/// - a path under `/dev/` (a USB or serial printer's device file), written without creating or truncating;
/// - any other path, or `file:PATH`: a plain file the jobs are appended to (for trying things out).
/// Anything else with a scheme (`lpt:`, `http://`, `usb://`) is refused with ``PrinterAddressError``.
public enum PrinterAddress: Sendable, Equatable, CustomStringConvertible {
    case device(path: String)
    case file(path: String)
    case network(host: String, port: Int)

    /// The raw (JetDirect) printing port printers listen on.
    public static let defaultPort = 9100

    public init(parsing text: String) throws(PrinterAddressError) {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw .empty }
        if text.lowercased().hasPrefix("tcp://") {
            self = try Self.parseNetwork(String(text.dropFirst(6)), original: text)
            return
        }
        if text.lowercased().hasPrefix("file:") {
            var path = String(text.dropFirst(5))
            if path.hasPrefix("//") { path.removeFirst(2) }
            guard !path.isEmpty else { throw .missingPath(text) }
            self = .file(path: path)
            return
        }
        if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") {
            let scheme = String(text[..<colon])
            throw .unsupportedScheme(scheme, text)
        }
        self = text.hasPrefix("/dev/") ? .device(path: text) : .file(path: text)
    }

    private static func parseNetwork(_ rest: String, original: String) throws(PrinterAddressError) -> PrinterAddress {
        var rest = Substring(rest)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("@") else { throw .unexpectedPath(original) }
        let host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .missingHost(original) }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidPort(String(after), original) }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty, !host.contains(":") || rest.hasPrefix("[") else { throw .missingHost(original) }
        var port = defaultPort
        if let portText {
            guard let value = Int(portText), (1...65_535).contains(value) else {
                throw .invalidPort(String(portText), original)
            }
            port = value
        }
        return .network(host: String(host), port: port)
    }

    public var description: String {
        switch self {
        case .device(let path): path
        case .file(let path): path
        case .network(let host, let port): host.contains(":") ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)"
        }
    }
}

/// Why a printer setting is not an address.
public enum PrinterAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case unsupportedScheme(String, String)
    case missingHost(String)
    case invalidPort(String, String)
    case unexpectedPath(String)
    case missingPath(String)

    public var description: String {
        let forms = "use tcp://HOST:PORT (port 9100 if left out), a device such as /dev/usb/lp0, or a file path"
        switch self {
        case .empty:
            return "the printer address is empty; \(forms)"
        case .unsupportedScheme(let scheme, let text):
            return "printer address '\(text)': '\(scheme):' is not a printer connection this shop knows; \(forms)"
        case .missingHost(let text):
            return "printer address '\(text)' names no host after tcp://; write it as tcp://192.168.1.50:9100"
        case .invalidPort(let port, let text):
            return "printer address '\(text)': port '\(port)' is not a number between 1 and 65535"
        case .unexpectedPath(let text):
            return "printer address '\(text)': a raw printer port takes only tcp://HOST:PORT, no path, query or user"
        case .missingPath(let text):
            return "printer address '\(text)' names no file after file:"
        }
    }
}
