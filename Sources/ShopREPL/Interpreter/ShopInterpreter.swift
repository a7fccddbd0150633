import DrinkShop
import DrinkShopCore
import Foundation
import LineEditor

/// Runs commands against a `Shop` and writes what staff see. One interpreter serves one counter
/// session: it remembers who is logged in and where the banner rotation is.
public final class ShopInterpreter {
    /// What became of a command.
    public enum Outcome: Equatable, Sendable {
        case succeeded
        case failed
        case quit
    }

    public let shop: Shop
    let output: any ShopOutput
    let style: ColorPolicy
    /// How staff are asked something here (each question nil where nobody can be asked: pipes, one-shot commands).
    let prompter: Prompter
    let instant: @Sendable () -> BannerRotator.Instant
    /// The staff member at the counter, once logged in.
    public internal(set) var staff: String?
    /// Their till role once logged in (with their PIN when they have one); see `ShopInterpreter+Till.swift`.
    public internal(set) var staffRole: StaffRole?
    /// What a one-shot command brought to prove who acts (`defaultStaff`); none at a REPL.
    let credentials: OneShotCredentials
    /// The printer variables this counter was started with (they override the store's settings here).
    let environmentPrinters: [String: String]
    /// Who places orders when nobody has logged in (the OS user, or DRINKSHOP_STAFF).
    let defaultStaff: String
    var rotator: BannerRotator
    /// The terminal `orders --watch` takes over; nil (pipes, one-shot output to a file, tests) prints the
    /// make line once instead.
    public var makeLineScreen: FullScreenTerminal?
    /// What the program adds after a failed command's message (its own commands to run next, such as for a
    /// damaged store file); nothing by default.
    public var errorHint: (any Error) -> String? = { _ in nil }
    /// What the program does once a drawer is closed here (the embedded store's backup), and the line it says;
    /// nothing by default.
    public var afterClose: (@Sendable () async -> String?)?
    /// The terminal the counter's views are fitted to and paged on; nil (pipes, files, tests that read
    /// the whole output) keeps every table whole and never pages.
    public var screen: (any CounterScreen)?
    /// The screen's width while a command runs (read once per command, so a resize counts from the
    /// next one); nil without a screen. Views take it as their `width`.
    var screenWidth: Int?
    /// Output held while a view command runs, to be fitted and paged as a whole (`showingOnScreen`).
    var held: HeldOutput?
    /// The orders from the customers' page this counter has told (its prompt, its make line), each once.
    public let arrivals: OnlineArrivals
    /// Whether the last look found fewer invoice numbers left than a day's sales (`warnIfInvoiceNumbersLow`).
    var invoiceNumbersWereLow = false
    /// The last look at the invoice numbers left, and when it was made (`warnIfInvoiceNumbersLow(after:)`).
    var invoiceNumbersLook: (left: InvoiceDesk.NumbersLeft, at: Date)?
    /// How many times this counter asked the store for the numbers left (each look is three listings over the API).
    var invoiceNumbersLooks = 0

    public init(shop: Shop, output: any ShopOutput, style: ColorPolicy = .plain, defaultStaff: String,
                prompter: Prompter = .nobody, credentials: OneShotCredentials = .none,
                environmentPrinters: [String: String] = [:],
                instant: @escaping @Sendable () -> BannerRotator.Instant = { ContinuousClock.now }) {
        self.shop = shop
        self.output = output
        self.style = style
        self.defaultStaff = defaultStaff
        self.prompter = prompter
        self.credentials = credentials
        self.environmentPrinters = environmentPrinters
        self.instant = instant
        rotator = BannerRotator(banners: [], startingAt: instant())
        arrivals = OnlineArrivals(shop)
    }

    /// Parses and runs one typed line. Errors are written to the error stream.
    public func run(line: String) async -> Outcome {
        await run(parsing: line).outcome
    }

    /// `run(line:)`, also saying which command the line was (nil when it was empty or not understood),
    /// so the session need not parse it a second time.
    public func run(parsing line: String) async -> (outcome: Outcome, command: Command?) {
        // A PIN typed after its prompt was cancelled (or before it came) must not be echoed back.
        if LineHistory.isDigitsAlone(line) {
            fail("a number alone is not a command; it was not run, shown or kept (if it was a PIN, login NAME asks for it)")
            return (.failed, nil)
        }
        if let refusal = CommandLength.refusal(line) {
            fail(refusal)
            return (.failed, nil)
        }
        do {
            guard let parsed = try CommandParser.parse(line: line) else { return (.succeeded, nil) }
            return (await run(parsed), parsed.command)
        } catch {
            fail(error.description)
            return (.failed, nil)
        }
    }

