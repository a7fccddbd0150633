import Foundation
import DrinkShopCore
import Synchronization
import Testing
@testable import ShopREPL
@testable import LineEditor

/// A reader that hands out scripted lines and records what each prompt showed above itself.
private final class ScriptedReader: LineReader {
    private let lines: Mutex<[String]>
    private let shown = Mutex<[String?]>([])
    init(_ lines: [String]) { self.lines = Mutex(lines) }

    func readLine(prompt: String) -> String? {
        readLine(prompt: prompt, statusLine: nil)
    }

    func readLine(prompt: String, statusLine: StatusLine?) -> String? {
        shown.withLock { $0.append(statusLine?.text(.now)) }
        return lines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// The status line above each prompt, in order (nil where there was none).
    var statusLines: [String?] { shown.withLock { $0 } }
}

@Suite struct SessionBannerTests {
    @Test func bannerPrintsTheBannerOnceAndThePromptsCarryTheRotatingLine() async throws {
        let counter = try await Counter()
        let reader = ScriptedReader(["banner", "menu 歐蕾"])
        let session = REPLSession(interpreter: counter.interpreter, reader: reader, completer: nil,
                                  output: counter.output, interactive: true)
        _ = await session.run(header: "")
        let shown = reader.statusLines
        #expect(shown.count == 3)
        #expect(shown[0]?.hasPrefix("★ ") == true)
        // Right after `banner` printed it, the prompt does not print it again.
        #expect(shown[1] == nil)
        #expect(shown[2]?.hasPrefix("★ ") == true)
        #expect(counter.output.text.components(separatedBy: "★ ").count == 2)
    }

    @Test func theRotatingLineTurnsEveryThreeSeconds() throws {
        let start = ContinuousClock.now
        let banners = [Banner(id: "a", text: "第二杯半價"), Banner(id: "b", text: "歐蕾 8 折")]
        let status = REPLSession.rotatingBanner(BannerRotator(banners: banners, startingAt: start), style: .plain)
        #expect(status.text(start) == "★ 第二杯半價")
        #expect(status.text(start + .seconds(3)) == "★ 歐蕾 8 折")
        #expect(status.timeUntilChange(start + .seconds(1)) == .seconds(2))
    }
}
