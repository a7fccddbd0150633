import Airtable
@testable import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import Testing

/// Every refusal of the shop's services reads in Chinese too (issue 19), except the store's own failures,
/// which quote a system error. Data in ASCII, so the Chinese must come from the message; the switches have
/// no `default`, so a new case does not compile until it is listed here.
@Suite struct ShopRefusalWordsTests {
    static let when = Date(timeIntervalSince1970: 1_796_000_000)
    static let unreachable = AirtableError.transport("connection refused")
    static let entry = AuditEntry(at: when, by: "Amy", action: .changePrice, subject: "Black Tea", detail: "M 35 -> 40")
    static let day = BusinessDay(daysSince1970: 20_000)

    static let till: [TillError] = [
        .shop(.noSuchOrder(.pickup(9))), .payment(.alreadyPaid(order: 3, total: 70)), .menu(.priceNotPositive(0)),
        .stock(.nothingCalled("Tea", suggestions: [])),
        .drawer(.noOpenShift), .access(.managerRequired(.void)), .login(.unknownStaff("Amy")), .pin(.notDigits),
        .staff(.pinsDiffer), .member(.noPass), .invoice(.donationFormat("1")), .charge(.noStampPolicy),
        .unsentOrder(.provisional(3)), .noSuchStaff("Amy"), .pinRequired(name: "Amy", hint: "login asks for it"), .newPINNotGiven(name: "Amy", hint: "staff pin asks for it"),
        .badDate("someday"), .order(.cancelled(.pickup(3))), .unknownAdjustment("x", known: []),
        .unknownAdjustment("x", known: ["cup (own cup)"]), .noStampCard, .noSuchPass("Weekly", known: []),
        .noSuchPass("Weekly", known: ["Monthly"]), .periodReversed(first: day.next, last: day),
        .exportNotWritten(path: "/tmp/x.csv", reason: "disk full"), .paidWhileCancelled(order: 3, refunds: []),
        .archiveStopped(.store(unreachable), afterClose: true), .archiveStopped(.store(unreachable), afterClose: false),
        .einvoice(.einvoice(.qrKeyFormat)), .einvoice(.storedSetup(key: "einvoiceQRKey", .qrKeyFormat)),
        .einvoice(.noNumbers(period: "11512", printed: "115年11-12月")),
        .einvoice(.overlaps(new: "11512 AB 12345050-12345149", existing: "11512 AB 12345000-12345099")),
        .einvoice(.alreadyImported("11512 AB 12345000-12345099")),
        .einvoice(.anotherSellersNumbers(range: "11512 AB 12345000-12345099", file: "04595257", shop: "12345675")), .einvoice(.periodNotOpen(period: "11508", today: "2026-11-29")),
        .einvoice(.periodNotOver(period: "11512")), .einvoice(.blanksReported(period: "11512", files: ["E0402_11512_AB.xml"])),
        .einvoice(.noInvoice(order: "#3")),
        .einvoice(.alreadyInvoiced(order: "#3", number: "AB-12345000")), .einvoice(.detailsAfterInvoice(order: "#3", number: "AB-12345000")), .einvoice(.notPaid(order: "#3", due: 40)),
        .einvoice(.storedInvoice("record rec1: lines")), .einvoice(.noTurnkeyFolder), .einvoice(.notSetUp),
        .einvoice(.noNumbersWhileAway(period: "11512")),
        .keptOrder(.partPayment(.provisional(1, counter: "A"), due: 60, tendered: 10)),
        .keptOrder(.cashWithoutKnownShift(.provisional(1))), .keptOrder(.cancelled(.provisional(1))),
        .keptOrder(.alreadyPaid(.provisional(1), total: 60)), .keptOrder(.paidWhileAway(.provisional(1))),
        .keptOrder(.invoiceSetupUnknown(.provisional(1))), .keptOrder(.changedMeanwhile(.provisional(1, counter: "A"))),
    ]
    static let shop: [ShopError] = [
        .drink(.unknownDrink("Tea", suggestions: []), line: 1), .rule(.noteHasControlCharacters, drink: "Black Tea", line: nil),
        .status(.missingCancelReason(order: 3)), .order(.noLines), .name(.empty(field: "name")),
        .whichLine(.pickup(3), lineCount: 2), .noSuchLine(.pickup(3), line: 3, lineCount: 2), .drinkNoLongerOnMenu("Black Tea"),
        .noSuchOrder(.pickup(3)), .noSuchOrder(.provisional(3)), .noSuchOrder(.onDay(3, day: "2026-11-30")),
        .notFoundWhileOffline(.provisional(3), unreachable), .notStaff(name: "Amy", role: .customer),
        .pickupNumbersExhausted(attempts: 20), .missingSchema(["OrderDrink.status"]),
        .ambiguousOrder(.pickup(6), choices: [.onDay(6, day: "2026-11-29"), .onDay(6, day: "2026-11-30")]),
        .ambiguousOrder(.provisional(1), choices: [.provisional(1, counter: "A"), .provisional(1)]),
        .notADay("someday"), .dayRange(day.next, day, "the first day is after the last"),
        .auditNotWritten(entry, .store(unreachable)), .auditNotWrittenNothingChanged(entry, .store(unreachable)),
        .notUnderstood(["fizzy"], drink: "Black Tea", line: 2), .setting(.unknownTimeZone("Mars", source: "setting timeZone")),
        .setting(.dayStart(.unreadable("noon"), source: "setting dayStart")), .archive(.noArchive),
        .archive(.copyDiffers(table: "OrderDrink", record: "rec00000000000001", location: "/tmp/archive.sqlite")),
        .dueAtHandover(.pickup(3), due: 40), .archivedOrder(.onDay(3, day: "2026-11-30"), archive: "/tmp/archive.sqlite"),
        .keptPaymentRefused("#3: no shift is open"), .paidAtThisMachine(.provisional(1, counter: "A")),
    ] + OrderStatus.allCases.flatMap { status -> [ShopError] in
        [.notDeletable(.pickup(3), status: status), .movedElsewhere(.pickup(3), status: status)]
    }
    static let staff: [StaffError] = [
        .firstPINMustBeAManagers(name: "Amy"), .lastManager(name: "Amy"), .pinsDiffer, .noPINGiven,
        .unknownWhilePINsAreOn(name: "Amy"), .oneShotNeedsStaff(.loginRequired(.takePayment)), .hashingFailed("no libcrypto"),
    ]
    static let refusal: [OrderRefusal] = OrderStatus.allCases.map { .paidOrderChange(.pickup(3), status: $0, paid: 70) } + [
        .adjustAfterPayment(.pickup(3), paid: 70), .memberAfterPayment(.pickup(3), paid: 70),
        .deleteHoldsMoney(.pickup(3), held: 70), .deleteHasLedger(.pickup(3)), .cancelled(.pickup(3)),
        .notAMembersOrder(.pickup(3)), .anotherMembers(.pickup(3), masked: "0912***678"),
    ]

