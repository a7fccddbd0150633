import LineEditor

/// The terminal a counter's output goes to: how big it is now, and a way to show long output a
/// screenful at a time. Nil on the interpreter for pipes, files and tests that read the whole output.
public protocol CounterScreen: Sendable {
    /// Rows and columns of the window now; asked before each command, so a resized window is followed.
    var size: (rows: Int, columns: Int) { get }
    /// Writes `text`, pausing after each screenful when it is longer than the window.
    func show(_ text: String) async
}

extension TerminalPager: CounterScreen {}

/// What a command said while its output was held to be fitted and paged as one text.
struct HeldOutput {
    var text = ""
    var errors = ""
}

extension ShopInterpreter {
    /// Runs `body` with the command's output held back, then shows it fitted to the screen's width and
    /// paged; errors and warnings follow it, so they are not scrolled away by the listing.
    func showingOnScreen(_ screen: any CounterScreen, width: Int, _ body: () async -> Outcome) async -> Outcome {
        held = HeldOutput()
        let outcome = await body()
        let output = held ?? HeldOutput()
        held = nil
        if !output.text.isEmpty { await screen.show(output.text.wrapped(toWidth: width)) }
        if !output.errors.isEmpty { self.output.writeError(output.errors.wrapped(toWidth: width)) }
        return outcome
    }
}
