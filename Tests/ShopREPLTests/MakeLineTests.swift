@testable import DrinkShop
import Foundation
import Glibc
import LineEditor
@testable import ShopREPL
import Synchronization
import Testing

/// `orders --watch`: the make line at a (pseudo-)terminal, and plainly elsewhere.
@Suite(.timeLimit(.minutes(3))) struct MakeLineTests {
    @Test func withoutATerminalTheMakeLineIsListedOnceOldestFirst() async throws {
        let counter = try await Counter()
        await counter.run("order 熟成紅茶 大杯 半糖 少冰 x2 for Amy", "order 白玉歐蕾 中杯 微糖 去冰 加白玉 note \"分開裝\"",
                          "order 冷露歐蕾 大杯 無糖 正常冰", "advance #3", "advance #3", "advance #1")
        let before = counter.output.text.count
        #expect(await counter.run("orders --watch") == [.succeeded])
        let listing = String(counter.output.text.dropFirst(before))
        #expect(listing.hasPrefix("#1 preparing · 2 cups · for Amy"))
        #expect(listing.contains("    1× 白玉歐蕾 中杯 微糖 去冰 +白玉 · note: 分開裝"))
        #expect(!listing.contains("#3"))
        #expect(await counter.run("orders --watch --json") == [.failed])
    }

    @Test func atATerminalKeysMoveTheSelectionAdvanceOrdersAndQLeavesTheTerminalAsItWas() async throws {
        let counter = try await Counter()
        await counter.run("order 熟成紅茶 大杯 半糖 少冰 for Amy", "order 白玉歐蕾 中杯 微糖 去冰 for Bob")
        let pty = try TestTerminal()
        let modeBefore = try #require(pty.localFlags())
        let screen = try #require(FullScreenTerminal(input: pty.terminal, output: pty.terminal))
        counter.interpreter.makeLineScreen = screen
        let interpreter = UncheckedBox(counter.interpreter)
        let watching = Task { await interpreter.value.run(line: "orders --watch") }

        let first = try await pty.screen(until: "▶ #1")
        #expect(first.contains("\u{1B}[?1049h"))  // the alternate screen
        #expect(first.contains("#2"))
        pty.type("\r")
        _ = try await pty.screen(until: "#1 is now preparing")
        pty.type("\u{1B}[B")
        _ = try await pty.screen(until: "▶ #2")
        pty.type(" ")
        _ = try await pty.screen(until: "#2 is now preparing")
        pty.type("q")
        let last = try await pty.screen(until: "\u{1B}[?1049l")
        #expect(last.contains("\u{1B}[?25h"))
        #expect(await watching.value == .succeeded)
        #expect(pty.localFlags() == modeBefore)
        let (orders, _) = try await counter.interpreter.shop.orders.today()
        #expect(orders.map(\.order.status) == [.preparing, .preparing])
    }
}

/// Hands a non-Sendable value to one task at a time (the test waits for it).
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A pseudo-terminal: the program gets `terminal`, the test types into and reads `controller`.
final class TestTerminal: @unchecked Sendable {
    let controller: Int32
    let terminal: Int32

    init() throws {
        typealias Call = @convention(c) (Int32) -> Int32
        let open = unsafeBitCast(try #require(dlsym(nil, "posix_openpt")), to: Call.self)
        let grant = unsafeBitCast(try #require(dlsym(nil, "grantpt")), to: Call.self)
        let unlock = unsafeBitCast(try #require(dlsym(nil, "unlockpt")), to: Call.self)
        let name = unsafeBitCast(try #require(dlsym(nil, "ptsname_r")),
                                 to: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
        controller = open(O_RDWR | O_NOCTTY)
        try #require(controller >= 0 && grant(controller) == 0 && unlock(controller) == 0)
        var path = [CChar](repeating: 0, count: 128)
        try #require(name(controller, &path, path.count) == 0)
        terminal = Glibc.open(path, O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
    }

    deinit {
        close(terminal)
        close(controller)
    }

    func localFlags() -> tcflag_t? {
        var settings = termios()
        return tcgetattr(terminal, &settings) == 0 ? settings.c_lflag : nil
    }

    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }

    /// What the program drew until `needle` shows up, read on a thread of its own (10 s safety limit).
    func screen(until needle: String) async throws -> String {
        let controller = controller
        return await withCheckedContinuation { continuation in
            Thread {
                var seen: [UInt8] = []
                let deadline = Date().addingTimeInterval(10)
                while !String(decoding: seen, as: UTF8.self).contains(needle), Date() < deadline {
                    var watched = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
                    guard poll(&watched, 1, 100) > 0 else { continue }
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    let count = read(controller, &buffer, buffer.count)
                    if count <= 0 { break }
                    seen += buffer[0..<count]
                }
                continuation.resume(returning: String(decoding: seen, as: UTF8.self))
            }.start()
        }
    }
}

@Suite struct MakeLineViewTests {
    @Test func aLongLineScrollsSoTheSelectedOrderStaysInView() async throws {
        let counter = try await Counter()
        for index in 1...12 { await counter.run("order 熟成紅茶 大杯 半糖 少冰 for guest\(index)") }
        let (orders, _) = try await counter.interpreter.shop.queue.makeLine()
        var state = MakeLineView.State()
        state.update(orders)
        state.move(by: 10)
        let screen = MakeLineView.screen(state, day: "2026-11-29", now: Counter.noon, timeZone: .gmt, style: .plain, rows: 10)
        #expect(screen.count == 10)
        #expect(screen.contains { $0.hasPrefix("▶ #11 ") })
        #expect(screen.last == "↑/↓ select · Enter/space advance · q quit")
        state.move(by: -20)
        let top = MakeLineView.screen(state, day: "2026-11-29", now: Counter.noon, timeZone: .gmt, style: .plain, rows: 10)
        #expect(top[2].hasPrefix("▶ #1 "))
    }
}
