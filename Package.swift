// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // The release build (--static-swift-stdlib) compiles every module against the static FoundationNetworking, whose
    // module names libcurl for linking in every module that imports it, however indirectly (Airtable's client, then
    // all above it). libcurl is CurlOnDemand's to load on the first request, not a start-time dependency: no module
    // names it.
    .unsafeFlags(["-Xfrontend", "-disable-autolink-library", "-Xfrontend", "curl"], .when(configuration: .release)),
]

// Linux only (glibc): the sockets, terminals, signals, iconv and file locks are written against glibc, which
// every file that needs it imports itself, and the release build relies on Linux's static Swift SDK and dlopen.
// No other platform is built or tested, so none is declared.
let package = Package(
    name: "DrinkShop",
    products: [
        .executable(name: "drinkshop", targets: ["DrinkShopCLI"]),
    ],
    targets: [
        // The system SQLite library (libsqlite3-dev on Debian); no package dependency.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // OpenSSL's libcrypto (libssl-dev on Debian) for salted slow PIN hashes; no package dependency.
        .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),

        // One proleptic Gregorian date algorithm (days since 1970 <-> year, month, day) for every module.
        .target(name: "CivilDate", swiftSettings: strict),
        // Text judged one Unicode scalar at a time (hidden scalars, look-alike scripts) for every output encoder.
        .target(name: "TextScalars", swiftSettings: strict),
        // The Airtable record API as three libraries: the record model (JSON, records, schema, errors with
        // Airtable's wording, RecordStore; no networking), its formula language (parser, printer, evaluator,
        // regular expressions), and the URLSession client with its pacing (the only one that imports
        // FoundationNetworking; curl's autolink is off in `strict`'s release settings).
        .target(name: "Airtable", dependencies: ["CivilDate"], swiftSettings: strict),
        .target(name: "AirtableFormula", dependencies: ["Airtable", "CivilDate"], swiftSettings: strict),
        .target(name: "AirtableHTTP", dependencies: ["Airtable", "CivilDate"], swiftSettings: strict),
        // URLSession as the client's transport: the one module that imports FoundationNetworking (libcurl), linked
        // only by the programs (drinkshop, the bench) and the tests that speak HTTP.
        .target(name: "AirtableURLSession", dependencies: ["Airtable", "AirtableHTTP"], swiftSettings: strict),
        // libcurl's functions for the static release executables (drinkshop, DrinkShopBench), loading libcurl.so.4
        // on first use (a start without it skips some thirty libraries); empty in a debug build.
        // glibc's malloc tuning (mallopt), which Swift's Glibc module does not export.
        .target(name: "CAllocator"),
        .target(name: "CurlOnDemand", cSettings: [.define("CURL_ON_DEMAND", .when(configuration: .release))]),
        // An Airtable base stored in SQLite. Knows nothing of drinks.
        .target(name: "LocalBase", dependencies: ["Airtable", "AirtableFormula", "CSQLite"], swiftSettings: strict),
        // HTTP/1.1 on POSIX sockets: a pure parser and a threaded server.
        .target(name: "HTTPServer", dependencies: ["CivilDate", "TextScalars"], swiftSettings: strict),
        // Airtable's REST API served over any RecordStore.
        .target(name: "AirtableServer", dependencies: ["Airtable", "AirtableFormula", "AirtableHTTP", "HTTPServer", "CCrypto"], swiftSettings: strict),
        // Cup labels and receipts: printable values, TSPL/ESC-POS formatters (Big5 via iconv), the text
        // preview, and sinks (file, device, tcp://host:9100). Below the shop; knows no order records.
        .target(name: "Printing", dependencies: ["TextScalars"], swiftSettings: strict),
        // The pickup screen's routes (/display, /display/events) over a PickupBoardSource; no order records.
        // Its script is Scripts/display.js, embedded by scripts/embed-page-scripts (not a resource: see there).
        .target(name: "PickupDisplay", dependencies: ["HTTPServer"], exclude: ["Scripts"], swiftSettings: strict),
        // The shop's domain: pure values and rules.
        .target(name: "DrinkShopCore", dependencies: ["CivilDate", "TextScalars"], swiftSettings: strict),
        // Staff PINs as salted slow hashes (PBKDF2-HMAC-SHA256 via libcrypto), verified in constant time.
        .target(name: "PinHashing", dependencies: ["CCrypto"], swiftSettings: strict),
        // The 統一發票 e-invoice's pure core: periods, tracks and books, amounts, barcode and QR contents, MIG 4.1
        // documents for Turnkey and their atomic files, the printed proof. Knows no store and no counter.
        .target(name: "EInvoice", dependencies: ["DrinkShopCore", "CivilDate", "TextScalars", "Printing", "CCrypto"], swiftSettings: strict),
        // The shop's services on top of a RecordStore.
        .target(name: "DrinkShop", dependencies: ["DrinkShopCore", "Airtable", "AirtableFormula", "Printing", "PinHashing", "EInvoice", "CivilDate"],
                swiftSettings: strict),
        // The customers' ordering page (/order): groups (揪團) in memory, forms, and the customers' front of the
        // shop's use cases (Counter.placeOnline). A front, like ShopREPL.
        // Its scripts are Scripts/*.js, embedded by scripts/embed-page-scripts.
        .target(name: "OrderPage", dependencies: ["HTTPServer", "DrinkShop", "DrinkShopCore", "TextScalars", "CCrypto"],
                exclude: ["Scripts"], swiftSettings: strict),
        // A raw-mode line editor, history, display width and text tables. Knows nothing of drinks.
        .target(name: "LineEditor", dependencies: ["TextScalars"], swiftSettings: strict),
        // Command grammar, interpreter and rendering.
        .target(name: "ShopREPL", dependencies: ["DrinkShop", "DrinkShopCore", "LineEditor", "EInvoice"], swiftSettings: strict),
        // The composition root: argv -> REPL | serve | one-shot command.
        .executableTarget(
            name: "DrinkShopCLI",
            dependencies: ["ShopREPL", "LineEditor", "DrinkShop", "DrinkShopCore", "Airtable", "AirtableFormula", "AirtableHTTP", "AirtableURLSession", "LocalBase", "AirtableServer", "HTTPServer",
                           "PickupDisplay", "OrderPage", "CurlOnDemand", "CAllocator"],
            swiftSettings: strict,
            // The release binary is built with `swift build -c release --static-swift-stdlib` (scripts/release-check,
            // scripts/lib/drinkshop_harness.py): it carries the Swift runtime and Foundation (SQLite and libcrypto
            // stay the system's, and libcurl is loaded by CurlOnDemand on the first request), so a start binds no
            // Swift library's symbols nor maps libcurl's thirty (BENCHMARKS.md §10). That flag compiles every module
            // against the static Foundation too, whose modules name their own archives: none is listed here.
            // Stripped of its symbol table (crash backtraces then show addresses; the dynamic symbols stay).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--strip-all"], .when(configuration: .release))]
        ),

        // Test targets, one per source target (each added with its first tests).
        // Shared by the test suites only: a seeded random generator, the test clock, a child-process runner.
        .target(name: "TestSupport", dependencies: ["Airtable", "AirtableHTTP", "AirtableURLSession", "DrinkShopCore"], path: "Sources/TestSupport", swiftSettings: strict),
        // The Swift side of scripts/bench (not part of the drinkshop product).
        // Static in the release build too (--static-swift-stdlib links every executable so), hence CurlOnDemand.
        .executableTarget(name: "DrinkShopBench", dependencies: ["DrinkShop", "DrinkShopCore", "Airtable", "AirtableFormula", "AirtableHTTP",
                                                                 "AirtableURLSession", "LocalBase", "CurlOnDemand"],
                          swiftSettings: strict),

        .testTarget(name: "CivilDateTests", dependencies: ["CivilDate"], swiftSettings: strict),
        .testTarget(name: "TextScalarsTests", dependencies: ["TextScalars", "HTTPServer", "LineEditor", "Printing", "DrinkShopCore",
                                                            "TestSupport"], swiftSettings: strict),
        .testTarget(name: "AirtableTests", dependencies: ["Airtable", "AirtableFormula", "AirtableHTTP", "AirtableURLSession", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ClientEndToEndTests", dependencies: ["Airtable", "AirtableFormula", "AirtableHTTP", "AirtableURLSession", "AirtableServer", "HTTPServer", "LocalBase", "DrinkShop", "DrinkShopCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "AirtableServerTests", dependencies: ["AirtableServer", "Airtable", "AirtableFormula", "AirtableHTTP", "AirtableURLSession", "LocalBase", "HTTPServer", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "PinHashingTests", dependencies: ["PinHashing", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "DrinkShopCoreTests", dependencies: ["DrinkShopCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ShopREPLTests", dependencies: ["ShopREPL", "LineEditor", "DrinkShop", "DrinkShopCore", "LocalBase", "Airtable", "AirtableFormula", "AirtableHTTP", "AirtableURLSession", "Printing", "TestSupport", "PinHashing"],
                    swiftSettings: strict),
        .testTarget(name: "LineEditorTests", dependencies: ["LineEditor"], swiftSettings: strict),
        .testTarget(name: "LocalBaseTests", dependencies: ["LocalBase", "Airtable", "AirtableFormula", "AirtableHTTP", "AirtableURLSession", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"], swiftSettings: strict),
        // Runs the built `drinkshop` binary (depending on the executable makes `swift test` build it).
        .testTarget(name: "EndToEndTests", dependencies: ["DrinkShopCLI", "DrinkShop", "Airtable", "AirtableServer", "AirtableFormula", "AirtableHTTP", "AirtableURLSession", "LocalBase", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PickupDisplayTests", dependencies: ["PickupDisplay", "HTTPServer"], swiftSettings: strict),
        .testTarget(name: "OrderPageTests", dependencies: ["OrderPage", "HTTPServer", "DrinkShop", "DrinkShopCore", "LocalBase", "Airtable", "AirtableFormula", "AirtableHTTP", "AirtableURLSession",
                                                           "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "EInvoiceTests", dependencies: ["EInvoice", "DrinkShopCore", "CivilDate", "Printing"], swiftSettings: strict),
        .testTarget(name: "PrintingTests", dependencies: ["Printing", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "DrinkShopTests", dependencies: ["DrinkShop", "DrinkShopCore", "LocalBase", "Airtable", "AirtableFormula", "AirtableHTTP", "AirtableURLSession", "TestSupport", "PinHashing", "EInvoice"],
                    swiftSettings: strict),

    ]
)
