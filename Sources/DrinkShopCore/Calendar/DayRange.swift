/// Business days `first` through `last`, both included (never empty).
public struct DayRange: Sendable, Hashable, Sequence, CustomStringConvertible {
    public let first: BusinessDay
    public let last: BusinessDay

    /// - Throws: `BusinessDayError.reversed` when `last` is before `first`.
    public init(_ first: BusinessDay, through last: BusinessDay) throws(BusinessDayError) {
        guard first <= last else { throw .reversed(first: first, last: last) }
        self.first = first
        self.last = last
    }

    /// The one day.
    public init(_ day: BusinessDay) {
        first = day
        last = day
    }

    /// How many days, at least 1.
    public var count: Int { first.distance(to: last) + 1 }
    public var isOneDay: Bool { first == last }

    public func contains(_ day: BusinessDay) -> Bool { first <= day && day <= last }

    /// `2026-12-01`, or `2026-12-01 to 2026-12-03`.
    public var description: String { isOneDay ? first.description : "\(first) to \(last)" }

    public func makeIterator() -> Iterator { Iterator(upcoming: first, last: last) }
    public var underestimatedCount: Int { count }

    public struct Iterator: IteratorProtocol {
        var upcoming: BusinessDay?
        let last: BusinessDay

        public mutating func next() -> BusinessDay? {
            guard let day = upcoming else { return nil }
            upcoming = day < last ? day.next : nil
            return day
        }
    }
}
