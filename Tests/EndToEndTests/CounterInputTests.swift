import Foundation
import Testing
import TestSupport

/// Runs the built binary off the cooperative pool (TestSupport's ChildProcess) and returns its result.
func runDrinkshop(_ arguments: [String], input: Data? = nil, environment: [String: String],
                  executable: String = Drinkshop.binary) async -> Drinkshop.Result {
    do {
        let finished = try await ChildProcess.run(executable, arguments, environment: environment,
                                                  input: input.map { String(decoding: $0, as: UTF8.self) })
        return Drinkshop.Result(status: finished.status, stdout: finished.stdout, stderr: finished.stderr)
    } catch {
        return Drinkshop.Result(status: -1, stdout: "", stderr: "\(error)")
    }
}

/// A temporary folder for one test's store, and the environment the binary runs in.
struct CounterFolder {
    let directory = NSTemporaryDirectory() + "drinkshop-counter-" + UUID().uuidString
    var database: String { directory + "/shop.sqlite" }
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "DRINKSHOP_SEEDS": Drinkshop.seeds,
                           "DRINKSHOP_STAFF": "Ken", "TZ": "Asia/Taipei", "XDG_STATE_HOME": directory + "/state",
                           "XDG_DATA_HOME": directory + "/data"]
        environment.merge(extra) { $1 }
        return environment
    }
    func make() throws { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

@Suite(.clearOfShopMidnight) struct CounterInputTests {
    @Test func aPipedFileWithAByteOrderMarkAndFullWidthWordsTakesEveryOrder() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let lines = "\u{FEFF}order 熟成紅茶　Ｍ　少冰 無糖 ２杯 for Amy\norder 白玉歐蕾 Ｌ 半糖 去冰 for Ben\norders --json\n"
        let result = await runDrinkshop(["--db", folder.database, "--create"], input: Data(lines.utf8),
                                        environment: folder.environment())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("取餐號 #1") && result.stdout.contains("取餐號 #2"))
        #expect(result.stdout.contains("\"orderName\":\"Amy\""))
        #expect(result.stdout.contains("\"numberOfCups\":2"))
    }

    @Test func aOneShotOrderWithFullWidthSpacesInsideOneArgument() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let result = await runDrinkshop(["--db", folder.database, "--create", "order", "熟成紅茶　Ｌ　半糖　去冰", "ｘ２", "for", "Amy"],
                                        environment: folder.environment())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("大杯•去冰•半糖"))
    }

    @Test func aHugeLineIsRefusedAndTheNextLineStillRuns() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let input = "order " + String(repeating: "熟", count: 200_000) + " L\norder 熟成紅茶 M 無糖 少冰\n"
        let result = await runDrinkshop(["--db", folder.database, "--create"], input: Data(input.utf8),
                                        environment: folder.environment())
        #expect(result.status == 1)
        #expect(result.stderr.contains("too long"))
        #expect(result.stderr.count < 1_000)
        #expect(result.stdout.contains("取餐號 #1"))
    }

    @Test func aSeedFileWithAByteOrderMarkAndAFullWidthCategoryLoads() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let seed = folder.directory + "/winter.json"
        let json = "\u{FEFF}" + #"{"records":[{"fields":{"name":"冬瓜檸檬","category":"Ｓｅａｓｏｎａｌ","medium":45,"large":55,"image":[{"url":"https://example.invalid/w.png"}]}}]}"#
        try json.write(toFile: seed, atomically: true, encoding: .utf8)
        let result = await runDrinkshop(["--db", folder.database, "--create", "seed", seed], environment: folder.environment())
        #expect(result.status == 0, "\(result.stderr)")
        let menu = await runDrinkshop(["--db", folder.database, "menu", "冬瓜"], environment: folder.environment())
        #expect(menu.stdout.contains("冬瓜檸檬"))
    }
}
