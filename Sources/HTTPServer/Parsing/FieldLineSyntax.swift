/// One header or trailer field line `name ":" OWS value OWS` (RFC 9112 §5).
enum FieldLineSyntax {
    static func parse(_ line: ArraySlice<UInt8>, lineNumber: Int) throws(HTTPParseError) -> HTTPHeaders.Field {
        if let first = line.first, HTTPSyntax.isWhitespace(first) {
            throw .malformedHeader(line: lineNumber, reason: "obsolete line folding (a line starting with whitespace)")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformedHeader(line: lineNumber, reason: "no ':' in '\(HTTPSyntax.printable(line))'")
        }
        let name = line[line.startIndex..<colon]
        guard HTTPSyntax.isToken(name) else {
            throw .malformedHeader(
                line: lineNumber,
                reason: "field name '\(HTTPSyntax.printable(name))' is empty or not a token (no spaces before ':')")
        }
        let value = HTTPSyntax.trimmed(line[line.index(after: colon)...])
        if let bad = value.firstIndex(where: { !HTTPSyntax.isFieldValueByte($0) }) {
            throw .malformedHeader(
                line: lineNumber,
                reason: "control byte \(HTTPSyntax.printable([value[bad]])) in the value of '\(HTTPSyntax.ascii(name))'")
        }
        return HTTPHeaders.Field(name: HTTPSyntax.ascii(name), value: HTTPSyntax.fieldText(value))
    }
}
