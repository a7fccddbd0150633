@testable import DrinkShop
import Foundation
import Printing
@testable import ShopREPL
import TestSupport
import Testing

/// Cup stickers and receipts for orders placed through the shop, as the printer receives them.
@Suite(.timeLimit(.minutes(3))) struct PrintingAtTheCounterTests {
    private func labelPrinter(_ port: Int) throws -> ShopPrinters {
        ShopPrinters(label: try PrinterSink(setting: "tcp://127.0.0.1:\(port)"))
    }

    @Test func aPlacedOrderPrintsOneWellFormedStickerPerCupOnTheLabelPrinter() async throws {
        let printer = try FakePrinter()
        defer { printer.stop() }
        let counter = try await Counter(printers: try labelPrinter(printer.port))
        #expect(await counter.run("order 白玉歐蕾 大杯 半糖 少冰 加白玉 x2 note \"分開裝\", 熟成紅茶 中杯 無糖 去冰 for 王小明")
            == [.succeeded])
        let job = await printer.nextJob()
        let lines = TSPL.lines(job)
        #expect(lines.prefix(3) == ["SIZE 50 mm,40 mm", "GAP 2 mm,0 mm", "DIRECTION 1"])
        #expect(lines.filter { $0 == "CLS" }.count == 3)
        #expect(lines.filter { $0 == "PRINT 1,1" }.count == 3)
        let texts = lines.compactMap(TSPL.text)
        #expect(texts.filter { $0.hasPrefix("1") && $0.hasSuffix("/3") }.count == 3)
        #expect(texts.contains { $0.hasSuffix("1/3") } && texts.contains { $0.hasSuffix("3/3") })
        #expect(texts.filter { $0 == "白玉歐蕾" }.count == 2)
        #expect(texts.contains("熟成紅茶"))
        #expect(texts.contains("大杯 半糖 少冰"))
        #expect(texts.contains("中杯 無糖 去冰"))
        #expect(texts.contains("備註 分開裝"))
        #expect(texts.filter { $0 == "+白玉" }.count == 2)
        #expect(texts.contains { $0.hasPrefix("王○明") })
        #expect(!texts.joined().contains("王小明"))
        #expect(counter.output.text.contains("Printed 3 cup labels on tcp://127.0.0.1:\(printer.port)"))
        #expect(counter.output.errors.isEmpty)
    }

    @Test func aPrinterThatIsOffNeverLosesTheOrderAndLabelPrintsItLater() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("labels-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("printer").path
        // A printer whose device is not there yet (unplugged), then plugged in.
        let counter = try await Counter(printers: ShopPrinters(label: try PrinterSink(setting: "file:" + path)))
        #expect(await counter.run("order 熟成紅茶 大杯 半糖 少冰 x2 for Amy") == [.succeeded])
        #expect(counter.output.text.contains("取餐號 #1"))
        let warning = counter.output.errors
        #expect(warning.contains("the label printer did not print"))
        #expect(warning.contains("print it later with: label #1"))
        #expect(warning.contains("(the order is placed)"))
        #expect(warning.split(separator: "\n").count == 1)
        await counter.run("orders")
        #expect(counter.output.text.contains("Amy"))

        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(await counter.run("label #1 2") == [.succeeded])
        let texts = TSPL.lines(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).compactMap(TSPL.text)
        #expect(texts.contains { $0.hasPrefix("1") && $0.hasSuffix("2/2") })
        #expect(!texts.contains { $0.hasSuffix("1/2") })
        #expect(counter.output.text.contains("Printed 1 cup label of #1"))
    }

    @Test func aRefusingNetworkPrinterIsOneLineAndTheOrderStands() async throws {
        let counter = try await Counter(printers: try labelPrinter(closedPort()))
        #expect(await counter.run("order 熟成紅茶 大杯 半糖 少冰") == [.succeeded])
        #expect(counter.output.errors.contains("refused the connection"))
        #expect(await counter.run("advance #1") == [.succeeded])
        #expect(await counter.run("label #1") == [.failed])
        #expect(counter.output.errors.contains("print it later with: label #1\n"))
    }

    @Test func aNameBig5CannotPrintIsSaidVisibly() async throws {
        let printer = try FakePrinter()
        defer { printer.stop() }
        let counter = try await Counter(printers: try labelPrinter(printer.port))
        await counter.run("order 熟成紅茶 大杯 半糖 少冰 for 堃")
        let texts = TSPL.lines(await printer.nextJob()).compactMap(TSPL.text)
        #expect(texts.contains { $0.hasPrefix("?") })
        #expect(counter.output.errors.contains("warning: the printer cannot print 堃 (printed as ?)"))
        await counter.run("label #1 --preview")
        #expect(counter.output.text.contains("warning: the printer cannot print 堃 (printed as ?)"))
    }

    @Test func previewsShowTheStickerAndReceiptWithoutAnyPrinter() async throws {
        let counter = try await Counter()
        await counter.run("order 白玉歐蕾 大杯 半糖 少冰 x2 for Amy")
        #expect(counter.output.errors.isEmpty)  // no label printer: nothing to say
        #expect(await counter.run("label #1 2 --preview", "receipt #1 --preview") == [.succeeded, .succeeded])
        let text = counter.output.text
        #expect(text.contains("2 / 2"))
        #expect(!text.contains("1 / 2"))
        #expect(text.contains("A***y"))
        #expect(text.contains("白玉歐蕾 x2"))
        #expect(text.contains("第二杯半價"))
        #expect(text.contains("-NT$35"))
        #expect(await counter.run("label #1 3 --preview") == [.failed])
        #expect(counter.output.errors.contains("order #1 has 2 cups, so there is no cup 3"))
        #expect(await counter.run("receipt #1") == [.failed])
        #expect(counter.output.errors.contains("no receipt printer is set up; a manager sets one for every counter with: printer receipt"))
        #expect(await counter.run("receipt #9 --preview") == [.failed])
        #expect(counter.output.errors.contains("there is no order #9 today"))
    }

    @Test func aReceiptReachesTheReceiptPrinterAsESCPOSInBig5() async throws {
        let printer = try FakePrinter()
        defer { printer.stop() }
        let counter = try await Counter(printers: ShopPrinters(receipt: try PrinterSink(setting: "tcp://127.0.0.1:\(printer.port)")))
        await counter.run("order 白玉歐蕾 大杯 半糖 少冰 x2 for Amy")
        #expect(await counter.run("receipt #1") == [.succeeded])
        let bytes = await printer.nextJob()
        #expect(Array(bytes.prefix(4)) == [0x1B, 0x40, 0x1C, 0x26])  // initialise, Chinese mode
        let text = try #require(Big5.decode(bytes.filter { $0 >= 0x20 || $0 == 0x0A }))
        #expect(text.contains("白玉歐蕾 x2"))
        #expect(text.contains("第二杯半價"))
        #expect(text.contains("NT$105"))
        #expect(!text.contains("Amy"))
    }

    @Test func theTillAddsPaymentsAdjustmentsAndInvoiceThroughReceiptFacts() async throws {
        let counter = try await Counter()
        await counter.run("order 白玉歐蕾 大杯 半糖 少冰 x2 for Amy")
        let facts = ReceiptFacts(adjustments: [.init(label: "環保杯", amount: -5)], payments: [.init(method: "現金", amount: 200)],
                                 change: 100, invoiceLines: ["發票 AB-12345678"])
        let receipt = try await counter.interpreter.shop.printing.receipt(.pickup(1), facts: facts)
        #expect(receipt.total == 100)
        #expect(receipt.adjustments.map(\.label) == ["第二杯半價", "環保杯"])
        #expect(receipt.payments.first?.amount == 200 && receipt.change == 100)
        #expect(receipt.invoiceLines == ["發票 AB-12345678"])
        #expect(receipt.pickupNumber == "1")
    }
}

