/// The request line `method SP request-target SP HTTP-version` (RFC 9112 §3).
enum RequestLineSyntax {
    struct RequestLine: Equatable {
        var method: String
        var target: String
        var version: HTTPVersion
    }

    static func parse(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> RequestLine {
        // Exactly single spaces: lenient whitespace handling is where request smuggling hides.
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .malformedRequestLine(
                "expected 'METHOD TARGET HTTP/1.1' separated by single spaces, got '\(HTTPSyntax.printable(line))'")
        }
        let (method, target, version) = (parts[0], parts[1], parts[2])
        guard HTTPSyntax.isToken(method) else {
            throw .malformedRequestLine("method '\(HTTPSyntax.printable(method))' is not a token")
        }
        guard !target.isEmpty, target.allSatisfy(HTTPSyntax.isTargetByte) else {
            throw .malformedRequestLine(
                "target '\(HTTPSyntax.printable(target))' is empty or holds spaces, controls or non-ASCII bytes")
        }
        if target.elementsEqual([UInt8(ascii: "*")]), !method.elementsEqual("OPTIONS".utf8) {
            throw .malformedRequestLine("target '*' is only allowed with OPTIONS")
        }
        return RequestLine(
            method: HTTPSyntax.ascii(method),
            target: try originForm(of: target),
            version: try parseVersion(version))
    }

    /// `HTTP/DIGIT.DIGIT`; any 1.x is served as HTTP/1.1 would be (RFC 9110 §2.5), other majors get 505.
    static func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPVersion {
        let text = HTTPSyntax.printable(bytes)
        let digits = Array(bytes.dropFirst(5))
        guard bytes.starts(with: Array("HTTP/".utf8)), digits.count == 3, digits[1] == UInt8(ascii: "."),
            let major = asciiDigit(digits[0]), let minor = asciiDigit(digits[2])
        else {
            throw .malformedRequestLine("'\(text)' is not an HTTP version like HTTP/1.1")
        }
        guard major == 1 else { throw .unsupportedVersion(text) }
        return HTTPVersion(major: 1, minor: minor)
    }

    /// Origin-form is kept as sent; absolute-form (`http://host/path?q`) is reduced to `/path?q`, which
    /// servers must accept; `*` is kept for OPTIONS. Anything else cannot name a resource here.
    private static func originForm(of target: ArraySlice<UInt8>) throws(HTTPParseError) -> String {
        if target.first == UInt8(ascii: "/") || target.elementsEqual([UInt8(ascii: "*")]) {
            return HTTPSyntax.ascii(target)
        }
        let lowered = target.map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 | 0x20 : $0 }
        for scheme in ["http://", "https://"] where lowered.starts(with: Array(scheme.utf8)) {
            let afterScheme = target.dropFirst(scheme.utf8.count)
            guard let authorityEnd = afterScheme.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") })
            else { return "/" }
            let rest = target[authorityEnd...]
            return (rest.first == UInt8(ascii: "?") ? "/" : "") + HTTPSyntax.ascii(rest)
        }
        throw .malformedRequestLine(
            "target '\(HTTPSyntax.printable(target))' must start with '/' (or be an absolute http URL)")
    }

    private static func asciiDigit(_ byte: UInt8) -> Int? {
        (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
    }
}
