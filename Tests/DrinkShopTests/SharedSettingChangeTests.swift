@testable import DrinkShop
import Testing

/// What a counter says changed between two readings of the `Setting` table.
@Suite struct SharedSettingChangeTests {
    @Test func onlyWhatChangesWhatTheCounterDoesIsNews() {
        let before = ["timeZone": "Asia/Taipei", "labelPrinter": "", "onlineOrdering": "off"]
        // A setting written for the first time with the value its absence meant is not news.
        #expect(SharedSettingChange.changes(from: before, to: before.merging(["archiveClosedDays": "off", "receiptPrinter": " "]) { $1 })
            .isEmpty)
        let after = ["timeZone": "Asia/Tokyo", "dayStarts": "05:00", "labelPrinter": "tcp://10.0.0.5:9100",
                     "onlineOrdering": "on", "archiveClosedDays": "on"]
        #expect(SharedSettingChange.changes(from: before, to: after) == [
            .timeZone("Asia/Tokyo"), .dayStart("05:00"), .printer(.label, "tcp://10.0.0.5:9100"), .archiving(true),
            .onlineOrdering(true),
        ])
        #expect(SharedSettingChange.changes(from: after, to: before) == [
            .timeZone("Asia/Taipei"), .printer(.label, nil), .archiving(false), .onlineOrdering(false),
        ])
        #expect(SharedSettingChange.printer(.label, nil).description == "label printer none")
    }
}
