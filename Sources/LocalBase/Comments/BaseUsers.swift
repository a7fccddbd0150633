import Airtable
import Foundation

/// The base's users. A local base has one: its owner, made once (id, and a name and e-mail the owner
/// may change in the file) and kept in `base_meta` under `users`, so comments and collaborator cells
/// keep their author across restarts. Files made before users existed get their owner on first use.
/// The owner's first name and e-mail are the opening program's (`LocalBase.init(path:owner:…)`).
extension BaseContext {
    /// The stored users, without writing (empty when none was made yet).
    func storedUsers() throws -> [Collaborator] {
        guard let text = try file.meta("users"), let list = try JSONParser.parse(text).arrayValue else { return [] }
        return list.compactMap(Collaborator.init(json:))
    }

    /// The users, the owner made first if the file has none yet.
    func users() throws -> [Collaborator] {
        let users = try storedUsers()
        if !users.isEmpty { return users }
        return try file.connection.writeTransaction {
            let again = try storedUsers()
            if !again.isEmpty { return again }
            let owner = ownerProfile.newCollaborator()
            try file.setMeta("users", JSONWriter.string(.array([owner.json])))
            return [owner]
        }
    }
}
