/// Why a job did not reach a printer. The order it belongs to is untouched; the shop says this and
/// the job can be printed again later.
public enum PrinterError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotResolve(host: String, reason: String)
    /// Nothing listens there: the printer is off, or the port is wrong.
    case refused(address: String)
    case unreachable(address: String, reason: String)
    /// `stage` is "connect", "open" or "write".
    case timedOut(address: String, stage: String, seconds: Double)
    /// A named pipe (FIFO) that no program read from within the deadline: the print spooler is not running.
    case noReader(path: String, seconds: Double)
    case cannotOpen(path: String, reason: String)
    case writeFailed(address: String, reason: String)

    public var description: String {
        switch self {
        case .cannotResolve(let host, let reason):
            "cannot find the printer '\(host)': \(reason)"
        case .refused(let address):
            "the printer at \(address) refused the connection; is it switched on and is the port right?"
        case .unreachable(let address, let reason):
            "cannot reach the printer at \(address): \(reason)"
        case .timedOut(let address, let stage, let seconds):
            switch stage {
            case "connect": "the printer at \(address) did not answer within \(Self.format(seconds)) s; is it switched on?"
            case "open": "the printer \(address) could not be opened within \(Self.format(seconds)) s; is it connected?"
            default: "the printer at \(address) stopped taking data for \(Self.format(seconds)) s (out of paper or jammed?)"
            }
        case .noReader(let path, let seconds):
            "nothing read the printer pipe \(path) within \(Self.format(seconds)) s; is the print spooler running?"
        case .cannotOpen(let path, let reason):
            "cannot open the printer \(path): \(reason)"
        case .writeFailed(let address, let reason):
            "sending to the printer at \(address) failed: \(reason)"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