    /// Runs one command given as words (a one-shot command from the shell).
    public func run(words: [String]) async -> Outcome {
        if let refusal = CommandLength.refusal(words.joined(separator: " ")) {
            fail(refusal)
            return .failed
        }
        do {
            guard let parsed = try CommandParser.parse(shellWords: words) else { return .succeeded }
            return await run(parsed)
        } catch {
            fail(error.description)
            return .failed
        }
    }

    /// Runs a parsed command.
    public func run(_ parsed: ParsedCommand) async -> Outcome {
        // Another counter's changes to the shared settings and PINs count from this command on (said before
        // the command's own output, never held with a view).
        screenWidth = screen.map { max(20, $0.size.columns) }
        if parsed.spec.followsSharedSettings { await followSharedSettings() }
        if let screen, let width = screenWidth, parsed.isScreenView {
            return await showingOnScreen(screen, width: width) { await runCatching(parsed) }
        }
        return await runCatching(parsed)
    }

    private func runCatching(_ parsed: ParsedCommand) async -> Outcome {
        do {
            // Who may run it: its entry in the one table (`CommandSpec.access`), checked before anything is read or written.
            if let action = parsed.requiredAction { try await shop.counter.authorize(action, try await acting()) }
            try await execute(parsed.command)
            return parsed.command == .quit ? .quit : .succeeded
        } catch let error as ShopError {
            fail(error.description + (errorHint(error) ?? ""))
        } catch let error as CommandError {
            fail(error.description)
        } catch TillError.access(let error) where staff == nil && prompter.readSecret == nil {
            // A one-shot command: it says who acts, with the PIN, in its environment.
            fail(TillError.staff(.oneShotNeedsStaff(error)).description)
        } catch let error as TillError {
            fail(error.description + (errorHint(error) ?? ""))
        } catch {
            fail("\(error)" + (errorHint(error) ?? ""))
        }
        return .failed
    }

    // MARK: - Commands with more to say

    /// `advance`: an order with money due is handed over only when staff say so (`--unpaid`, or yes at the
    /// question a terminal asks).
    func advance(_ number: OrderNumber, unpaid: Bool) async throws -> StoredOrder {
        let acting = try await acting()
        let refusal: TillError
        do {
            return try await shop.counter.advance(number, unpaid: unpaid, by: acting)
        } catch {
            refusal = error
        }
        guard case .shop(.dueAtHandover(let named, let due)) = refusal, !unpaid, let confirm = prompter.confirm else { throw refusal }
        guard await confirm("Order \(named) has $\(due) due (未付款). Hand it over unpaid? [y/N] ") else {
            throw InterpreterError.keptUnpaid(named, due: due)
        }
        return try await shop.counter.advance(number, unpaid: true, by: acting)
    }

    func showMenu(filter: String?, json: Bool) async throws {
        if json {
            let select = filter.map { text in { @Sendable (menu: Menu) in MenuView.select(menu, filter: text) } }
            say(try await shop.catalog.menuJSON(selecting: select) + "\n")
            return
        }
        let menu = try await shop.catalog.menu(refresh: true)
        guard !menu.isEmpty else {
            say("The menu is empty. Load one with: seed Seeds/menu.json\n")
            return
        }
        let drinks = filter.map { MenuView.select(menu, filter: $0) } ?? menu.drinks
        if drinks.isEmpty, let filter {
            throw InterpreterError.noDrinkMatches(filter)
        }
        say(MenuView.render(drinks, soldOut: menu.soldOut, style: style, width: screenWidth))
        // Records the store holds that are not usable drinks or promotions: said, not hidden.
        for problem in try await shop.catalog.problems() { warn(problem) }
    }

    /// `delete #N`: the counter says whether it may go (a placed order with no money on record); a
    /// terminal asks first, and the order is looked up again after the question.
    func delete(_ number: OrderNumber, confirmed: Bool) async throws {
        let acting = try await acting()
        let stored = try await shop.counter.deletable(number, by: acting)
        if !confirmed {
            guard let confirm = prompter.confirm else {
                throw InterpreterError.deleteNeedsConfirmation(number)
            }
            let summary = OrderView.oneLine(stored.order)
            guard await confirm("Delete order \(number) (\(summary)) for good? [y/N] ") else {
                say("Kept order \(number).\n")
                return
            }
        }
        _ = try await shop.counter.delete(stored, as: number, lookingAgain: !confirmed, by: acting)
        say("Order \(number) deleted.\n")
    }

