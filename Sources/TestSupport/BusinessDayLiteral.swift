import DrinkShopCore

/// Tests write days as text (`"2026-11-29"`), as staff type them; a literal that is not a date stops the
/// test at once. Only the tests get this: the program reads days through `BusinessDay(_:)`, which throws.
extension BusinessDay: ExpressibleByStringLiteral {
    public init(stringLiteral text: String) {
        do { try self.init(text) } catch { preconditionFailure("a test's day literal: \(error)") }
    }
}
