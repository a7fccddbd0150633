import Foundation

/// File names for Tab after `seed`: the entries of the partial path's folder that start with its last part
/// (folders end in `/`, hidden files only when the part starts with a dot).
enum FileCompletion {
    @Sendable static func names(_ partial: String) -> [String] {
        let slash = partial.lastIndex(of: "/")
        let folder = slash.map { String(partial[...$0]) } ?? ""
        let start = slash.map { String(partial[partial.index(after: $0)...]) } ?? partial
        let manager = FileManager.default
        let expanded = (folder as NSString).expandingTildeInPath
        guard let entries = try? manager.contentsOfDirectory(atPath: folder.isEmpty ? "." : expanded) else { return [] }
        return entries.filter { $0.hasPrefix(start) && (start.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().prefix(200).map { entry in
            var isFolder: ObjCBool = false
            let path = (folder.isEmpty ? "" : expanded + "/") + entry
            _ = manager.fileExists(atPath: path.isEmpty ? entry : path, isDirectory: &isFolder)
            return folder + entry + (isFolder.boolValue ? "/" : "")
        }
    }
}
