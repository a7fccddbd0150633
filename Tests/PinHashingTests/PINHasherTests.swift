import Testing
@testable import PinHashing
import TestSupport

@Suite("PIN hashing")
struct PINHasherTests {
    let fast: PINHasher

    init() throws {
        fast = try PINHasher(iterations: 1_000)
    }

    @Test("a known PBKDF2-HMAC-SHA256 vector (computed independently with Python's hashlib)")
    func knownVector() throws {
        let encoded = try fast.hash("2468", salt: Array(0..<16))
        #expect(encoded == "$pbkdf2-sha256$i=1000$AAECAwQFBgcICQoLDA0ODw$2gr5xCQfRexXAbDy5JD5x5TbjyqsynZsYIGnIdBL4pU")
    }

    @Test("the right PIN verifies, a wrong one does not, with the default (slow) iteration count")
    func verifiesWithDefaults() async throws {
        // Four slow hashes (about 0.4 s each here): on a thread of their own, not the cooperative pool.
        let (stored, right, wrong, longer) = try await offThePool {
            let stored = try PINHasher().hash("1234")
            return (stored, try PINHasher.verify("1234", against: stored),
                    try PINHasher.verify("1235", against: stored), try PINHasher.verify("12345", against: stored))
        }
        #expect(stored.hasPrefix("$pbkdf2-sha256$i=600000$"))
        #expect(right)
        #expect(!wrong)
        #expect(!longer)
    }

    @Test("every hash gets its own salt, so equal PINs store differently")
    func saltsDiffer() throws {
        let pin = "0000"
        let hashes = try (0..<8).map { _ in try fast.hash(pin) }
        #expect(Set(hashes).count == 8)
        for stored in hashes { #expect(try PINHasher.verify(pin, against: stored)) }
    }

    @Test("the stored string never contains the PIN")
    func secretNotInHash() throws {
        let stored = try fast.hash("975310")
        #expect(!stored.contains("975310"))
    }

    @Test("damaged or foreign hashes are refused with a reason, not treated as a wrong PIN",
          arguments: [
              "", "1234", "$pbkdf2-sha256$i=1000$AAECAwQFBgcICQoLDA0ODw",
              "$bcrypt$i=1000$AAECAwQFBgcICQoLDA0ODw$2gr5xCQfRexXAbDy5JD5x5TbjyqsynZsYIGnIdBL4pU",
              "$pbkdf2-sha256$i=10$AAECAwQFBgcICQoLDA0ODw$2gr5xCQfRexXAbDy5JD5x5TbjyqsynZsYIGnIdBL4pU",
              "$pbkdf2-sha256$i=99999999999$AAECAwQFBgcICQoLDA0ODw$2gr5xCQfRexXAbDy5JD5x5TbjyqsynZsYIGnIdBL4pU",
              "$pbkdf2-sha256$n=1000$AAECAwQFBgcICQoLDA0ODw$2gr5xCQfRexXAbDy5JD5x5TbjyqsynZsYIGnIdBL4pU",
              "$pbkdf2-sha256$i=1000$!!!$2gr5xCQfRexXAbDy5JD5x5TbjyqsynZsYIGnIdBL4pU",
              "$pbkdf2-sha256$i=1000$AAECAwQFBgcICQoLDA0ODw$AAEC",
          ])
    func damagedHashes(stored: String) throws {
        #expect(throws: PINHashError.self) { try PINHasher.verify("2468", against: stored) }
    }

    @Test("a hash made with fewer iterations than today's asks to be rehashed")
    func rehash() throws {
        let old = try fast.hash("2468")
        #expect(try PINHasher(iterations: 2_000).needsRehash(old))
        #expect(!fast.needsRehash(old))
        #expect(fast.needsRehash("garbage"))
    }

    @Test("iteration counts outside the safe range are refused")
    func iterationBounds() {
        #expect(throws: PINHashError.iterationsOutOfRange(10)) { try PINHasher(iterations: 10) }
    }
}