    func showPromotions() async throws {
        let promotions = try await shop.catalog.promotions(refresh: true)
        say(PromotionView.render(promotions, now: shop.clock.now(), timeZone: shop.clock.timeZone, style: style))
    }

    // MARK: - Outbox

    /// Sends orders kept while the store was unreachable and says what became of them.
    public func sendOutbox(force: Bool) async {
        guard shop.outbox != nil else { return }
        do {
            let report = try await shop.counter.sendKept(force: force)
            for (order, reason) in report.refused {
                warn("the store refused unsent order \(order), which stays on this counter: \(reason) "
                    + "(edit or delete it)")
            }
            for sent in report.sent {
                if let closed = sent.lateFrom {
                    say(style.paint("Sent order \(sent.queuedAs) late: \(closed) was closed, so it is on today's orders as "
                        + "#\(sent.pickupNumber) (已日結，改記今日 取餐號 \(sent.pickupNumber))", .yellow) + "\n")
                    await printLabelsAgain(sent)
                } else if case .provisional = sent.queuedAs {
                    say(style.paint("Sent order \(sent.queuedAs): its pickup number is #\(sent.pickupNumber) (取餐號 \(sent.pickupNumber))",
                                    .green) + "\n")
                    await printLabelsAgain(sent)
                } else {
                    say(style.paint("Sent order \(sent.queuedAs) to the store.", .green) + "\n")
                }
            }
        } catch {
            warn("could not send the outbox: \(error)")
        }
    }

    /// Before the program ends: sends what the outbox holds, round after round while each round gets
    /// some through (a flaky store), and stops as soon as a round gets nothing through (a store that is down).
    /// - Parameter forceFirst: try the store even within its probe interval (a counter closing: one last try).
    ///   A one-shot command that found the store away moments ago passes false and leaves its order for the next run.
    public func drainOutbox(forceFirst: Bool = true) async {
        guard shop.outbox != nil else { return }
        var left = await unsentCount() ?? 0
        // Every round but the last sends at least one order, so this ends.
        var force = forceFirst
        while left > 0 {
            await sendOutbox(force: force)
            force = true
            let now = await unsentCount() ?? 0
            if now >= left { break }
            left = now
        }
        await warnAboutUnsentOrders()
    }

    /// Warns (on the error stream) about orders that are still waiting, before the program ends.
    public func warnAboutUnsentOrders() async {
        guard let unsent = await unsentCount(), unsent > 0, let outbox = shop.outbox else { return }
        warn("\(unsent) order\(unsent == 1 ? " is" : "s are") not yet sent: \((shop.delivery.offlineReason ?? .unreachable).clause). "
            + "They stay in \(outbox.location) and are sent the next time drinkshop runs.")
    }

    /// How many orders wait in the outbox; nil without one.
    public func unsentCount() async -> Int? {
        guard let outbox = shop.outbox else { return nil }
        return try? await outbox.count()
    }

    // MARK: - Banner

    /// Reloads the banners (promotions start and end) and returns the one to show now.
    public func currentBanner() async -> Banner? {
        if let banners = try? await shop.catalog.banners() { rotator.update(banners: banners, at: instant()) }
        return rotator.current(at: instant())
    }

    func showBanner(_ move: BannerMove?) async throws {
        rotator.update(banners: try await shop.catalog.banners(), at: instant())
        let banner: Banner?
        switch move {
        case nil: banner = rotator.current(at: instant())
        case .next: banner = rotator.next(at: instant())
        case .previous: banner = rotator.previous(at: instant())
        }
        say(banner.map { BannerView.line($0, style: style) + "\n" } ?? "No promotions or seasonal drinks to show.\n")
    }

    // MARK: - Output

    func say(_ text: String) {
        if held != nil { held?.text += text } else { output.write(text) }
    }

    func fail(_ message: String) { sayError(style.paint("error: ", .red, .bold) + message + "\n") }

    func warn(_ message: String) { sayError(style.paint("warning: ", .yellow) + message + "\n") }

    private func sayError(_ text: String) {
        if held != nil { held?.errors += text } else { output.writeError(text) }
    }
}
