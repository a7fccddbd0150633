/// Why archiving closed days stopped. Whatever was already moved stays moved; whatever was not is still in
/// the base; running `archive` again finishes the job.
public enum ArchiveError: Error, Sendable, CustomStringConvertible, Equatable {
    /// This counter has no archive (the embedded store keeps everything unless asked).
    case noArchive
    /// A copy in the archive does not match the base's record, so the record was left in the base.
    case copyDiffers(table: String, record: String, location: String)

    public var description: String {
        switch self {
        case .noArchive:
            return "this store has no archive: use `close COUNTED --archive` or `archive` to start one (這家店沒有封存檔)"
        case .copyDiffers(let table, let record, let location):
            return "the archive \(location) does not hold an exact copy of \(table) record \(record); "
                + "nothing of it was removed from the base (run archive again; if it repeats, check the file) (封存副本不符，原紀錄保留)"
        }
    }
}
