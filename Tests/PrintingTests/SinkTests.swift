import TestSupport
import Foundation
import Testing
@testable import Printing

@Suite struct PrinterAddressTests {
    @Test(arguments: [
        ("tcp://192.168.1.50:9100", PrinterAddress.network(host: "192.168.1.50", port: 9100)),
        ("tcp://printer.local", .network(host: "printer.local", port: 9100)),
        ("tcp://[::1]:9101", .network(host: "::1", port: 9101)),
        ("/dev/usb/lp0", .device(path: "/dev/usb/lp0")),
        ("/tmp/labels.tspl", .file(path: "/tmp/labels.tspl")),
        ("file:labels.out", .file(path: "labels.out")),
        ("./out/receipts.bin", .file(path: "./out/receipts.bin")),
    ])
    func accepted(text: String, expected: PrinterAddress) throws {
        #expect(try PrinterAddress(parsing: text) == expected)
    }

    @Test(arguments: [
        ("lpt:", PrinterAddressError.unsupportedScheme("lpt", "lpt:")),
        ("http://printer:80", .unsupportedScheme("http", "http://printer:80")),
        ("tcp://", .missingHost("tcp://")),
        ("tcp://:9100", .missingHost("tcp://:9100")),
        ("tcp://printer:abc", .invalidPort("abc", "tcp://printer:abc")),
        ("tcp://printer:70000", .invalidPort("70000", "tcp://printer:70000")),
        ("tcp://printer:9100/queue", .unexpectedPath("tcp://printer:9100/queue")),
        ("", .empty),
    ])
    func refused(text: String, expected: PrinterAddressError) {
        #expect(throws: expected) {
            _ = try PrinterAddress(parsing: text)
        }
    }
}

// No timed assertions: a send that hung would run into the suite's time limit; the error kind
// (refused, timed out at connect or write) shows the failure was detected, not waited out.
@Suite(.timeLimit(.minutes(3))) struct PrinterSinkTests {
    @Test func aFakeNetworkPrinterReceivesTheWholeJob() async throws {
        let printer = try FakePrinter()
        defer { printer.stop() }
        let job = TSPLFormatter(timeZone: Samples.taipei).format([Samples.label()])
        try await PrinterSink(setting: "tcp://127.0.0.1:\(printer.port)").send(job.bytes)
        let received = await printer.nextJob()
        #expect(received == job.bytes)
        let contents = tsplLines(received).compactMap(textContent).map(\.content)
        #expect(contents.contains("熟成紅茶"))
    }

    @Test func aReceiptReachesTheFakePrinterIntact() async throws {
        let printer = try FakePrinter()
        defer { printer.stop() }
        let job = ESCPOSFormatter(timeZone: Samples.taipei).format(Samples.receipt)
        try await PrinterSink(setting: "tcp://127.0.0.1:\(printer.port)").send(job.bytes)
        #expect(await printer.nextJob() == job.bytes)
    }

    @Test func aPrinterThatIsOffFailsAtOnceWithAClearError() async throws {
        let port = closedPort()
        await #expect {
            try await PrinterSink(setting: "tcp://127.0.0.1:\(port)").send([0x41])
        } throws: { error in
            // The words staff read at the counter, whole.
            (error as? PrinterError) == .refused(address: "tcp://127.0.0.1:\(port)")
                && "\(error)" == "the printer at tcp://127.0.0.1:\(port) refused the connection; is it switched on and is the port right?"
        }
    }

    @Test func aJammedPrinterTimesOutInsteadOfHanging() async throws {
        let printer = try FakePrinter(reads: false)
        defer { printer.stop() }
        let sink = PrinterSink(
            address: .network(host: "127.0.0.1", port: printer.port), writeTimeout: .milliseconds(300))
        let big = [UInt8](repeating: 0x41, count: 64 << 20)  // more than any socket buffer holds
        await #expect {
            try await sink.send(big)
        } throws: { error in
            guard case .timedOut(let address, "write", 0.3)? = error as? PrinterError else { return false }
            return "\(error)" == "the printer at \(address) stopped taking data for 0.3 s (out of paper or jammed?)"
        }
    }

    @Test func aFileSinkAppendsJobs() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("labels-\(UUID().uuidString).tspl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = try PrinterSink(setting: path)
        try await sink.send(Array("one\r\n".utf8))
        try await sink.send(Array("two\r\n".utf8))
        #expect(FileManager.default.contents(atPath: path) == Data("one\r\ntwo\r\n".utf8))
    }

    @Test func aMissingDeviceIsAClearError() async {
        let device = "/dev/no-such-printer-\(UUID().uuidString)"
        await #expect {
            try await PrinterSink(setting: device).send([0x41])
        } throws: { error in
            guard case .cannotOpen(device, let reason)? = error as? PrinterError else { return false }
            return "\(error)" == "cannot open the printer \(device): \(reason)"
        }
    }
}

@Suite(.timeLimit(.minutes(3))) struct PrinterConnectTimeoutTests {
    @Test func aPrinterThatNeverAnswersTheConnectionTimesOutQuickly() async throws {
        let listener = HungListener()
        let sink = PrinterSink(
            address: .network(host: "127.0.0.1", port: listener.port), connectTimeout: .milliseconds(300),
            writeTimeout: .milliseconds(300))
        // The first attempts fill the listener's queue; a later one is never answered.
        var outcome: PrinterError?
        for _ in 0..<6 where outcome == nil {
            do { try await sink.send([0x41]) } catch { outcome = error }
        }
        #expect(outcome == .timedOut(address: "tcp://127.0.0.1:\(listener.port)", stage: "connect", seconds: 0.3))
        #expect(outcome.map { "\($0)" }?.contains("did not answer within 0.3 s") == true)
    }
}
