/// The history a terminal reader offers, and the file that keeps it across runs (if any).
///
/// A history file that cannot be read or written does not stop the reader: the history simply lives
/// in memory, and the first problem is kept for the caller to show once.
struct KeptHistory: Sendable {
    private(set) var history: LineHistory
    private let file: HistoryFile?
    /// Lines in the file as far as this process knows: what it loaded plus what it appended.
    private var linesInFile: Int
    /// The first history file failure, if any.
    private(set) var problem: HistoryFileError?

    /// Lines for which this is true (a line holding a PIN) are never kept, in memory or in the file.
    private let isSecret: @Sendable (String) -> Bool

    /// Lines longer than this (in UTF-8 bytes) are not kept.
    static let longestKeptLine = 8_192

    /// The history of `file`, without any secret line an earlier version kept in it (the file is then
    /// rewritten without them).
    init(file: HistoryFile?, limit: Int, isSecret: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.file = file
        self.isSecret = isSecret
        do {
            let loaded = try file?.load() ?? LineHistory(limit: limit)
            let kept = loaded.entries.filter { !isSecret($0) }
            history = kept.count == loaded.entries.count ? loaded : LineHistory(entries: kept, limit: loaded.limit)
            if kept.count != loaded.entries.count { try file?.rewrite(kept) }
        } catch {
            history = LineHistory(limit: limit)
            problem = error
        }
        linesInFile = history.entries.count
    }

    /// Keeps `line` in memory and appends it to the file; cuts the file back once it holds twice the
    /// limit. A secret line is kept nowhere.
    mutating func record(_ line: String) {
        // A line longer than any command (a paste gone wrong) is not worth recalling, and would bloat the file.
        guard line.utf8.count <= Self.longestKeptLine, !isSecret(line), history.add(line), let file else { return }
        do {
            try file.append(line)
            linesInFile += 1
            if linesInFile >= 2 * history.limit {
                try file.rewrite(history.entries)
                linesInFile = history.entries.count
            }
        } catch {
            problem = problem ?? error
        }
    }
}
