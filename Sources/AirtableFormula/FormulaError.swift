import Airtable
/// A formula that cannot be used: bad syntax, an unknown field or function, a wrong argument count.
///
/// `message` says what was wrong and, for syntax, where (a 1-based character position, counting
/// characters as a person does, so `價` and `🧋` are one each). LocalBase puts it after Airtable's
/// "The formula for filtering records is invalid: ".
public struct FormulaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, and where.
    public var message: String
    /// The 1-based character position the message points at, when there is one.
    public var position: Int?

    public init(_ message: String, position: Int? = nil) {
        self.message = message
        self.position = position
    }

    public var description: String { message }
}
