#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a member's number, stamps or pass was refused.
public enum MemberError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case invalidMobileNumber(String, problem: String)
    case notEnoughStamps(have: Int, need: Int)
    case nothingToRedeem
    case invalidStampPolicy(Int)
    case invalidPass(String)
    /// The pass ran out at `expiredAt` (shown as a date on the shop's `calendar`).
    case passExpired(pass: String, expiredAt: Date, calendar: ShopCalendar)
    case noPass
    case passStillActive(pass: String, until: Date, calendar: ShopCalendar)

    public var description: String {
        switch self {
        case .invalidMobileNumber(let text, let problem):
            return "\"\(text)\" is not a mobile number: it \(problem) (手機號碼有誤) (a member is known by 09 and 8 digits, like 0912-345-678)"
        case .notEnoughStamps(let have, let need):
            return "a free drink needs \(need) stamps; the card has \(have) (\(need - have) more) (點數不足)"
        case .nothingToRedeem:
            return "redeem at least one free drink (至少兌換一杯)"
        case .invalidStampPolicy(let count):
            return "a free drink must need at least 2 stamps, not \(count) (兌換一杯至少要 2 點)"
        case .invalidPass(let problem):
            return "\(problem) (會員卡設定有誤)"
        case .passExpired(let pass, let expiredAt, let calendar):
            return "the \(pass) pass expired on \(calendar.dayText(expiredAt)) (已過期); renew it to use it"
        case .noPass:
            return "the member has no pass (這位會員沒有會員卡)"
        case .passStillActive(let pass, let until, let calendar):
            return "the \(pass) pass is active until \(calendar.dayText(until)) (仍在有效期內); renew it instead of buying another"
        }
    }

    public var errorDescription: String? { description }
}
