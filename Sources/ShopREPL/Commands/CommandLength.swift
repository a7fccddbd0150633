/// The longest command a counter takes. Nothing staff type comes near it; a longer line is a paste gone
/// wrong or a file that is not commands, and it is refused at once instead of being searched for drink
/// names, with only a short excerpt echoed.
enum CommandLength {
    /// Characters in one command line.
    static let limit = 2_000
    /// Characters of a refused line shown back.
    static let excerptLength = 40

    /// Why `line` is refused, or nil when it is short enough.
    static func refusal(_ line: String) -> String? {
        // utf8.count is O(1); a character count is only needed when the bytes could be over the limit.
        guard line.utf8.count > limit else { return nil }
        let length = line.count
        guard length > limit else { return nil }
        let excerpt = String(line.prefix(excerptLength))
        return "that line is too long: \(length) characters, and a command takes at most \(limit) "
            + "(it began \"\(excerpt)…\"); nothing was done"
    }
}
