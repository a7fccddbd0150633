@testable import DrinkShop
import DrinkShopCore
import ShopREPL
import Testing

/// Every problem with a command line reads in Chinese too (issue 19). Data in ASCII, so the Chinese must come
/// from the message; `caseName` has no `default`, so a new case does not compile until it is listed here.
@Suite struct CommandProblemWordsTests {
    static let problems: [CommandProblem] = [
        .unterminatedQuote(column: 14), .unknownCommand("fly", near: []),
        .unknownCommand("ordr", near: ["order", "orders"]), .noHelpTopic("fly"), .unexpected(["extra", "words"]),
        .noOrder, .noDrink(line: nil), .noDrink(line: 2), .orderNameTwice, .noOrderName, .noNoteText,
        .noteTwice(line: nil), .noteTwice(line: 2), .quantityTwice(line: 2), .notAnOption("fizzy"), .nothingToChange,
        .noPickupNumber, .notAPickupNumber("x"), .unknownStatus("someday"), .voidNeedsReason(.pickup(3)),
        .notACupNumber("0"), .dayOptionNeedsDate("--date"), .dayOptionTwice("--from"), .dateWithRange, .toWithoutFrom,
        .daysTwice, .moreThanTwoDates, .notADate("2026-13-01"), .reversedDays("2026-12-05", "2026-12-01"),
        .watchWithJSON, .watchWithDays, .watchWithStatus, .seedNeedsOneFile, .bannerDirection, .unknownPrinter("fax"),
        .printerAddresses, .onlineSwitch(["maybe"]), .einvoiceWords("einvoice takes tracks, not x"), .noLoginName, .pinOnTheLine, .noPaymentMethod(.pickup(3)),
        .payment(.unknownMethod("bitcoin")), .notAnAmount("-5", zeroAllowed: false),
        .notAnAmount("-1", zeroAllowed: true), .noAdjustment(.pickup(3)), .countWithoutCode("2"),
        .countOutOfRange(100), .adjustmentTwice("cup"), .invoiceDetails, .noDrinkNamed, .priceWords, .notASize("XL"),
        .notAPrice("4.5"), .staffListTakesNothing, .noStaffName(.add), .noStaffName(.pin), .noStaffName(.nopin),
        .noStaffName(.remove), .unknownStaffCommand("fire"), .shiftOpenWords, .closeWords, .archiveWords,
        .unknownArchiveRequest("later"), .exportWords, .memberWords, .redeemWords(.pickup(3)), .notFreeCups("99"),
        .passWords,
    ] + CommandSpec.all.map { spec -> CommandProblem in .runsFromTheShell(spec) }

    @Test("every problem with a command line says it in Chinese too", arguments: problems)
    func saysItInChinese(problem: CommandProblem) {
        #expect(problem.description.unicodeScalars.contains { (0x3400...0x9FFF).contains($0.value) }, "\(problem)")
    }

    /// A new case stops `caseName` compiling; name it there, give it a sample above, and raise the count here.
    @Test("the list walks every case")
    func listsEveryCase() {
        #expect(Set(Self.problems.map { Self.caseName($0) }).count == 62)
    }

    static func caseName(_ problem: CommandProblem) -> String {
        switch problem {
        case .unterminatedQuote: "unterminatedQuote"
        case .unknownCommand: "unknownCommand"
        case .noHelpTopic: "noHelpTopic"
        case .runsFromTheShell: "runsFromTheShell"
        case .unexpected: "unexpected"
        case .noOrder: "noOrder"
        case .noDrink: "noDrink"
        case .orderNameTwice: "orderNameTwice"
        case .noOrderName: "noOrderName"
        case .noNoteText: "noNoteText"
        case .noteTwice: "noteTwice"
        case .quantityTwice: "quantityTwice"
        case .notAnOption: "notAnOption"
        case .nothingToChange: "nothingToChange"
        case .noPickupNumber: "noPickupNumber"
        case .notAPickupNumber: "notAPickupNumber"
        case .unknownStatus: "unknownStatus"
        case .voidNeedsReason: "voidNeedsReason"
        case .notACupNumber: "notACupNumber"
        case .dayOptionNeedsDate: "dayOptionNeedsDate"
        case .dayOptionTwice: "dayOptionTwice"
        case .dateWithRange: "dateWithRange"
        case .toWithoutFrom: "toWithoutFrom"
        case .daysTwice: "daysTwice"
        case .moreThanTwoDates: "moreThanTwoDates"
        case .notADate: "notADate"
        case .reversedDays: "reversedDays"
        case .watchWithJSON: "watchWithJSON"
        case .watchWithDays: "watchWithDays"
        case .watchWithStatus: "watchWithStatus"
        case .seedNeedsOneFile: "seedNeedsOneFile"
        case .bannerDirection: "bannerDirection"
        case .unknownPrinter: "unknownPrinter"
        case .printerAddresses: "printerAddresses"
        case .onlineSwitch: "onlineSwitch"
        case .einvoiceWords: "einvoiceWords"
        case .noLoginName: "noLoginName"
        case .pinOnTheLine: "pinOnTheLine"
        case .noPaymentMethod: "noPaymentMethod"
        case .payment: "payment"
        case .notAnAmount: "notAnAmount"
        case .noAdjustment: "noAdjustment"
        case .countWithoutCode: "countWithoutCode"
        case .countOutOfRange: "countOutOfRange"
        case .adjustmentTwice: "adjustmentTwice"
        case .invoiceDetails: "invoiceDetails"
        case .noDrinkNamed: "noDrinkNamed"
        case .priceWords: "priceWords"
        case .notASize: "notASize"
        case .notAPrice: "notAPrice"
        case .staffListTakesNothing: "staffListTakesNothing"
        case .noStaffName: "noStaffName"
        case .unknownStaffCommand: "unknownStaffCommand"
        case .shiftOpenWords: "shiftOpenWords"
        case .closeWords: "closeWords"
        case .archiveWords: "archiveWords"
        case .unknownArchiveRequest: "unknownArchiveRequest"
        case .exportWords: "exportWords"
        case .memberWords: "memberWords"
        case .redeemWords: "redeemWords"
        case .notFreeCups: "notFreeCups"
        case .passWords: "passWords"
        }
    }
}