@Suite struct PrinterSettingTests {
    @Test func aPrinterSetAtTheCounterIsKeptInTheStoreForEveryCounterAndUsedAtOnce() async throws {
        let printer = try FakePrinter()
        defer { printer.stop() }
        let counter = try await Counter()
        #expect(await counter.run("printer") == [.succeeded])
        #expect(counter.output.text.contains("label printer: none"))
        // A wrong address is refused and nothing is written.
        #expect(await counter.run("printer label lpt:1") == [.failed])
        #expect(try await counter.interpreter.shop.settings.stored()["labelPrinter"] == nil)

        #expect(await counter.run("printer label tcp://127.0.0.1:\(printer.port)") == [.succeeded])
        #expect(try await counter.interpreter.shop.settings.stored()["labelPrinter"] == "tcp://127.0.0.1:\(printer.port)")
        #expect(await counter.run("order 熟成紅茶 中杯 無糖 去冰 for Amy") == [.succeeded])
        #expect(TSPL.lines(await printer.nextJob()).contains("PRINT 1,1"))
        // Another counter opening the store reads the same setting.
        let stored = try await counter.interpreter.shop.settings.stored()
        let other = try ShopPrinters.configured(environment: [:], fallback: PrinterRole.settings(stored))
        #expect(other.label != nil && other.receipt == nil)

        #expect(await counter.run("printer label none") == [.succeeded])
        #expect(counter.interpreter.shop.printing.printers.label == nil)
        let entries = try await counter.interpreter.shop.audit.entries(fromDay: "2026-11-29", throughDay: "2026-11-29")
        #expect(entries.filter { $0.subject == "labelPrinter" }.count == 2)
    }

