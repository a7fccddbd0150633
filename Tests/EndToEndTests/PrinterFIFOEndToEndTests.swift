import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// `DRINKSHOP_LABEL_PRINTER=` a FIFO that no program reads: the built binary places the order, says the
/// printer failure once and ends; a piped REPL runs its next lines; once a reader is there, `label #1`
/// prints. Each run is bounded by `timeout -s KILL 20`, so a hang fails the test (status 137) instead of
/// holding the suite.
@Suite(.timeLimit(.minutes(3)), .clearOfShopMidnight) struct PrinterFIFOEndToEndTests {
    private func bounded(_ shop: borrowing Drinkshop, _ arguments: [String], input: String? = nil,
                         printer: String) async throws -> ChildProcess.Result {
        let environment = ["PATH": "/usr/bin:/bin", "HOME": shop.directory, "DRINKSHOP_SEEDS": Drinkshop.seeds,
                           "DRINKSHOP_STAFF": "Ken", "TZ": "Asia/Taipei", "XDG_STATE_HOME": shop.directory + "/state",
                           "DRINKSHOP_LABEL_PRINTER": printer, "NO_COLOR": "1"]
        return try await ChildProcess.run("/usr/bin/timeout", ["-s", "KILL", "20", Drinkshop.binary,
                                                               "--db", shop.database, "--create"] + arguments,
                                          environment: environment, input: input)
    }

    @Test func aLabelPrinterFIFOWithoutAReaderHoldsNeitherTheOrderNorTheCounter() async throws {
        let shop = try Drinkshop()
        let fifo = shop.directory + "/labels.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)

        let one = try await bounded(shop, ["order", "熟成紅茶", "大杯", "半糖", "少冰", "for", "Fifo"], printer: fifo)
        let said = one.stdout + one.stderr
        #expect(one.status == 0, "\(said)")
        #expect(said.components(separatedBy: "the label printer did not print").count == 2, "said once: \(said)")
        #expect(said.contains("label #1"), "\(said)")

        let piped = try await bounded(shop, [], input: "order 熟成紅茶 中杯 無糖 去冰 for Pipe\norders\n", printer: fifo)
        #expect(piped.status == 0, "\(piped.stdout) \(piped.stderr)")
        #expect(piped.stdout.contains("Pipe") && piped.stdout.contains("Fifo"), "\(piped.stdout)")

        // A reader at last (a thread of its own, blocking in open and read): the sticker prints on request.
        let received = Mutex<Int?>(nil)
        let reader = Thread {
            let fd = open(fifo, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            defer { close(fd) }
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                total += count
            }
            received.withLock { $0 = total }
        }
        reader.start()
        let later = try await bounded(shop, ["label", "#1"], printer: fifo)
        #expect(later.status == 0, "\(later.stdout) \(later.stderr)")
        #expect(later.stdout.contains("Printed"), "\(later.stdout)")
        for _ in 0..<500 where received.withLock({ $0 == nil }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect((received.withLock { $0 } ?? 0) > 0)
    }
}
