import Foundation
import Testing

/// The counter is the only door: every change to the shop goes through `Shop.counter`, whose rules decide who
/// may and whether the order's money allows it. The compiler holds it (a service's writes are internal to
/// the DrinkShop module, so a front's module cannot call them); this suite holds the compiler to it, by
/// reading the sources: a service may show the fronts only what it reads, and a front may not import the
/// shop module `@testable` (the one way around access control).
@Suite struct OneDoorTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What each service shows the fronts: reads (and printing, which changes no record). A new public
    /// function here is a decision: a read goes on this list; a write goes through `Counter` instead.
    static let queryFace: [String: Set<String>] = [
        "Archive/DayArchive.swift": ["days"],
        "Audit/AuditTrail.swift": ["entries"],
        "Backups/StoreFacts.swift": ["storeFacts", "resumeAfterRestore"],
        "Catalog/Catalog.swift": ["banners", "menu", "menuJSON", "problems", "promotions"],
        "Invoices/InvoiceDesk.swift": ["invoices", "setup"],
        "Invoices/InvoiceDesk+Tracks.swift": ["tracks"],
        "Invoices/IssuedInvoice.swift": ["invoice"],
        // Whether a kept invoice nears the upload limit: arithmetic on a value the counter gave.
        "Invoices/InvoiceDesk+Files.swift": ["nearsLimit"],
        "Orders/OrderDesk.swift": ["lastKnownToday", "priced", "today", "todaysJSON"],
        "Orders/OrderLookup.swift": ["days", "find", "orders", "ordersJSON"],
        "Orders/OrderQueue.swift": ["makeLine", "pickupTickets"],
        "Orders/UnsentOrders.swift": ["number"],
        "Outbox/Outbox.swift": ["count", "prepare"],
        "Printouts/PrintDesk.swift": ["labelPreview", "labels", "printLabels", "printProof", "printReceipt", "receipt", "receiptPreview"],
        "Printouts/ShopPrinters.swift": ["sink"],
        "Reports/PeriodByDay.swift": ["eachDay", "export"],
        "Reports/SalesAndTillReport.swift": ["salesAndReport"],
        "Settings/ShopSettings.swift": ["archivesClosedDays", "onlineOrderingOpen", "stored"],
        "Shop.swift": ["createMissingSchema", "missingSchema", "prepareLookups"],
        "ShopClock.swift": ["bounds", "businessDay", "dayBounds"],
        "Till/Books.swift": ["check"],
        "Till/Drawer.swift": ["counts", "current", "expected", "isDayClosed"],
        "Till/Members.swift": ["member", "program"],
        "Till/OrderExtras.swift": ["adjustments", "charges", "extra", "extras"],
        "Till/Till.swift": ["ledgerMoney", "money", "moneyForChange"],
        "Till/TillReceipts.swift": ["receiptFacts"],
        "Till/TillReports.swift": ["export", "orders", "period", "report", "tillOrders"],
        "Users/StaffAccounts.swift": ["account", "accounts", "pinsEnabled", "pinsEnabledLately"],
        // A PIN grant is this machine's file, not the shop's: the front that proved the PIN keeps it.
        "Users/StaffGrants.swift": ["check", "end", "grant", "holds", "path"],
    ]

    static func swiftFiles(under folder: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
    }

    static func publicFunctions(in text: String) -> Set<String> {
        var names: Set<String> = []
        for line in text.split(separator: "\n") {
            guard let range = line.range(of: "public func ") else { continue }
            names.insert(String(line[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
        }
        return names
    }

    @Test("a service shows the fronts only its reads: every change goes through Shop.counter")
    func servicesShowOnlyReads() throws {
        let module = Self.root.appendingPathComponent("Sources/DrinkShop")
        var found: [String] = []
        var checked = 0
        for file in Self.swiftFiles(under: module) {
            let relative = String(file.path.dropFirst(module.path.count + 1))
            guard !relative.hasPrefix("Counter/") else { continue }  // the door itself
            let names = Self.publicFunctions(in: try String(contentsOf: file, encoding: .utf8))
            guard !names.isEmpty else { continue }
            checked += 1
            let allowed = Self.queryFace[relative] ?? []
            for name in names.subtracting(allowed).sorted() {
                found.append("\(relative): public func \(name) is not on the query face")
            }
        }
        #expect(checked >= 20, "the services were not found under \(module.path)")
        let message = "a service's write must be internal; give the fronts a Counter method instead:\n"
            + found.joined(separator: "\n")
        #expect(found.isEmpty, Comment(rawValue: message))
    }

    @Test("no front imports the shop module @testable (the way around the counter)")
    func noFrontReachesInside() throws {
        var found: [String] = []
        for folder in ["ShopREPL", "DrinkShopCLI", "OrderPage", "AirtableServer", "PickupDisplay", "DrinkShopBench"] {
            for file in Self.swiftFiles(under: Self.root.appendingPathComponent("Sources/\(folder)")) {
                let text = try String(contentsOf: file, encoding: .utf8)
                if text.contains("@testable import") { found.append("\(folder)/\(file.lastPathComponent)") }
            }
        }
        #expect(found.isEmpty, "fronts importing a module @testable: \(found)")
    }

    @Test("the check sees a public write: a service file with one is named")
    func theCheckCanFail() {
        let names = Self.publicFunctions(in: """
            struct Drawer {
                public func current() async throws -> Shift? { nil }
                public func close(counted: Int) async throws {}
            }
            """)
        #expect(names.subtracting(Self.queryFace["Till/Drawer.swift"] ?? []) == ["close"])
    }
}
