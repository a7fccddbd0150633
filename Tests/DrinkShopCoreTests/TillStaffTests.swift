import Foundation
import Testing
@testable import DrinkShopCore

@Suite("Till: staff roles, PINs and lockout")
struct TillStaffTests {
    let now = Fixtures.noon

    @Test("manager actions need a manager once PINs are set; without PINs everything is allowed")
    func accessPolicy() throws {
        let open = AccessPolicy(pinsEnabled: false)
        for action in ShopAction.allCases { try open.check(action, role: nil) }
        let guarded = AccessPolicy(pinsEnabled: true)
        for action in [ShopAction.void, .changePrice, .soldOut, .restock, .closeDay, .staffChanges] {
            #expect(throws: AccessError.managerRequired(action)) { try guarded.check(action, role: .staff) }
            try guarded.check(action, role: .manager)
        }
        try guarded.check(.takePayment, role: .staff)
        #expect(throws: AccessError.loginRequired(.placeOrder)) { try guarded.check(.placeOrder, role: nil) }
        #expect(StaffRole(parsing: "店長") == .manager)
        #expect(StaffRole(parsing: "Staff") == .staff)
    }

    @Test("PINs are 4 to 8 digits, and neither the PIN nor its errors show the digits")
    func pinRules() throws {
        let pin = try PIN("482913")
        #expect("\(pin)" == "PIN(redacted)")
        #expect(String(reflecting: pin) == "PIN(redacted)")
        #expect(!"\([pin])".contains("482913"))
        var dumped = ""
        dump(pin, to: &dumped)
        #expect(!dumped.contains("482913"))
        #expect(!String(describing: Mirror(reflecting: pin).children.map(\.value)).contains("482913"))
        #expect(throws: PINError.wrongLength(3)) { try PIN("123") }
        #expect(throws: PINError.wrongLength(9)) { try PIN("123456789") }
        #expect(throws: PINError.notDigits) { try PIN("12a4") }
        #expect(throws: PINError.notDigits) { try PIN("１２３４") }
        #expect(throws: PINError.notDigits) { try PIN("") }
    }

    @Test("N wrong PINs lock for M minutes; the lock lifts on time; a right PIN clears the count")
    func lockout() throws {
        let policy = try LockoutPolicy(maximumFailures: 3, lockSeconds: 600)
        var attempts = LoginAttempts()
        #expect(attempts.recordFailure(at: now, policy: policy) == .wrongPIN(triesLeft: 2))
        #expect(attempts.recordFailure(at: now, policy: policy) == .wrongPIN(triesLeft: 1))
        let until = now.addingTimeInterval(600)
        #expect(attempts.recordFailure(at: now, policy: policy) == .locked(until: until, secondsLeft: 600))
        #expect(throws: LoginError.locked(until: until, secondsLeft: 540)) {
            try attempts.checkMayTry(at: now.addingTimeInterval(60))
        }
        #expect(LoginError.locked(until: until, secondsLeft: 540).description.contains("9 more minutes"))
        try attempts.checkMayTry(at: until)
        #expect(attempts.recordFailure(at: until, policy: policy) == .wrongPIN(triesLeft: 2))
        #expect(attempts.lockedUntil == nil)
        attempts.recordSuccess()
        #expect(attempts.failures == 0)
        #expect(throws: LoginError.invalidPolicy) { try LockoutPolicy(maximumFailures: 0, lockSeconds: 60) }
    }
}
