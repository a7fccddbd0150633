import Glibc
import Synchronization

/// Gives the terminal back in its normal mode when a signal ends or stops the process while a line is
/// being read in raw mode, and wakes the reader to redraw afterwards.
///
/// On SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGTSTP the handler restores every armed terminal, then lets
/// the signal do what it would have done without us (terminate, stop, or run the program's own
/// handler) by re-raising it under the previous disposition. If the process lives on (resumed after
/// SIGTSTP, or the signal is ignored or handled), the handler re-installs itself and wakes the readers,
/// which put their terminals back into raw mode and redraw. SIGCONT and SIGWINCH only wake them. The
/// handler touches only memory set up before it was installed and calls only async-signal-safe
/// functions (tcsetattr, write, sigaction, pthread_sigmask, raise).
enum TerminalSignalGuard {
    /// A terminal in raw mode and what to do for it inside a signal handler.
    struct Slot {
        var terminal: Int32 = -1
        var output: Int32 = -1
        var wake: Int32 = -1
        var normalMode = termios()
    }

    static let slotCount = 8
    static let handledSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH]

    /// Slots the handler reads; a slot whose `terminal` is -1 is free. Changed only under `registry`.
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<Slot> = {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: slotCount)
        slots.initialize(repeating: Slot(), count: slotCount)
        return slots
    }()

    /// The dispositions that were in place before ours, by signal number.
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        actions.initialize(repeating: sigaction(), count: 65)
        return actions
    }()

    /// How many slots are armed; the handlers are installed while it is above zero.
    private static let registry = Mutex<Int>(0)

    /// Arms a slot for a terminal about to enter raw mode; nil when all slots are taken (the reader
    /// still works, only without signal protection).
    static func arm(terminal: Int32, output: Int32, wake: Int32, normalMode: termios) -> Int? {
        registry.withLock { armed in
            guard let free = (0..<slotCount).first(where: { slots[$0].terminal == -1 }) else { return nil }
            slots[free].output = output
            slots[free].wake = wake
            slots[free].normalMode = normalMode
            slots[free].terminal = terminal
            if armed == 0 {
                for signal in handledSignals { install(signal) }
            }
            armed += 1
            return free
        }
    }

    /// Frees a slot; the last one out puts the previous dispositions back.
    static func disarm(_ slot: Int) {
        registry.withLock { armed in
            slots[slot].terminal = -1
            armed -= 1
            if armed == 0 {
                for signal in handledSignals { _ = sigaction(signal, previousActions + Int(signal), nil) }
            }
        }
    }

    private static func install(_ signal: Int32) {
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        // SA_RESTART keeps other threads' reads and writes from failing with EINTR because of us.
        action.sa_flags = SA_RESTART
        action.__sigaction_handler.sa_handler = handleTerminalSignal
        _ = sigaction(signal, &action, previousActions + Int(signal))
    }
}

/// The handler itself: a C function touching only preallocated memory.
private func handleTerminalSignal(_ signal: Int32) {
    let savedErrno = errno
    defer { errno = savedErrno }
    let slots = TerminalSignalGuard.slots
    if signal != SIGWINCH && signal != SIGCONT {
        let leaveRawMode: StaticString = "\u{1B}[?2004l"
        for index in 0..<TerminalSignalGuard.slotCount where slots[index].terminal >= 0 {
            _ = tcsetattr(slots[index].terminal, TCSANOW, &slots[index].normalMode)
            _ = write(slots[index].output, leaveRawMode.utf8Start, leaveRawMode.utf8CodeUnitCount)
        }
        var ours = sigaction()
        _ = sigaction(signal, TerminalSignalGuard.previousActions + Int(signal), &ours)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, signal)
        _ = pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        // Under the previous disposition: the default ends or stops the process right here.
        _ = raise(signal)
        _ = sigaction(signal, &ours, nil)
    }
    var byte = UInt8(truncatingIfNeeded: signal)
    for index in 0..<TerminalSignalGuard.slotCount where slots[index].terminal >= 0 {
        _ = write(slots[index].wake, &byte, 1)
    }
}
