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
        ("lpt:", "'lpt:' is not a printer connection"),
        ("http://printer:80", "'http:' is not a printer connection"),
        ("tcp://", "names no host"),
        ("tcp://:9100", "names no host"),
        ("tcp://printer:abc", "port 'abc' is not a number"),
        ("tcp://printer:70000", "port '70000'"),
        ("tcp://printer:9100/queue", "no path"),
        ("", "empty"),
    ])
    func refused(text: String, message: String) {
        #expect {
            _ = try PrinterAddress(parsing: text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}

// No timed assertions: a send that hung would run into the suite's time limit; the error kind
// (refused, timed out at connect or write) shows the failure was detected, not waited out.
@Suite(.timeLimit(.minutes(1))) struct PrinterSinkTests {
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
            (error as? PrinterError) == .refused(address: "tcp://127.0.0.1:\(port)")
                && "\(error)".contains("refused the connection")
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
            guard case .timedOut(_, "write", _)? = error as? PrinterError else { return false }
            return "\(error)".contains("stopped taking data")
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
        await #expect {
            try await PrinterSink(setting: "/dev/no-such-printer-\(UUID().uuidString)").send([0x41])
        } throws: { error in
            "\(error)".contains("cannot open the printer /dev/no-such-printer")
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct PrinterConnectTimeoutTests {
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
