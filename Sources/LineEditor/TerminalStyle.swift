import Foundation

/// A text style a terminal can show: weight or a foreground colour (SGR codes).
public enum TerminalStyle: Sendable, Equatable, CaseIterable {
    case bold
    case dim
    case red
    case green
    case yellow
    case cyan

    /// The Select Graphic Rendition parameter for this style.
    var code: Int {
        switch self {
        case .bold: return 1
        case .dim: return 2
        case .red: return 31
        case .green: return 32
        case .yellow: return 33
        case .cyan: return 36
        }
    }

    /// The escape sequence that turns every style off again.
    public static let resetSequence = "\u{1B}[0m"

    /// The escape sequence that turns on all of `styles` at once.
    static func startSequence(_ styles: [TerminalStyle]) -> String {
        "\u{1B}[" + styles.map { String($0.code) }.joined(separator: ";") + "m"
    }
}

/// Whether text written to one output may carry colours and other styles, and the means to apply them.
///
/// Styles only go to a terminal, and never when the person asked for none: `NO_COLOR` set to anything
/// non-empty (no-color.org) or `TERM=dumb`. With styles off, `paint` returns text unchanged, so callers
/// style unconditionally and the policy decides.
public struct ColorPolicy: Sendable, Equatable {
    /// Whether `paint` adds escape sequences.
    public var usesStyles: Bool

    /// Creates a policy that styles text or leaves it plain.
    public init(usesStyles: Bool) {
        self.usesStyles = usesStyles
    }

    /// Never styles: for pipes, files and tests.
    public static let plain = ColorPolicy(usesStyles: false)
    /// Always styles.
    public static let styled = ColorPolicy(usesStyles: true)

    /// The policy for an output that is (or is not) a terminal, under the given environment variables.
    public static func detect(outputIsTerminal: Bool, environment: [String: String]) -> ColorPolicy {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .plain }
        if environment["TERM"] == "dumb" { return .plain }
        return ColorPolicy(usesStyles: outputIsTerminal)
    }

    /// The policy for a file descriptor (standard output by default) in this process's environment.
    public static func detect(fileDescriptor: Int32 = 1) -> ColorPolicy {
        detect(outputIsTerminal: TerminalDevice.isTerminal(fileDescriptor), environment: TerminalDevice.environment)
    }

    /// `text` wrapped in the escape sequences for `styles`, or unchanged when styles are off.
    ///
    /// Painting already painted text keeps the outer styles after each inner reset, so
    /// `paint(paint("NT$", .green) + " 55", .bold)` stays bold to the end.
    public func paint(_ text: String, _ styles: TerminalStyle...) -> String {
        paint(text, styles: styles)
    }

    /// `text` wrapped in the escape sequences for `styles`, or unchanged when styles are off.
    public func paint(_ text: String, styles: [TerminalStyle]) -> String {
        guard usesStyles, !styles.isEmpty, !text.isEmpty else { return text }
        let start = TerminalStyle.startSequence(styles)
        let body = text.replacingOccurrences(of: TerminalStyle.resetSequence, with: TerminalStyle.resetSequence + start)
        return start + body + TerminalStyle.resetSequence
    }
}
