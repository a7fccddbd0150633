import DrinkShopCore
import Foundation
import Glibc
import PinHashing

/// Short-lived proof that a staff member gave their PIN, for one-shot commands (like sudo's timestamp):
/// after a one-shot command's PIN is verified the slow way, the next ones of the same person on the same
/// store within `lifetime` check it against a quick hash kept in the user's state directory instead of
/// hashing for half a second each, so scripts and the make line are not slowed. A grant holds only
/// while the PIN on the store is the one it was made for and the account is not locked; `logout` and a
/// lockout end it, and a wrong PIN is never checked against it (it goes the slow, counted way).
///
/// Each grant is sealed (HMAC-SHA256) with a random key kept beside the grants folder (`grant.key`, 0600,
/// made on first use, refused when anyone else could read or write it): a grant made without the key, say
/// from the store's readable PIN hash, or changed after it was made, is refused and counted as a wrong PIN
/// (`StaffDirectory.verify(_:for:at:grants:)`). The file (mode 0600, in a 0700 folder) holds the quick hash
/// (PBKDF2 at 1,000 rounds): whoever can read it within its few minutes could search a four-digit PIN in
/// seconds, where the store's own hash takes about an hour. It is the user's own folder.
public struct StaffGrants: Sendable {
    /// The folder the grants are kept in (`$XDG_STATE_HOME/drinkshop/grants`).
    public let directory: String
    /// Which store they are for (the store file's path, or the remote base id).
    public let store: String
    public let lifetime: TimeInterval
    /// The sealing key's file: `grant.key` in the folder holding `directory`.
    public let keyPath: String

    public init(directory: String, store: String, lifetime: TimeInterval = 300) {
        self.directory = directory
        self.store = store
        self.lifetime = lifetime
        keyPath = (directory as NSString).deletingLastPathComponent + "/grant.key"
    }

    private static let quick: PINHasher? = try? PINHasher(iterations: 1_000)

    /// What a grant file says of a PIN.
    public enum Check: Sendable, Hashable {
        /// The grant holds: `pin` is the one proven, within the lifetime, still the store's.
        case proven
        /// No grant that says anything of this PIN (none, ended, expired, another PIN): hash it the slow way.
        case none
        /// A grant this user's key did not seal (made elsewhere or changed since): refused, a wrong PIN.
        case forged
    }

    /// What the grant of `account` says of `pin` at `date`. A forged grant is removed; so is one of a locked account.
    public func check(_ pin: PIN, for account: StaffAccount, at date: Date) -> Check {
        guard let stored = account.pinHash, let text = try? String(contentsOfFile: path(for: account.name), encoding: .utf8)
        else { return .none }
        let parts = text.trimmingCharacters(in: .newlines).split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, let until = TimeInterval(parts[0]), let seal = sealingKey(creating: false),
              seal.holds(parts[3], for: sealed(parts[0], parts[1], parts[2], name: account.name))
        else {
            end(account.name)
            return .forged
        }
        if let locked = account.attempts.lockedUntil, date < locked {
            end(account.name)
            return .none
        }
        guard date.timeIntervalSince1970 < until, until - date.timeIntervalSince1970 <= lifetime, parts[1] == stored
        else { return .none }
        return (try? PINHasher.verify(pin.secret, against: parts[2])) == true ? .proven : .none
    }

    /// Whether `pin` is the one `account` proved within the lifetime (and still has, unlocked, at `date`).
    public func holds(_ pin: PIN, for account: StaffAccount, at date: Date) -> Bool {
        check(pin, for: account, at: date) == .proven
    }

    /// Records that `account` proved `pin` at `date` (best effort: without a grant the next command hashes).
    public func grant(_ pin: PIN, for account: StaffAccount, at date: Date) {
        guard let stored = account.pinHash, let quick = Self.quick, let check = try? quick.hash(pin.secret),
              let seal = sealingKey(creating: true) else { return }
        let manager = FileManager.default
        try? manager.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let until = "\(date.timeIntervalSince1970 + lifetime)"
        let line = "\(until)\t\(stored)\t\(check)\t\(seal.seal(sealed(until, stored, check, name: account.name)))\n"
        let target = path(for: account.name)
        let temporary = target + ".part-\(ProcessInfo.processInfo.processIdentifier)"
        guard manager.createFile(atPath: temporary, contents: Data(line.utf8), attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary, target) != 0 { try? manager.removeItem(atPath: temporary) }
    }

    /// What a grant's seal covers: its fields, the store and the person, so a grant moved to another store's
    /// or person's file does not hold either.
    private func sealed(_ until: String, _ stored: String, _ check: String, name: String) -> String {
        [until, stored, check, store, PersonName.matchKey(name)].joined(separator: "\t")
    }

    /// The sealing key: 32 random bytes, hex, in `keyPath`, made (0600, its folder 0700) on first use when
    /// `creating`. Nil when there is none, or it is not this user's alone (another user could read or write it).
    func sealingKey(creating: Bool) -> SecretSeal? {
        if let key = Self.readKey(keyPath) { return SecretSeal(key: key) }
        guard creating else { return nil }
        let folder = (keyPath as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let digits = Array("0123456789abcdef")
        let text = String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
        // Written whole under another name, then linked in place: of two commands making it at once, one key wins
        // and both use it; nobody ever reads half a key.
        let temporary = keyPath + ".part-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else { return nil }
        _ = link(temporary, keyPath)
        unlink(temporary)
        return Self.readKey(keyPath).map(SecretSeal.init(key:))
    }

    /// The key in `path`, when it is a regular file of this user's that nobody else may read or write.
    private static func readKey(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid(),
              status.st_mode & 0o077 == 0
        else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65)
        let count = read(descriptor, &buffer, 65)
        guard count == 64 else { return nil }
        var key: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: buffer[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            key.append(byte)
        }
        return key
    }

    /// Ends `name`'s grant on this store (`logout`, a lockout).
    public func end(_ name: String) {
        try? FileManager.default.removeItem(atPath: path(for: name))
    }

    /// One file per store and person, named by a hash of both (any spelling makes a safe file name).
    public func path(for name: String) -> String {
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
