import DrinkShop
import LineEditor

/// Settings changed at another counter reach this one before its next command (`Counter.followSharedSettings`
/// decides when to read them); this side uses the printers they name and says what changed, once, before
/// the command's own output (fitted to the screen, never held with a view).
extension ShopInterpreter {
    func followSharedSettings() async {
        let news = await shop.counter.followSharedSettings()
        let width = screenWidth
        let fitted = { (text: String) in width.map { text.wrapped(toWidth: $0) } ?? text }
        let warn = { (text: String) in self.output.writeError(fitted(self.style.paint("warning: ", .yellow) + text) + "\n") }
        if news.fromLastKnown {
            // Unreachable, rate limited or over its quota: the line that keeps the order says which.
            warn("working from the last known staff and settings while the store takes no requests "
                + "(依最後已知的員工與設定); orders are kept on this counter until it does")
        }
        for problem in news.problems { warn(problem) }
        guard !news.changes.isEmpty else { return }
        if news.changes.contains(where: { if case .printer = $0 { true } else { false } }), let stored = news.settings {
            do {
                shop.counter.usePrinters(try ShopPrinters.configured(environment: environmentPrinters,
                                                               fallback: PrinterRole.settings(stored)))
            } catch {
                warn("\(error); printing as before")
            }
        }
        let said = news.changes.map { change in
            guard case .printer(let role, _) = change, environmentPrinters[role.environmentVariable] != nil else {
                return change.description
            }
            return "\(change) (this counter keeps \(role.environmentVariable), which overrides it)"
        }
        output.write(fitted("Settings changed at another counter (其他櫃檯已變更設定): " + said.joined(separator: "; ") + ".") + "\n")
    }
}
