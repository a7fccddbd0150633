/// A key press (or paste) as the line editor understands it, decoded from the terminal's bytes.
public enum EditorKey: Sendable, Equatable {
    /// Printable text typed at the keyboard; several characters when they arrived together.
    case text(String)
    /// Text the terminal marked as pasted (bracketed paste): inserted as is, never run as keys.
    case paste(String)
    case enter
    case tab
    case backspace
    /// The Delete key (`ESC [ 3 ~`).
    case delete
    case left
    case right
    case up
    case down
    case home
    case end
    /// Ctrl-Left or Alt-Left.
    case wordLeft
    /// Ctrl-Right or Alt-Right.
    case wordRight
    /// A control key, by its lowercase letter: Ctrl-A is `.control("a")`.
    case control(Character)
    /// A key pressed with Alt (or after Escape): Alt-B is `.alt("b")`.
    case alt(Character)
    /// Alt-Backspace.
    case altBackspace
    /// Escape on its own.
    case escape
}
