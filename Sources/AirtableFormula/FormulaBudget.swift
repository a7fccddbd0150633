import Airtable
import Synchronization

/// How much work a formula's regular expressions may do, shared by every record one listing evaluates
/// (filterByFormula over a table): each scalar of text a pattern looks at, times the pattern's
/// instructions still alive there, is a step (`RegexMachine`). Once it is spent every further match
/// fails at once, so a hostile pattern over many long cells costs at most the budget, and the listing
/// answers 422 instead of holding a core.
public final class FormulaBudget: Sendable {
    /// A listing's steps: about two seconds of one core in a debug build, far less in release;
    /// everyday patterns over a shop's records use a few thousandth of it.
    public static let listingSteps = 10_000_000
    /// One evaluation's steps when no listing shares a budget (a formula field, a single value).
    public static let evaluationSteps = 1_000_000

    private let remaining: Atomic<Int>

    public init(steps: Int = FormulaBudget.listingSteps) {
        remaining = Atomic(steps)
    }

    /// Whether a match ran out of steps.
    public var isSpent: Bool { remaining.load(ordering: .relaxed) < 0 }

    /// What a filter answers once the budget is spent.
    public static let spentMessage = "the formula's regular expressions take too long on these records "
        + "(REGEX_MATCH, REGEX_EXTRACT and REGEX_REPLACE may look at about \(listingSteps / 1_000_000) million "
        + "characters times pattern steps per request); use a simpler pattern or a narrower filter"

    /// Runs `search` with what is left; what it used is taken off.
    func spend<T>(_ search: (inout Int) throws(RegexMachine.OutOfSteps) -> T) throws(RegexMachine.OutOfSteps) -> T {
        let before = remaining.load(ordering: .relaxed)
        guard before >= 0 else { throw RegexMachine.OutOfSteps() }
        var allowance = before
        defer { remaining.subtract(before - allowance, ordering: .relaxed) }
        return try search(&allowance)
    }
}
