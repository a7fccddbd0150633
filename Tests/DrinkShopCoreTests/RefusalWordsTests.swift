import DrinkShopCore
import Foundation
import Testing

/// Every refusal the core can give staff reads in Chinese too (issue 19). Each list walks the enum's cases
/// (every value of a case's own enum where it has few), with data in ASCII so the Chinese must come from the
/// message; the switches have no `default`, so a new case does not compile until it is listed here.
@Suite struct CoreRefusalWordsTests {
    static let when = Date(timeIntervalSince1970: 1_796_000_000)

    static let payment: [PaymentError] = [
        .nonPositiveAmount(0), .tenderedBelowAmount(tendered: 50, amount: 70), .alreadyPaid(order: 3, total: 70),
        .orderVoided(order: 3), .unknownMethod("bitcoin"), .orderChanged(order: 3),
    ] + PaymentMethod.allCases.flatMap { method -> [PaymentError] in
        [.overpaymentNotCash(method: method, offered: 100, due: 70),
         .refundExceedsPaid(order: 3, method: method, refund: 50, refundable: 0),
         .refundExceedsPaid(order: 3, method: method, refund: 50, refundable: 20)]
    }
    static let menuChange: [MenuChangeError] = [
        .priceNotPositive(0), .nothingToChange(drink: "Black Tea", state: "sold out"), .invalidPrice("large: below medium"),
    ] + CupSize.allCases.map { .sizeNotSold(drink: "Black Tea", size: $0) }
    static let drawer: [DrawerError] = [
        .negativeAmount(field: "float", -1), .noOpenShift, .shiftAlreadyOpen(openedBy: "Amy"), .noShiftForCash,
        .alreadyClosed(at: "21:04", by: "Amy", counted: 3920, summary: "short 9"),
    ]
    static let access: [AccessError] = ShopAction.allCases.flatMap { [.loginRequired($0), .managerRequired($0)] }
    static let login: [LoginError] = [
        .wrongPIN(triesLeft: 1), .wrongPIN(triesLeft: 3), .locked(until: when, secondsLeft: 300), .unknownStaff("Amy"),
        .noPINSet("Amy"), .invalidPolicy,
    ]
    static let pin: [PINError] = [.notDigits, .wrongLength(2)]
    static let member: [MemberError] = [
        .invalidMobileNumber("0912", problem: "has 4 digits, not 10"), .notEnoughStamps(have: 3, need: 10), .nothingToRedeem,
        .invalidStampPolicy(1), .invalidPass("a pass needs a name"),
        .passExpired(pass: "Monthly", expiredAt: when, calendar: ShopCalendar(utcOffsetSeconds: 0)), .noPass,
        .passStillActive(pass: "Monthly", until: when, calendar: ShopCalendar(utcOffsetSeconds: 0)),
    ]
    static let invoice: [InvoiceDetailsError] = [
        .businessNumberFormat("123"), .businessNumberChecksum("12345678"), .mobileBarcodeFormat("/AB", problem: "is too short"),
        .citizenCertificateFormat("A1"), .donationFormat("12"), .unknownKind("fax"), .unrecognized("??"),
    ]
    static let charge: [ChargeError] = [
        .usedTwice("own cup"), .countBelowOne("own cup", 0), .moreThanCups("own cup", count: 3, cups: 2), .noStampPolicy,
        .totalBelowZero(-5),
    ] + CupSize.allCases.map { .notEnoughRewardCups(size: $0, wanted: 2, available: 1) }
    static let rule: [OrderRuleViolation] = [
        .soldOut(drink: "Black Tea"), .tooManyAddOns(count: 3), .quantityOutOfRange(0), .noteTooLong(length: 300),
        .noteHasControlCharacters, .missingRequired([.size, .sugar]), .ingredientSoldOut(drink: "White Jade Au Lait", ingredient: "Tapioca"),
    ] + CupSize.allCases.map { .sizeSoldOut(drink: "Black Tea", size: $0) } + AddOn.allCases.map { .addOnSoldOut($0) } + OptionGroup.allCases.map { .conflictingChoice($0, first: "a", second: "b") }
        + CupSize.allCases.map { .sizeUnavailable(drink: "Black Tea", size: $0) }
        + IceLevel.allCases.map { .notServedHot(drink: "Black Tea", ice: $0) }
        + AddOn.allCases.flatMap { [.duplicateAddOn($0), .addOnNotServedHot($0, ice: .hot)] }
    static let status: [OrderStatusError] = OrderStatus.allCases.flatMap { status -> [OrderStatusError] in
        [.finished(order: 3, status: status), .notEditable(order: 3, status: status)]
    } + [.onlyPickupLeft(order: 3), .missingCancelReason(order: 3), .cancelReasonTooLong(order: 3, length: 300),
         .voidNotNeeded(order: 3)]
    static let order: [OrderError] = [
        .noLines, .invalidPickupNumber(0), .lineOutOfRange(order: 3, line: 4, count: 2),
        .wrongDrink(line: "Black Tea", given: "Green Tea"), .nothingToChange(order: 3),
    ]
    static let lookup: [DrinkLookupError] = [
        .unknownDrink("Tea", suggestions: []), .unknownDrink("Tea", suggestions: ["Black Tea"]),
        .ambiguousDrink("Tea", candidates: ["Black Tea", "Green Tea"]),
    ]
    static let stock: [StockLookupError] = [
        .notOneThing("Tea", choices: [.drink("Black Tea"), .ingredient("Tea")], exact: true),
        .notOneThing("Bl", choices: [.drink("Black Tea")], exact: false),
        .nothingCalled("Coffee", suggestions: []), .nothingCalled("Tee", suggestions: ["Tea"]),
    ]
    static let personName: [PersonNameError] = [
        .empty(field: "name"), .tooLong(field: "name", length: 99), .controlCharacters(field: "name"),
        .lookAlikeLetters(field: "name"),
    ]
    static let day: [BusinessDayError] = [
        .notADate("someday"), .noSuchDate(year: 2026, month: 2, day: 30),
        .reversed(first: BusinessDay(daysSince1970: 20_001), last: BusinessDay(daysSince1970: 20_000)),
    ]

