import Dispatch
import Foundation
import Glibc
import Testing
@testable import LineEditor

/// Both ends of a pseudo-terminal in the test process: the reader under test gets the terminal side,
/// the test types into and reads the screen from the controller side.
final class PseudoTerminal: @unchecked Sendable {
    /// The controller side the test types into.
    let controller: Int32
    /// The terminal side the reader uses as its input and output.
    let terminal: Int32

    init() throws {
        let calls = try PseudoTerminalCalls()
        controller = calls.openController(O_RDWR | O_NOCTTY)
        try #require(controller >= 0)
        try #require(calls.grant(controller) == 0 && calls.unlock(controller) == 0)
        var name = [CChar](repeating: 0, count: 128)
        try #require(calls.terminalName(controller, &name, name.count) == 0)
        terminal = open(name, O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
    }

    deinit {
        close(terminal)
        close(controller)
    }

    /// Sets the terminal's width, as a window resize would.
    func setColumns(_ columns: UInt16) {
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(controller, UInt(TIOCSWINSZ), &size)
    }

    /// Sends keys as the keyboard would.
    func type(_ keys: String) {
        FileDescriptorIO.writeAll(controller, keys)
    }

    /// What the program drew, read until `needle` shows up in `earlier` plus what is read now (which is
    /// returned). The 10 s limit only keeps a broken reader from hanging the run; it asserts nothing
    /// about speed.
    @discardableResult
    func screen(until needle: String, after earlier: String = "") -> String {
        var seen: [UInt8] = []
        let deadline = Date().addingTimeInterval(10)
        while !(earlier + String(decoding: seen, as: UTF8.self)).contains(needle), Date() < deadline {
            var watched = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
            guard poll(&watched, 1, 100) > 0 else { continue }
            let bytes = FileDescriptorIO.readSome(controller, limit: 4096)
            if bytes.isEmpty { break }
            seen += bytes
        }
        return String(decoding: seen, as: UTF8.self)
    }

    /// The terminal side's current mode.
    func mode() throws -> termios {
        try #require(RawTerminalMode.current(terminal))
    }
}

/// posix_openpt, grantpt, unlockpt and ptsname_r from the C library. Glibc declares them only for
/// _XOPEN_SOURCE, which Swift's Glibc module does not define, so they are looked up by name.
private struct PseudoTerminalCalls {
    let openController: @convention(c) (Int32) -> Int32
    let grant: @convention(c) (Int32) -> Int32
    let unlock: @convention(c) (Int32) -> Int32
    let terminalName: @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

    init() throws {
        func find<Function>(_ name: String, as type: Function.Type) throws -> Function {
            let symbol = try #require(dlsym(nil, name), "\(name) not found in the C library")
            return unsafeBitCast(symbol, to: type)
        }
        openController = try find("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        grant = try find("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        unlock = try find("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        terminalName = try find("ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
    }
}

/// Whether two terminal modes are the same in every flag and control character.
func sameMode(_ first: termios, _ second: termios) -> Bool {
    var first = first
    var second = second
    let controlsMatch = withUnsafeBytes(of: &first.c_cc) { a in withUnsafeBytes(of: &second.c_cc) { b in a.elementsEqual(b) } }
    return first.c_iflag == second.c_iflag && first.c_oflag == second.c_oflag && first.c_cflag == second.c_cflag
        && first.c_lflag == second.c_lflag && controlsMatch
}

/// The result of one `readLine` and everything drawn while it ran.
struct TerminalSession {
    var line: String?
    var screen: String
}

/// Runs `read` on a thread of its own, waits until `prompt` is drawn (the reader is then in raw mode),
/// types `keys`, and collects the line and the screen output until the reader returns.
func runReader(
    on pty: PseudoTerminal, prompt: String, typing keys: String,
    _ read: @escaping @Sendable () -> String?
) async -> TerminalSession {
    await withCheckedContinuation { continuation in
        Thread {
            let result = LockedBox<String??>(nil)
            let finished = DispatchSemaphore(value: 0)
            Thread {
                let line = read()
                result.update { $0 = .some(line) }
                finished.signal()
            }.start()
            var screen = pty.screen(until: prompt)
            pty.type(keys)
            _ = finished.wait(timeout: .now() + 10)
            screen += pty.screen(until: "\u{1B}[?2004l", after: screen)
            continuation.resume(returning: TerminalSession(line: result.value ?? nil, screen: screen))
        }.start()
    }
}
