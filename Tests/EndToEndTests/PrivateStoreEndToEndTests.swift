import Foundation
import Glibc
import Testing

/// A store holds PIN hashes and customers' numbers: the files drinkshop makes are its user's alone.
@Suite(.clearOfShopMidnight) struct PrivateStoreEndToEndTests {
    private func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }

    @Test func aNewStoreAndItsFoldersArePrivateAndAnOlderOpenStoreIsNamedOnce() async throws {
        let shop = try Drinkshop()
        let store = shop.directory + "/new/counter/shop.sqlite"
        let made = try await Drinkshop.run(["init", "--db", store], directory: shop.directory, storePath: nil)
        #expect(made.status == 0, "\(made.stderr)")
        let placed = try await Drinkshop.run(["order", "熟成紅茶", "M", "無糖", "去冰"], directory: shop.directory, storePath: store)
        #expect(placed.status == 0, "\(placed.stderr)")
        #expect(try mode(store) == 0o600)
        for side in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: store + side) {
            #expect(try mode(store + side) == 0o600, "\(side)")
        }
        #expect(try mode(shop.directory + "/new/counter") == 0o700)
        #expect(try mode(shop.directory + "/new") == 0o700)
        #expect(!placed.stderr.contains("other users"))
        // A store an earlier version made readable by everyone: said in one line, left as it is.
        _ = chmod(store, 0o644)
        let listed = try await Drinkshop.run(["orders"], directory: shop.directory, storePath: store)
        let warnings = listed.stderr.split(separator: "\n").filter { $0.contains("can be read by other users") }
        #expect(warnings.count == 1 && warnings.first?.contains("chmod 600 \(store)") == true, "\(listed.stderr)")
        #expect(try mode(store) == 0o644)
    }
}
