import Airtable
import DrinkShop

/// What to do next about a store file that failed, in this program's commands. The store says what happened
/// to the file (`LocalFileFailure`, by its `problem`); this program adds its own remedy where it shows the error.
enum StoreFailureHint {
    /// The words to add right after `error`'s message; nil when it is no failing store file or nothing is to add.
    static func after(_ error: any Error) -> String? {
        guard let failure = localFileFailure(in: error) else { return nil }
        let path = failure.path
        switch failure.problem {
        case .damaged:
            return "; run `drinkshop check --db \(path)` for details "
                + "and `drinkshop recover --db \(path) --into NEW.sqlite` to copy every readable order into a new store"
        case .failed: return ". Set DRINKSHOP_DEBUG_LOG=FILE to record the details for support"
        case .readOnly, .full, .diskError, .cannotOpen, .outOfMemory: return nil
        }
    }

    /// `error`'s message followed by its hint.
    static func message(_ error: any Error) -> String { "\(error)" + (after(error) ?? "") }

    /// The store file's failure `error` carries, directly or as the shop's or the till's.
    static func localFileFailure(in error: any Error) -> LocalFileFailure? {
        if let error = error as? AirtableError { return localFileFailure(of: error) }
        if let error = error as? ShopError { return localFileFailure(of: error) }
        if case .shop(let error)? = error as? TillError { return localFileFailure(of: error) }
        return nil
    }

    private static func localFileFailure(of error: AirtableError) -> LocalFileFailure? {
        if case .localFile(let failure) = error { return failure }
        return nil
    }

    private static func localFileFailure(of error: ShopError) -> LocalFileFailure? {
        switch error {
        case .store(let failure), .notFoundWhileOffline(_, let failure): return localFileFailure(of: failure)
        case .auditNotWritten(_, let inner), .auditNotWrittenNothingChanged(_, let inner): return localFileFailure(of: inner)
        default: return nil
        }
    }
}
