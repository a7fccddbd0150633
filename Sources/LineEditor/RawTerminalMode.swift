import Glibc

/// Switching a terminal between its normal (cooked) mode and the raw mode a line editor needs.
enum RawTerminalMode {
    /// The terminal's current settings; nil when `fileDescriptor` is not a terminal.
    static func current(_ fileDescriptor: Int32) -> termios? {
        var settings = termios()
        return tcgetattr(fileDescriptor, &settings) == 0 ? settings : nil
    }

    /// `settings` made raw: every byte arrives as typed, one at a time, without echo, without the
    /// driver's line editing, signal keys (Ctrl-C, Ctrl-Z arrive as bytes) or CR/LF translation.
    static func raw(from settings: termios) -> termios {
        var raw = settings
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        // c_cc is a C array imported as a tuple; index it by VMIN/VTIME (6 and 5 on Linux).
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        return raw
    }

    /// Applies `settings`, keeping input typed ahead (TCSADRAIN, not TCSAFLUSH). False on failure.
    @discardableResult
    static func apply(_ settings: termios, to fileDescriptor: Int32) -> Bool {
        var settings = settings
        while tcsetattr(fileDescriptor, TCSADRAIN, &settings) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }
}
