import CCrypto
import Foundation

/// Salted slow hashes of staff PINs (PBKDF2-HMAC-SHA256 through OpenSSL's libcrypto), stored as
/// one self-describing string: `$pbkdf2-sha256$i=<iterations>$<salt>$<hash>` (salt and hash in
/// unpadded base64, as in the PHC string format), so the parameters can grow later and old hashes
/// still verify.
public struct PINHasher: Sendable {
    /// OWASP's 2023 figure for PBKDF2-HMAC-SHA256.
    public static let defaultIterations = 600_000
    /// Stored hashes outside these bounds are refused instead of run: too few iterations are not
    /// a slow hash, too many would let a crafted record stall the counter.
    public static let iterationRange = 1_000...10_000_000
    public static let saltLength = 16
    public static let hashLength = 32
    static let algorithm = "pbkdf2-sha256"

    /// Iterations used for new hashes.
    public let iterations: Int

    /// The hasher for new PINs: `defaultIterations`.
    public static let standard = PINHasher(checkedIterations: defaultIterations)

    private init(checkedIterations: Int) { iterations = checkedIterations }

    /// - Throws: `PINHashError.iterationsOutOfRange` outside `iterationRange`.
    public init(iterations: Int = PINHasher.defaultIterations) throws(PINHashError) {
        guard Self.iterationRange.contains(iterations) else { throw .iterationsOutOfRange(iterations) }
        self.iterations = iterations
    }

    /// A new hash of `pin` with a fresh salt from the OS random source (`SystemRandomNumberGenerator`:
    /// getrandom(2) on Linux, arc4random on Apple platforms).
    public func hash(_ pin: String) throws(PINHashError) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<Self.saltLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return try hash(pin, salt: salt)
    }

    /// The hash of `pin` with a given salt (tests compare against known vectors with this).
    public func hash(_ pin: String, salt: [UInt8]) throws(PINHashError) -> String {
        let derived = try Self.derive(pin, salt: salt, iterations: iterations)
        return "$\(Self.algorithm)$i=\(iterations)$\(Self.base64(salt))$\(Self.base64(derived))"
    }

    /// Whether `pin` matches `stored`, comparing in constant time.
    /// - Throws: `PINHashError` when `stored` is not a hash this type wrote (never for a wrong PIN).
    public static func verify(_ pin: String, against stored: String) throws(PINHashError) -> Bool {
        let parsed = try StoredPINHash(parsing: stored)
        let derived = try derive(pin, salt: parsed.salt, iterations: parsed.iterations)
        guard derived.count == parsed.hash.count else { return false }
        return derived.withUnsafeBytes { a in
            parsed.hash.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }

    /// Whether `stored` was made with fewer iterations than this hasher uses (rehash at the next login).
    public func needsRehash(_ stored: String) -> Bool {
        guard let parsed = try? StoredPINHash(parsing: stored) else { return true }
        return parsed.iterations < iterations
    }

    static func derive(_ pin: String, salt: [UInt8], iterations: Int) throws(PINHashError) -> [UInt8] {
        let secret = Array(pin.utf8)
        var output = [UInt8](repeating: 0, count: hashLength)
        let status = secret.withUnsafeBufferPointer { secretBytes in
            salt.withUnsafeBufferPointer { saltBytes in
                output.withUnsafeMutableBufferPointer { out in
                    secretBytes.withMemoryRebound(to: CChar.self) { pass in
                        PKCS5_PBKDF2_HMAC(pass.baseAddress, Int32(pass.count), saltBytes.baseAddress,
                                          Int32(saltBytes.count), Int32(iterations), EVP_sha256(),
                                          Int32(out.count), out.baseAddress)
                    }
                }
            }
        }
        guard status == 1 else { throw .cryptoFailure }
        return output
    }

    static func base64(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}

/// The parts of a stored PIN hash.
struct StoredPINHash {
    let iterations: Int
    let salt: [UInt8]
    let hash: [UInt8]

    init(parsing stored: String) throws(PINHashError) {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty else { throw .malformed("expected $algorithm$i=N$salt$hash") }
        guard parts[1] == PINHasher.algorithm else { throw .unknownAlgorithm(String(parts[1])) }
        guard parts[2].hasPrefix("i="), let iterations = Int(parts[2].dropFirst(2)) else {
            throw .malformed("no iteration count")
        }
        guard PINHasher.iterationRange.contains(iterations) else { throw .iterationsOutOfRange(iterations) }
        guard let salt = Self.decode(parts[3]), salt.count >= 8 else { throw .malformed("bad salt") }
        guard let hash = Self.decode(parts[4]), hash.count == PINHasher.hashLength else {
            throw .malformed("bad hash")
        }
        self.iterations = iterations
        self.salt = salt
        self.hash = hash
    }

    private static func decode(_ text: Substring) -> [UInt8]? {
        var padded = String(text)
        while padded.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded).map(Array.init)
    }
}

/// Why a PIN hash could not be made or checked. Never carries a PIN or a hash.
public enum PINHashError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case iterationsOutOfRange(Int)
    case unknownAlgorithm(String)
    case malformed(String)
    case cryptoFailure

    public var description: String {
        switch self {
        case .iterationsOutOfRange(let count):
            "a PIN hash needs \(PINHasher.iterationRange.lowerBound) to \(PINHasher.iterationRange.upperBound) iterations, not \(count)"
        case .unknownAlgorithm(let name):
            "the stored PIN hash uses \"\(name)\", which this version does not know (expected \(PINHasher.algorithm))"
        case .malformed(let problem):
            "the stored PIN hash is damaged: \(problem); a manager must set the PIN again"
        case .cryptoFailure:
            "the crypto library could not hash the PIN"
        }
    }

    public var errorDescription: String? { description }
}

/// The slow work (about half a second a PIN) on a thread of its own, so a caller in async code never holds
/// a thread of the cooperative pool while it runs.
extension PINHasher {
    /// `hash(_:)` off the cooperative pool.
    public func hashOffThePool(_ pin: String) async throws(PINHashError) -> String {
        let hasher = self
        return try await Self.offThePool { () throws(PINHashError) -> String in try hasher.hash(pin) }
    }

    /// `verify(_:against:)` off the cooperative pool.
    public static func verifyOffThePool(_ pin: String, against stored: String) async throws(PINHashError) -> Bool {
        try await offThePool { () throws(PINHashError) -> Bool in try verify(pin, against: stored) }
    }

    private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws(PINHashError) -> T)
        async throws(PINHashError) -> T
    {
        let result: Result<T, PINHashError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(PINHashError) { continuation.resume(returning: .success(try work())) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "PIN hashing"
            thread.start()
        }
        return try result.get()
    }
}
