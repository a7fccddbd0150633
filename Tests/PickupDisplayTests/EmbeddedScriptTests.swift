import Foundation
import Testing
@testable import PickupDisplay

/// The pickup page's script is edited as `Sources/PickupDisplay/Scripts/display.js` and served from the copy
/// scripts/embed-page-scripts writes into the binary (a copied binary has no resource folder beside it): the
/// two never drift apart.
@Suite struct EmbeddedScriptTests {
    @Test func theServedScriptIsItsFileByteForByte() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try Data(contentsOf: root.appendingPathComponent("Sources/PickupDisplay/Scripts/display.js"))
        #expect(Data(DisplayScript.source.utf8) == file, "Scripts/display.js changed: run scripts/embed-page-scripts")
    }
}