    static var messages: [String] {
        till.map(\.description) + shop.map(\.description) + staff.map(\.description) + refusal.map(\.description)
    }

    @Test("every refusal of the shop's services says it in Chinese too", arguments: messages)
    func saysItInChinese(message: String) {
        #expect(message.unicodeScalars.contains { (0x3400...0x9FFF).contains($0.value) }, "\(message)")
    }

    /// A new case stops `caseName` compiling; name it there, give it a sample above, and raise its count here.
    @Test("the lists walk every case of each refusal (the store's own failures and a seed's aside)")
    func listsEveryCase() {
        #expect(Set(Self.till.map { Self.caseName($0) }).count == 27)
        #expect(Set(Self.shop.map { Self.caseName($0) }).count == 30 - 3)
        #expect(Set(Self.staff.map { Self.caseName($0) }).count == 7)
        #expect(Set(Self.refusal.map { Self.caseName($0) }).count == 8)
    }

    // The case names, by switches without `default`: a new case does not compile until it is named here.
    static func caseName(_ e: TillError) -> String {
        switch e {
        case .shop: "shop"
        case .einvoice: "einvoice"
        case .payment: "payment"
        case .menu: "menu"
        case .stock: "stock"
        case .drawer: "drawer"
        case .access: "access"
        case .login: "login"
        case .pin: "pin"
        case .staff: "staff"
        case .member: "member"
        case .invoice: "invoice"
        case .charge: "charge"
        case .unsentOrder: "unsentOrder"
        case .noSuchStaff: "noSuchStaff"
        case .pinRequired: "pinRequired"
        case .newPINNotGiven: "newPINNotGiven"
        case .badDate: "badDate"
        case .order: "order"
        case .unknownAdjustment: "unknownAdjustment"
        case .noStampCard: "noStampCard"
        case .noSuchPass: "noSuchPass"
        case .periodReversed: "periodReversed"
        case .exportNotWritten: "exportNotWritten"
        case .paidWhileCancelled: "paidWhileCancelled"
        case .archiveStopped: "archiveStopped"
        case .keptOrder: "keptOrder"
        }
    }
    static func caseName(_ e: ShopError) -> String {
        switch e {
        // The store's failures and damaged data quote the system's words; a seed's names its file and field.
        case .store: "store"
        case .storedData: "storedData"
        case .seed: "seed"
        case .drink: "drink"
        case .rule: "rule"
        case .status: "status"
        case .order: "order"
        case .name: "name"
        case .whichLine: "whichLine"
        case .noSuchLine: "noSuchLine"
        case .drinkNoLongerOnMenu: "drinkNoLongerOnMenu"
        case .noSuchOrder: "noSuchOrder"
        case .notFoundWhileOffline: "notFoundWhileOffline"
        case .notStaff: "notStaff"
        case .pickupNumbersExhausted: "pickupNumbersExhausted"
        case .missingSchema: "missingSchema"
        case .ambiguousOrder: "ambiguousOrder"
        case .notDeletable: "notDeletable"
        case .archivedOrder: "archivedOrder"
        case .notADay: "notADay"
        case .dayRange: "dayRange"
        case .auditNotWritten: "auditNotWritten"
        case .auditNotWrittenNothingChanged: "auditNotWrittenNothingChanged"
        case .notUnderstood: "notUnderstood"
        case .setting: "setting"
        case .archive: "archive"
        case .movedElsewhere: "movedElsewhere"
        case .dueAtHandover: "dueAtHandover"
        case .keptPaymentRefused: "keptPaymentRefused"
        case .paidAtThisMachine: "paidAtThisMachine"
        }
    }
    static func caseName(_ e: StaffError) -> String {
        switch e {
        case .firstPINMustBeAManagers: "firstPINMustBeAManagers"
        case .lastManager: "lastManager"
        case .pinsDiffer: "pinsDiffer"
        case .noPINGiven: "noPINGiven"
        case .unknownWhilePINsAreOn: "unknownWhilePINsAreOn"
        case .oneShotNeedsStaff: "oneShotNeedsStaff"
        case .hashingFailed: "hashingFailed"
        }
    }
    static func caseName(_ e: OrderRefusal) -> String {
        switch e {
        case .paidOrderChange: "paidOrderChange"
        case .adjustAfterPayment: "adjustAfterPayment"
        case .memberAfterPayment: "memberAfterPayment"
        case .deleteHoldsMoney: "deleteHoldsMoney"
        case .deleteHasLedger: "deleteHasLedger"
        case .cancelled: "cancelled"
        case .notAMembersOrder: "notAMembersOrder"
        case .anotherMembers: "anotherMembers"
        }
    }
}
