import DrinkShop
import DrinkShopCore
import Foundation
import LineEditor
import Synchronization

/// The read-eval-print loop: a header, the current banner above each prompt, one command per line.
/// At a terminal a failed command just shows its error; from a pipe every line still runs, and the
/// exit status says whether any failed.
public struct REPLSession {
    let interpreter: ShopInterpreter
    let reader: any LineReader
    let completer: ShopCompleter?
    let output: any ShopOutput
    /// Whether a person is typing (prompts, banners and the goodbye are for them).
    let interactive: Bool

    public init(interpreter: ShopInterpreter, reader: any LineReader, completer: ShopCompleter?, output: any ShopOutput,
                interactive: Bool) {
        self.interpreter = interpreter
        self.reader = reader
        self.completer = completer
        self.output = output
        self.interactive = interactive
    }

    /// The most columns a login name takes in the prompt.
    static let promptNameWidth = 16

    /// Runs until `quit` or the end of input. Returns the process exit status.
    public func run(header: String) async -> Int32 {
        if interactive {
            output.write(header)
            await interpreter.warnIfInvoiceNumbersLow(atStart: true)
        }
        var failures = 0
        // `banner` has just printed the banner: the prompt after it does not print it a second time.
        var bannerJustShown = false
        // Orders from the customers' page, read while the prompt waits and told above it, each once.
        let news = NewsBox()
        while true {
            await interpreter.sendOutbox(force: false)
            // A long login name is shortened so the prompt's "> " always shows (the name is kept whole
            // on orders).
            var prompt = "drinkshop" + (interpreter.staff.map { " [\($0.truncated(toWidth: Self.promptNameWidth))]" } ?? "")
            if let unsent = await interpreter.unsentCount(), unsent > 0 || interpreter.shop.isOffline {
                prompt += interpreter.style.paint(" (offline · \(unsent) unsent)", .yellow)
            }
            prompt += "> "
            var statusLine: StatusLine?
            if interactive {
                if let completer {
                    if let menu = try? await interpreter.shop.catalog.menu() { completer.update(menu: menu) }
                    // Only at a terminal (Tab): the open orders as last read (on a remote base no request per
                    // prompt: the list is read once, then kept by each `orders` and command).
                    var listed = try? await interpreter.shop.orders.lastKnownToday()
                    if listed == nil { listed = try? await interpreter.shop.orders.today().orders }
                    if let open = listed?.filter({ !$0.order.status.isFinal }) {
                        let today = interpreter.shop.clock.today
                        completer.update(openNumbers: open.compactMap { ShopInterpreter.name($0, today: today) })
                    }
                }
                if await interpreter.currentBanner() != nil, !bannerJustShown {
                    statusLine = Self.rotatingBanner(interpreter.rotator, style: interpreter.style)
                }
            }
            var notices: Notices?
            var listening: Task<Void, Never>?
            if interactive {
                let arrivals = interpreter.arrivals
                listening = Task {
                    while !Task.isCancelled {
                        // Told even when the prompt has gone meanwhile: the box keeps it for the next one.
                        if let arrived = try? await arrivals.read() { news.add(arrived.map(OnlineArrivals.line)) }
                        try? await Task.sleep(for: arrivals.interval)
                    }
                }
                notices = Notices(every: .milliseconds(500)) { news.take() }
            }
            let read = await nextLine(prompt: prompt, statusLine: statusLine, notices: notices)
            listening?.cancel()
            guard let line = read else {
                if interactive { output.write("\n") }
                break
            }
            let (outcome, command) = await interpreter.run(parsing: line)
            if output.hasStopped { return await finish(failures: failures + 1) }
            if case .banner? = command { bannerJustShown = true } else { bannerJustShown = false }
            switch outcome {
            case .succeeded: continue
            case .failed: failures += 1
            case .quit: return await finish(failures: failures)
            }
        }
        return await finish(failures: failures)
    }

    /// How often a counter waiting for a line looks whether the store is back for the orders it kept.
    static let idleInterval: Duration = .seconds(2)

    private enum WhileWaiting: Sendable {
        case line(String?)
        case tick
    }

    /// The next line; while it is awaited (staff typing, or nobody there), the orders kept while the store
    /// was away are sent by themselves once it answers again (at most every probe interval), and what
    /// became of them is shown above the line being typed (`LineReader.announce`), which stays as it was.
    private func nextLine(prompt: String, statusLine: StatusLine?, notices: Notices?) async -> String? {
        guard interpreter.shop.outbox != nil else {
            return await reader.nextLine(prompt: prompt, statusLine: statusLine, notices: notices)
        }
        let reader = reader
        return await withTaskGroup(of: WhileWaiting.self) { group in
            group.addTask { .line(await reader.nextLine(prompt: prompt, statusLine: statusLine, notices: notices)) }
            group.addTask { await Self.tick() }
            while let event = await group.next() {
                switch event {
                case .line(let line):
                    group.cancelAll()
                    return line
                case .tick:
                    await sendKeptWhileWaiting()
                    group.addTask { await Self.tick() }
                }
            }
            return nil
        }
    }

    private static func tick() async -> WhileWaiting {
        try? await Task.sleep(for: idleInterval)
        return .tick
    }

    /// Sends what the outbox holds while the store was away (only then: an order the store refused waits for
    /// staff, not for a timer), its lines announced above the prompt.
    private func sendKeptWhileWaiting() async {
        guard interpreter.shop.isOffline, interpreter.held == nil else { return }
        interpreter.held = HeldOutput()
        await interpreter.sendOutbox(force: false)
        let said = interpreter.held ?? HeldOutput()
        interpreter.held = nil
        guard !(said.text + said.errors).isEmpty else { return }
        if !reader.announce(TerminalSafeText.encode(said.text + said.errors)) {
            if !said.text.isEmpty { output.write(said.text) }
            if !said.errors.isEmpty { output.writeError(said.errors) }
        }
    }

    /// Lines waiting to be told at the prompt.
    final class NewsBox: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ more: [String]) { if !more.isEmpty { lines.withLock { $0 += more } } }
        func take() -> [String] { lines.withLock { lines in defer { lines = [] }; return lines } }
    }

    /// The banner line above the prompt, turning on the rotator's own clock (every 3 s) while the
    /// prompt waits; at a terminal the reader redraws it in place.
    static func rotatingBanner(_ rotator: BannerRotator, style: ColorPolicy) -> StatusLine {
        StatusLine(
            text: { now in rotator.current(at: now).map { BannerView.line($0, style: style) } ?? "" },
            timeUntilChange: { now in rotator.timeUntilNextChange(at: now) })
    }

    /// Sends what the outbox still holds, warns about what stays, and says goodbye.
    private func finish(failures: Int) async -> Int32 {
        await interpreter.drainOutbox()
        if interactive { output.write("Bye. 謝謝光臨!\n") }
        // Piped onto a store whose commits are made durable apart, the last acknowledgements wait for the disk.
        guard await output.settle() else { return 1 }
        return failures > 0 && !interactive ? 1 : 0
    }
}
