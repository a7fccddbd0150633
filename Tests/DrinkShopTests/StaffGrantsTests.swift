@testable import DrinkShop
import DrinkShopCore
import Foundation
import PinHashing
import Testing
import TestSupport

/// A one-shot command's proven PIN, kept a few minutes: it holds only for the same PIN, the same PIN on
/// the store, an unlocked account and within its lifetime; logout ends it.
@Suite struct StaffGrantsTests {
    @Test func aGrantHoldsForTheSamePINOnlyAndEndsWithAChangeALockOrLogout() async throws {
        let fixture = try await ShopFixture(pinHasher: try PINHasher(iterations: 1_000))
        _ = try await fixture.shop.staff.add("Amy", role: .manager)
        try await fixture.shop.staff.setPIN(try PIN("1357"), for: "Amy")
        let directory = try TemporaryDirectory()
        let grants = StaffGrants(directory: directory.path + "/grants", store: "/tmp/shop.sqlite")
        let other = StaffGrants(directory: directory.path + "/grants", store: "/tmp/other.sqlite")
        let now = fixture.clock.now
        var amy = try await fixture.shop.staff.account(named: "Amy")
        #expect(!grants.holds(try PIN("1357"), for: amy, at: now))
        grants.grant(try PIN("1357"), for: amy, at: now)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/grants")
        #expect(files.count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: directory.path + "/grants/" + files[0])[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try !String(contentsOfFile: directory.path + "/grants/" + files[0], encoding: .utf8).contains("1357"))
        #expect(grants.holds(try PIN("1357"), for: amy, at: now.addingTimeInterval(60)))
        #expect(!grants.holds(try PIN("2468"), for: amy, at: now))
        #expect(!other.holds(try PIN("1357"), for: amy, at: now), "a grant is for one store")
        #expect(!grants.holds(try PIN("1357"), for: amy, at: now.addingTimeInterval(301)), "it lasts five minutes")
        // Written as `amy`, read as `Amy`: one person.
        #expect(grants.holds(try PIN("1357"), for: amy, at: now))
        // A new PIN on the store ends it, even for the same digits.
        try await fixture.shop.staff.setPIN(try PIN("1357"), for: "Amy")
        #expect(!grants.holds(try PIN("1357"), for: try await fixture.shop.staff.account(named: "Amy"), at: now))
        amy = try await fixture.shop.staff.account(named: "Amy")
        grants.grant(try PIN("1357"), for: amy, at: now)
        // Five wrong PINs lock the account: the grant ends with it.
        for _ in 0..<5 { _ = try? await fixture.shop.staff.verify(try PIN("0000"), for: "Amy", at: now) }
        let locked = try await fixture.shop.staff.account(named: "Amy")
        #expect(!grants.holds(try PIN("1357"), for: locked, at: now))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/grants").isEmpty)
        // Logout ends it.
        grants.grant(try PIN("1357"), for: amy, at: now)
        grants.end("amy")
        #expect(!grants.holds(try PIN("1357"), for: amy, at: now))
    }

    @Test func aGrantForgedFromTheStoresHashOrChangedIsRefusedAndCountedAsAWrongPIN() async throws {
        let fixture = try await ShopFixture(pinHasher: try PINHasher(iterations: 1_000))
        _ = try await fixture.shop.staff.add("Boss", role: .manager)
        try await fixture.shop.staff.setPIN(try PIN("1357"), for: "Boss")
        let directory = try TemporaryDirectory()
        let grants = StaffGrants(directory: directory.path + "/grants", store: "/tmp/shop.sqlite")
        let now = fixture.clock.now
        let boss = try await fixture.shop.staff.account(named: "Boss")
        // An insider reads Boss's hash from the store and writes a grant for a PIN of their own choosing.
        let record = try #require(try await fixture.base.allRecords(in: "User").first { $0.fields["name"]?.stringValue == "Boss" })
        let stored = try #require(record.fields["pinHash"]?.stringValue)
        try FileManager.default.createDirectory(atPath: grants.directory, withIntermediateDirectories: true)
        let chosen = try PINHasher(iterations: 1_000).hash("0000")
        let file = grants.path(for: "Boss")
        for forged in ["\(now.timeIntervalSince1970 + 200)\t\(stored)\t\(chosen)\n",
                       "\(now.timeIntervalSince1970 + 200)\t\(stored)\t\(chosen)\t\(String(repeating: "0", count: 64))\n"] {
            try forged.write(toFile: file, atomically: true, encoding: .utf8)
            #expect(grants.check(try PIN("0000"), for: boss, at: now) == .forged)
            try forged.write(toFile: file, atomically: true, encoding: .utf8)
            await #expect(throws: TillError.self) { try await fixture.shop.staff.verify(try PIN("0000"), for: "Boss", at: now, grants: grants) }
            #expect(!FileManager.default.fileExists(atPath: file), "a forged grant is removed")
        }
        #expect(try await fixture.shop.staff.account(named: "Boss").attempts.failures == 2)
        // A grant this user made holds; one changed afterwards (its time pushed on) is refused and counted too.
        _ = try await fixture.shop.staff.verify(try PIN("1357"), for: "Boss", at: now, grants: grants)
        let key = try FileManager.default.attributesOfItem(atPath: grants.keyPath)[.posixPermissions] as? Int
        #expect(key == 0o600)
        #expect(grants.check(try PIN("1357"), for: try await fixture.shop.staff.account(named: "Boss"), at: now) == .proven)
        let made = try String(contentsOfFile: file, encoding: .utf8)
        let later = made.split(separator: "\t", omittingEmptySubsequences: false)
        try ([String(now.timeIntervalSince1970 + 250)] + later.dropFirst().map(String.init)).joined(separator: "\t")
            .write(toFile: file, atomically: true, encoding: .utf8)
        await #expect(throws: TillError.self) { try await fixture.shop.staff.verify(try PIN("1357"), for: "Boss", at: now, grants: grants) }
        #expect(try await fixture.shop.staff.account(named: "Boss").attempts.failures == 1)
    }
}