    static var messages: [String] {
        payment.map(\.description) + menuChange.map(\.description) + drawer.map(\.description)
            + access.map(\.description) + login.map(\.description) + pin.map(\.description) + member.map(\.description)
            + invoice.map(\.description) + charge.map(\.description) + rule.map(\.description)
            + status.map(\.description) + order.map(\.description) + lookup.map(\.description) + stock.map(\.description) + personName.map(\.description)
            + day.map(\.description)
    }

    @Test("every refusal of the core says it in Chinese too", arguments: messages)
    func saysItInChinese(message: String) {
        #expect(message.unicodeScalars.contains { (0x3400...0x9FFF).contains($0.value) }, "\(message)")
    }

    /// A new case stops `caseName` compiling; name it there, give it a sample above, and raise its count here.
    @Test("the lists walk every case of each refusal")
    func listsEveryCase() {
        #expect(Set(Self.payment.map { Self.caseName($0) }).count == 8)
        #expect(Set(Self.menuChange.map { Self.caseName($0) }).count == 4)
        #expect(Set(Self.drawer.map { Self.caseName($0) }).count == 5)
        #expect(Set(Self.login.map { Self.caseName($0) }).count == 5)
        #expect(Set(Self.pin.map { Self.caseName($0) }).count == 2)
        #expect(Set(Self.member.map { Self.caseName($0) }).count == 8)
        #expect(Set(Self.invoice.map { Self.caseName($0) }).count == 7)
        #expect(Set(Self.charge.map { Self.caseName($0) }).count == 6)
        #expect(Set(Self.rule.map { Self.caseName($0) }).count == 14)
        #expect(Set(Self.status.map { Self.caseName($0) }).count == 6)
        #expect(Set(Self.order.map { Self.caseName($0) }).count == 5)
        #expect(Set(Self.personName.map { Self.caseName($0) }).count == 4)
        #expect(Set(Self.day.map { Self.caseName($0) }).count == 3)
        #expect(Set(Self.lookup.map { Self.caseName($0) }).count == 2)
        #expect(Set(Self.stock.map { Self.caseName($0) }).count == 2)
    }

