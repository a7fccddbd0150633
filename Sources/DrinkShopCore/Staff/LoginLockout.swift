#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// After `maximumFailures` wrong PINs in a row, a staff member is locked out for `lockSeconds`.
public struct LockoutPolicy: Sendable, Hashable {
    public let maximumFailures: Int
    public let lockSeconds: Int

    public static let standard = LockoutPolicy(uncheckedMaximumFailures: 5, lockSeconds: 300)

    /// - Throws: `LoginError.invalidPolicy` unless at least 1 failure and 1 second.
    public init(maximumFailures: Int, lockSeconds: Int) throws(LoginError) {
        guard maximumFailures >= 1, lockSeconds >= 1 else { throw .invalidPolicy }
        self.init(uncheckedMaximumFailures: maximumFailures, lockSeconds: lockSeconds)
    }

    private init(uncheckedMaximumFailures: Int, lockSeconds: Int) {
        self.maximumFailures = uncheckedMaximumFailures
        self.lockSeconds = lockSeconds
    }
}

/// One staff member's recent login failures: a pure state machine, time passed in. Store it per
/// staff member; it says whether a PIN may be tried and what a result does.
public struct LoginAttempts: Sendable, Hashable {
    /// Wrong PINs in a row since the last success or lock.
    public private(set) var failures: Int
    /// Locked until then (exclusive); nil when not locked.
    public private(set) var lockedUntil: Date?

    public init(failures: Int = 0, lockedUntil: Date? = nil) {
        self.failures = max(0, failures)
        self.lockedUntil = lockedUntil
    }

    /// Succeeds when a PIN may be tried at `date` (check before verifying, so a locked account
    /// costs no hashing).
    /// - Throws: `LoginError.locked` with the time it opens again.
    public func checkMayTry(at date: Date) throws(LoginError) {
        if let lockedUntil, date < lockedUntil {
            throw .locked(until: lockedUntil, secondsLeft: Int(lockedUntil.timeIntervalSince(date).rounded(.up)))
        }
    }

    /// What a wrong PIN does: one more failure, and a lock once the policy's limit is reached.
    /// - Returns: the result to tell the person at the counter.
    public mutating func recordFailure(at date: Date, policy: LockoutPolicy = .standard) -> LoginError {
        if let lockedUntil, date >= lockedUntil { self.lockedUntil = nil }
        failures += 1
        guard failures >= policy.maximumFailures else {
            return .wrongPIN(triesLeft: policy.maximumFailures - failures)
        }
        let until = date.addingTimeInterval(Double(policy.lockSeconds))
        failures = 0
        lockedUntil = until
        return .locked(until: until, secondsLeft: policy.lockSeconds)
    }

    /// A right PIN clears the failures.
    public mutating func recordSuccess() {
        failures = 0
        lockedUntil = nil
    }
}

/// Why a login did not succeed. Never carries the PIN.
public enum LoginError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case wrongPIN(triesLeft: Int)
    case locked(until: Date, secondsLeft: Int)
    case unknownStaff(String)
    case noPINSet(String)
    case invalidPolicy

    public var description: String {
        switch self {
        case .wrongPIN(let left):
            return "wrong PIN; \(left) \(left == 1 ? "try" : "tries") left before a lockout (PIN 錯誤)"
        case .locked(_, let seconds):
            let minutes = (seconds + 59) / 60
            return "too many wrong PINs: locked for \(minutes) more minute\(minutes == 1 ? "" : "s") (PIN 錯誤太多次，暫時鎖定)"
        case .unknownStaff(let name):
            return "no staff member called \(name) (沒有這位店員)"
        case .noPINSet(let name):
            return "\(name) has no PIN (尚未設定 PIN); a manager sets one with staff pin"
        case .invalidPolicy:
            return "a lockout needs at least 1 failure and 1 second (鎖定設定有誤)"
        }
    }

    public var errorDescription: String? { description }
}