    @Test func aBadAddressIsRefusedNamingWhereItCameFrom() {
        for bad in ["http://printer", "tcp://", "tcp://host:99999", "lpt:1"] {
            #expect(throws: PrintingError.self) {
                try ShopPrinters.configured(environment: ["DRINKSHOP_LABEL_PRINTER": bad])
            }
        }
        do {
            _ = try ShopPrinters.configured(environment: ["DRINKSHOP_RECEIPT_PRINTER": "usb://x"])
            Issue.record("usb:// was accepted")
        } catch {
            #expect(error.description.hasPrefix("DRINKSHOP_RECEIPT_PRINTER: printer address 'usb://x'"))
        }
    }

    @Test func theEnvironmentOverridesTheStoreSettingAndEmptyMeansNone() throws {
        let fromStore = try ShopPrinters.configured(environment: [:], fallback: [.label: "tcp://10.0.0.5"])
        #expect(fromStore.label?.address == .network(host: "10.0.0.5", port: 9100))
        #expect(fromStore.receipt == nil)
        let overridden = try ShopPrinters.configured(environment: ["DRINKSHOP_LABEL_PRINTER": "/tmp/labels"],
                                                     fallback: [.label: "tcp://10.0.0.5"])
        #expect(overridden.label?.address == .file(path: "/tmp/labels"))
        let none = try ShopPrinters.configured(environment: ["DRINKSHOP_LABEL_PRINTER": ""], fallback: [.label: "tcp://10.0.0.5"])
        #expect(none.label == nil)
    }
}

/// Reading TSPL jobs: lines end in CR LF, text is Big5.
enum TSPL {
    static func lines(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var current: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                lines.append(Big5.decode(current) ?? "<not Big5>")
                current = []
                index += 2
                continue
            }
            current.append(bytes[index])
            index += 1
        }
        if !current.isEmpty { lines.append(Big5.decode(current) ?? "<not Big5>") }
        return lines
    }

    /// The string of a `TEXT x,y,"font",rotation,xm,ym,"content"` command.
    static func text(_ line: String) -> String? {
        guard line.hasPrefix("TEXT ") else { return nil }
        let parts = line.dropFirst(5).split(separator: ",", maxSplits: 6)
        guard parts.count == 7, parts[6].hasPrefix("\""), parts[6].hasSuffix("\"") else { return nil }
        return String(parts[6].dropFirst().dropLast())
    }
}