    // The case names, by switches without `default`: a new case does not compile until it is named here.
    static func caseName(_ e: PaymentError) -> String {
        switch e {
        case .nonPositiveAmount: "nonPositiveAmount"
        case .overpaymentNotCash: "overpaymentNotCash"
        case .tenderedBelowAmount: "tenderedBelowAmount"
        case .alreadyPaid: "alreadyPaid"
        case .orderVoided: "orderVoided"
        case .refundExceedsPaid: "refundExceedsPaid"
        case .unknownMethod: "unknownMethod"
        case .orderChanged: "orderChanged"
        }
    }
    static func caseName(_ e: MenuChangeError) -> String {
        switch e {
        case .priceNotPositive: "priceNotPositive"
        case .sizeNotSold: "sizeNotSold"
        case .nothingToChange: "nothingToChange"
        case .invalidPrice: "invalidPrice"
        }
    }
    static func caseName(_ e: DrawerError) -> String {
        switch e {
        case .negativeAmount: "negativeAmount"
        case .noOpenShift: "noOpenShift"
        case .shiftAlreadyOpen: "shiftAlreadyOpen"
        case .noShiftForCash: "noShiftForCash"
        case .alreadyClosed: "alreadyClosed"
        }
    }
    static func caseName(_ e: LoginError) -> String {
        switch e {
        case .wrongPIN: "wrongPIN"
        case .locked: "locked"
        case .unknownStaff: "unknownStaff"
        case .noPINSet: "noPINSet"
        case .invalidPolicy: "invalidPolicy"
        }
    }
    static func caseName(_ e: PINError) -> String {
        switch e {
        case .notDigits: "notDigits"
        case .wrongLength: "wrongLength"
        }
    }
    static func caseName(_ e: MemberError) -> String {
        switch e {
        case .invalidMobileNumber: "invalidMobileNumber"
        case .notEnoughStamps: "notEnoughStamps"
        case .nothingToRedeem: "nothingToRedeem"
        case .invalidStampPolicy: "invalidStampPolicy"
        case .invalidPass: "invalidPass"
        case .passExpired: "passExpired"
        case .noPass: "noPass"
        case .passStillActive: "passStillActive"
        }
    }
    static func caseName(_ e: InvoiceDetailsError) -> String {
        switch e {
        case .businessNumberFormat: "businessNumberFormat"
        case .businessNumberChecksum: "businessNumberChecksum"
        case .mobileBarcodeFormat: "mobileBarcodeFormat"
        case .citizenCertificateFormat: "citizenCertificateFormat"
        case .donationFormat: "donationFormat"
        case .unknownKind: "unknownKind"
        case .unrecognized: "unrecognized"
        }
    }
    static func caseName(_ e: ChargeError) -> String {
        switch e {
        case .usedTwice: "usedTwice"
        case .countBelowOne: "countBelowOne"
        case .moreThanCups: "moreThanCups"
        case .noStampPolicy: "noStampPolicy"
        case .notEnoughRewardCups: "notEnoughRewardCups"
        case .totalBelowZero: "totalBelowZero"
        }
    }
    static func caseName(_ e: OrderRuleViolation) -> String {
        switch e {
        case .soldOut: "soldOut"
        case .missingRequired: "missingRequired"
        case .conflictingChoice: "conflictingChoice"
        case .sizeUnavailable: "sizeUnavailable"
        case .notServedHot: "notServedHot"
        case .tooManyAddOns: "tooManyAddOns"
        case .duplicateAddOn: "duplicateAddOn"
        case .addOnNotServedHot: "addOnNotServedHot"
        case .quantityOutOfRange: "quantityOutOfRange"
        case .noteTooLong: "noteTooLong"
        case .noteHasControlCharacters: "noteHasControlCharacters"
        case .ingredientSoldOut: "ingredientSoldOut"
        case .sizeSoldOut: "sizeSoldOut"
        case .addOnSoldOut: "addOnSoldOut"
        }
    }
    static func caseName(_ e: OrderStatusError) -> String {
        switch e {
        case .finished: "finished"
        case .onlyPickupLeft: "onlyPickupLeft"
        case .notEditable: "notEditable"
        case .missingCancelReason: "missingCancelReason"
        case .cancelReasonTooLong: "cancelReasonTooLong"
        case .voidNotNeeded: "voidNotNeeded"
        }
    }
    static func caseName(_ e: OrderError) -> String {
        switch e {
        case .noLines: "noLines"
        case .invalidPickupNumber: "invalidPickupNumber"
        case .lineOutOfRange: "lineOutOfRange"
        case .wrongDrink: "wrongDrink"
        case .nothingToChange: "nothingToChange"
        }
    }
    static func caseName(_ e: StockLookupError) -> String {
        switch e {
        case .notOneThing: "notOneThing"
        case .nothingCalled: "nothingCalled"
        }
    }
    static func caseName(_ e: DrinkLookupError) -> String {
        switch e {
        case .unknownDrink: "unknownDrink"
        case .ambiguousDrink: "ambiguousDrink"
        }
    }
    static func caseName(_ e: PersonNameError) -> String {
        switch e {
        case .empty: "empty"
        case .tooLong: "tooLong"
        case .controlCharacters: "controlCharacters"
        case .lookAlikeLetters: "lookAlikeLetters"
        }
    }
    static func caseName(_ e: BusinessDayError) -> String {
        switch e {
        case .notADate: "notADate"
        case .noSuchDate: "noSuchDate"
        case .reversed: "reversed"
        }
    }
}
