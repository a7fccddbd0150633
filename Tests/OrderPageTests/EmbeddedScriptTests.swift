import Foundation
import Testing
@testable import OrderPage

/// The pages' scripts are edited as `Sources/OrderPage/Scripts/<name>.js` and served from the copies
/// scripts/embed-page-scripts writes into the binary (a copied binary has no resource folder beside it): the
/// two never drift apart.
@Suite struct EmbeddedScriptTests {
    @Test(arguments: PageScript.allCases)
    func theServedScriptIsItsFileByteForByte(_ script: PageScript) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try Data(contentsOf: root.appendingPathComponent("Sources/OrderPage/Scripts/\(script.rawValue).js"))
        #expect(Data(script.source.utf8) == file, "Scripts/\(script.rawValue).js changed: run scripts/embed-page-scripts")
    }
}
