import Airtable
import DrinkShop
import DrinkShopCore
import Foundation
import Synchronization
import LineEditor
import LocalBase
import ShopREPL

/// The composition root: reads the command line, opens the store, and runs the REPL, the server or one
/// command.
enum DrinkShopCLI {
    static let version = "0.1.0"

    /// Whether the command line runs the server (read before `run`, to tune the process for it).
    static func serves(_ arguments: [String]) -> Bool {
        (try? Invocation.parse(arguments)).map { Program($0.words) == .serve } ?? false
    }

    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        LocalBase.recordFailureDetails(in: environment["DRINKSHOP_DEBUG_LOG"])
        let invocation: Invocation
        do { invocation = try Invocation.parse(arguments) } catch {
            printError("drinkshop: \(error)\n\(Usage.short)")
            return 2
        }
        if invocation.showVersion {
            print("drinkshop \(version)")
            return 0
        }
        let program = Program(invocation.words)
        let rest = Array(invocation.words.dropFirst())
        // `drinkshop help [COMMAND]` is `--help`: it needs no store (and never makes one).
        if invocation.showHelp || program == .help {
            let style = ColorPolicy.detect()
            let words = program == .help ? rest : invocation.words
            if let topic = words.first {
                print((try? HelpText.command(topic, style: style)) ?? Usage.long, terminator: "")
            } else {
                print(Usage.long, terminator: "")
            }
            return 0
        }
        let path = StoreLocation.databasePath(option: invocation.databasePath, environment: environment)
        // The default location may be created on first run; anywhere else only when asked.
        let mayCreate = invocation.create || StoreLocation.isDefault(option: invocation.databasePath, environment: environment)
        // `check --books` checks the shop's money on the store the other commands use; `check` alone, the file.
        var books: BooksCommand?
        switch program {
        case .setup, .usage:
            if RemoteStore.isNamed(environment), let refusal = HTTPAvailability.refusal(for: "a remote base") {
                printError(refusal)
                return 69
            }
        default:
            break
        }
        switch program {
        case .setup:
            return await SetupCommand.run(words: rest, environment: environment, say: { Console.say($0) }, complain: printError)
        case .usage:
            return await UsageCommand.run(words: rest, environment: environment, say: { Console.say($0) }, complain: printError)
        case .storeFile(let command):
            guard command == .check, BooksCommand.isRequested(rest) else {
                return await command.run(path: path, words: rest, environment: environment)
            }
            do { books = try BooksCommand.parse(rest) } catch {
                printError("drinkshop: \(error)")
                return 2
            }
        case .backups(let command):
            return await command.run(path: path, words: rest, environment: environment)
        case .help, .serve, .shop:
            break
        }
        do {
            if program == .serve {
                let command = try ServeCommand.parse(rest)
                if command.gateway.isRequested {
                    if let refusal = HTTPAvailability.refusal(for: "the gateway") {
                        printError(refusal)
                        return 69
                    }
                    return try await GatewayCommand(serve: command).run(environment: environment)
                }
                let store = try await EmbeddedStore.open(path: path, mayCreate: mayCreate, environment: environment,
                                                         notes: printError)
                let status = try await command.run(store: store, environment: environment)
                await store.finish(within: .milliseconds(500))
                return status
            }
            let store = try await CounterStore.open(repl: invocation.words.isEmpty, path: path, mayCreate: mayCreate,
                                                    environment: environment)
            let status = await withTaskExecutorPreference(store.executor) {
                await runShop(store, invocation: invocation, books: books, environment: environment)
            }
            await store.finish(status)
            return status
        } catch let refusal as CounterStore.Refusal {
            printError(refusal.message)
            return refusal.status
        } catch {
            printError("drinkshop: " + StoreFailureHint.message(error))
            return 1
        }
    }

    /// The REPL when no command is given, otherwise the one command (`books`: the books check).
    private static func runShop(_ store: CounterStore, invocation: Invocation, books: BooksCommand?,
                                environment: [String: String]) async -> Int32 {
        let shop = store.shop
        // The time zone and business-day start every counter shares (DRINKSHOP_TIME_ZONE and
        // DRINKSHOP_DAY_STARTS are written to the store's settings when set).
        do {
            let adopted = try await shop.counter.adoptSettings(environment: environment)
            for note in adopted.notes { printError("Note: \(note)") }
            // The store's printer settings, where the environment names none (its addresses were checked at start).
            do {
                shop.counter.usePrinters(try ShopPrinters.configured(environment: environment,
                                                               fallback: PrinterRole.settings(adopted.stored)))
            } catch {
                printError("warning: \(error); printing without it (fix it with: printer label|receipt ADDRESS)")
            }
        } catch {
            printError("drinkshop: " + StoreFailureHint.message(error) + "; nothing was changed")
            return 2
        }
        if let books { return await books.run(shop, say: { Console.say($0) }, complain: printError) }
        let interactive = TerminalDevice.isTerminal(0)
        let oneShot = !invocation.words.isEmpty
        // Lines piped into the REPL on the embedded store: each command is acknowledged once its commit is on the
        // disk, by a thread of its own while the next command is worked out (`DurableAcknowledgements`).
        var output: any ShopOutput = StandardOutput()
        if !oneShot, !interactive, let base = store.embedded, (try? await base.deferDurability()) == true {
            output = DurableAcknowledgements(output, makeDurable: { try base.makeDurableWaiting() })
        }
        // --color and --no-color override what the terminal and NO_COLOR say.
        let style = invocation.color.map { $0 ? ColorPolicy.styled : .plain } ?? ColorPolicy.detect()
        let staff = invocation.staff ?? environment["DRINKSHOP_STAFF"] ?? environment["USER"] ?? "staff"
        // The REPL reads lines (and its questions) with the line editor; a one-shot command asks at the terminal.
        let completer = ShopCompleter(listFiles: FileCompletion.names)
        let reader = oneShot ? nil : LineReaders.make(
            historyFile: HistoryFile(path: StoreLocation.historyPath(environment: environment)),
            completer: { line, cursor in completer.complete(line: line, cursor: cursor) },
            // A line holding a PIN (`login Boss 4321`) is refused unrun and never kept in history.
            isSecret: { CommandParser.holdsSecret(line: $0) })
        let prompter = !interactive ? Prompter.nobody : reader.map(replPrompter(reading:)) ?? oneShotPrompter
        // PINs for one-shot commands and piped sessions (a script feeding the prompt: nobody there to ask) come
        // only from the environment, never from the command line; a counter at a terminal asks at login.
        let credentials = !oneShot && interactive ? OneShotCredentials.none : OneShotCredentials(
            pin: environment["DRINKSHOP_PIN"], newPIN: environment["DRINKSHOP_NEW_PIN"],
            grants: StaffGrants(directory: StoreLocation.grantsDirectory(environment: environment), store: store.description),
            qrKey: environment["DRINKSHOP_QR_KEY"])
        let interpreter = ShopInterpreter(shop: shop, output: output, style: style, defaultStaff: staff, prompter: prompter,
                                          credentials: credentials,
                                          environmentPrinters: environment.filter { $0.key.hasSuffix("_PRINTER") })
        interpreter.makeLineScreen = FullScreenTerminal()
        interpreter.errorHint = StoreFailureHint.after
        interpreter.afterClose = store.afterClose
        // At a terminal, views fit its width and long ones page; piped, they stay whole.
        interpreter.screen = TerminalPager(environment: environment)

        guard let reader else {
            // Orders an earlier run kept while the store was down go first, then the command; unless reading the
            // settings just found the store away (then they wait for its next probe, and the command goes on).
            await interpreter.sendOutbox(force: !shop.isOffline)
            let outcome = await interpreter.run(words: invocation.words)
            await interpreter.drainOutbox(forceFirst: !shop.isOffline)
            return outcome == .failed ? 1 : 0
        }
        let drinkCount = (try? await shop.catalog.menu().count) ?? 0
        var header = style.paint("可不可熟成紅茶 KEBUKE · DrinkShop", .bold) + "\n"
            + "\(store.description) · \(drinkCount) drinks · staff: \(staff) (login NAME to change) · help for commands\n"
        if shop.isOffline, let outbox = shop.outbox {
            header += style.paint("OFFLINE: \((shop.delivery.offlineReason ?? .unreachable).clause). Orders are kept on this counter (\(outbox.location)) "
                + "and sent as soon as it answers.", .yellow, .bold) + "\n"
        }
        if let screen = interpreter.screen { header = header.wrapped(toWidth: screen.size.columns) }
        let session = REPLSession(interpreter: interpreter, reader: reader, completer: completer, output: output,
                                  interactive: interactive)
        return await session.run(header: header)
    }

    /// The REPL's questions, asked through its line reader; a PIN is read without echo and never kept in history.
    private static func replPrompter(reading reader: any LineReader) -> Prompter {
        Prompter(
            confirm: { question in isYes(await reader.nextAnswer(prompt: question)) },
            readSecret: { prompt in
                await withCheckedContinuation { continuation in
                    let thread = Thread { continuation.resume(returning: reader.readSecretLine(prompt: prompt)) }
                    thread.name = "PIN reader"
                    thread.start()
                }
            },
            ask: { question in await reader.nextAnswer(prompt: question) })
    }

    /// A one-shot command's questions at a terminal (yes/no, or a typed answer); it never asks for a PIN.
    private static let oneShotPrompter = Prompter(
        confirm: { question in isYes(await PlainLineReader().nextAnswer(prompt: question)) },
        ask: { question in await PlainLineReader().nextAnswer(prompt: question) })

    /// y, yes or 是, however typed (full-width letters, spaces around it).
    static func isYes(_ answer: String?) -> Bool {
        let word = (answer ?? "").precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
        return ["y", "yes", "是"].contains(word.lowercased())
    }

    /// A counter on the store file backs it up after each close (`DRINKSHOP_BACKUP_AFTER_CLOSE=0` turns it off).
    static func backupAfterClose(storePath: String, shop: Shop, environment: [String: String])
        -> (@Sendable () async -> String?)?
    {
        guard environment["DRINKSHOP_BACKUP_AFTER_CLOSE"] != "0",
              let rotation = try? ServeCommand.rotation(environment) else { return nil }
        let backups = Backups(folder: Backups.folder(option: nil, storePath: storePath, environment: environment),
                              rotation: rotation, timeZone: shop.clock.timeZone)
        return {
            let lines = Mutex<[String]>([])
            let status = await BackupCommand.takeAndReport(
                backups, copyTo: environment["DRINKSHOP_BACKUP_COPY"], storePath: storePath, environment: environment,
                say: { line in lines.withLock { $0.append(line) } }, complain: { line in lines.withLock { $0.append(line) } })
            let said = lines.withLock { $0 }.joined(separator: "\n")
            return status == 0 ? said : said + " (the close itself is saved)"
        }
    }

    static func printError(_ text: String) {
        Console.complain(text)
    }
}

/// Where a command line goes, from the one command table (`CommandSpec`): the commands that run from the shell
/// only, `help` (which needs no store), or the shop (the REPL when no command is given, else one command, an unknown
/// word included: the interpreter names it).
enum Program: Equatable {
    case help, setup, usage, serve, shop
    case storeFile(StoreFileCommand)
    case backups(BackupCommand)

    init(_ words: [String]) {
        guard let first = words.first, let spec = CommandSpec.find(first) else {
            self = .shop
            return
        }
        guard let shell = spec.shellCommand else {
            self = spec == .help ? .help : .shop
            return
        }
        switch shell {
        case .setup: self = .setup
        case .usage: self = .usage
        case .serve: self = .serve
        case .initialize: self = .storeFile(.initialize)
        case .check: self = .storeFile(.check)
        case .recover: self = .storeFile(.recover)
        case .backup: self = .backups(.backup)
        case .backups: self = .backups(.backups)
        case .restore: self = .backups(.restore)
        }
    }
}
