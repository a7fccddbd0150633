import DrinkShopCore
import Foundation
import PinHashing

/// Short-lived proof that a staff member gave their PIN, for one-shot commands (like sudo's timestamp):
/// after a one-shot command's PIN is verified the slow way, the next ones of the same person on the same
/// store within `lifetime` check it against a quick hash kept in the user's state directory instead of
/// hashing for half a second each, so scripts and the make line are not slowed. A grant holds only
/// while the PIN on the store is the one it was made for and the account is not locked; `logout` and a
/// lockout end it, and a wrong PIN is never checked against it (it goes the slow, counted way).
///
/// The file (mode 0600, in a 0700 folder) holds the quick hash (PBKDF2 at 1,000 rounds): whoever can read
/// it within its few minutes could search a four-digit PIN in seconds, where the store's own hash takes
/// about an hour. It is the user's own folder, as the store file usually is.
public struct StaffGrants: Sendable {
    /// The folder the grants are kept in (`$XDG_STATE_HOME/drinkshop/grants`).
    public let directory: String
    /// Which store they are for (the store file's path, or the remote base id).
    public let store: String
    public let lifetime: TimeInterval

    public init(directory: String, store: String, lifetime: TimeInterval = 300) {
        self.directory = directory
        self.store = store
        self.lifetime = lifetime
    }

    private static let quick: PINHasher? = try? PINHasher(iterations: 1_000)

    /// Whether `pin` is the one `account` proved within the lifetime (and still has, unlocked, at `date`).
    public func holds(_ pin: PIN, for account: StaffAccount, at date: Date) -> Bool {
        guard let stored = account.pinHash, let text = try? String(contentsOfFile: path(for: account.name), encoding: .utf8)
        else { return false }
        let parts = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let until = TimeInterval(parts[0]) else { return false }
        if let locked = account.attempts.lockedUntil, date < locked {
            end(account.name)
            return false
        }
        guard date.timeIntervalSince1970 < until, until - date.timeIntervalSince1970 <= lifetime, parts[1] == stored
        else { return false }
        return (try? PINHasher.verify(pin, against: parts[2].trimmingCharacters(in: .newlines))) == true
    }

    /// Records that `account` proved `pin` at `date` (best effort: without a grant the next command hashes).
    public func grant(_ pin: PIN, for account: StaffAccount, at date: Date) {
        guard let stored = account.pinHash, let quick = Self.quick, let check = try? quick.hash(pin) else { return }
        let manager = FileManager.default
        try? manager.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let line = "\(date.timeIntervalSince1970 + lifetime)\t\(stored)\t\(check)\n"
        let target = path(for: account.name)
        let temporary = target + ".part-\(ProcessInfo.processInfo.processIdentifier)"
        guard manager.createFile(atPath: temporary, contents: Data(line.utf8), attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary, target) != 0 { try? manager.removeItem(atPath: temporary) }
    }

    /// Ends `name`'s grant on this store (`logout`, a lockout).
    public func end(_ name: String) {
        try? FileManager.default.removeItem(atPath: path(for: name))
    }

    /// One file per store and person, named by a hash of both (any spelling makes a safe file name).
    func path(for name: String) -> String {
        directory + "/" + Self.fnv1a(store) + "-" + Self.fnv1a(PersonName.matchKey(name)) + ".grant"
    }

    /// FNV-1a, 64 bits, in hex: a stable name, not a secret.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
