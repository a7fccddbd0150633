import Airtable
import AirtableFormula
import Foundation
import LocalBase
import Synchronization
import Testing
import TestSupport

/// A unique file path in the temporary directory, for tests that run in parallel.
func temporaryBasePath() -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("LocalBaseTests", isDirectory: true)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("base-\(UUID().uuidString).sqlite").path
}

/// Removes a base file and its WAL companions.
func removeBase(at path: String) {
    for suffix in ["", "-wal", "-shm", ".setup-lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

/// The API error `body` throws, or nil if it throws none (or another kind of error).
func apiError<T>(_ body: () async throws -> T) async -> APIError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return (error as? AirtableError)?.apiError
    }
}

/// The fields of the "Orders" table the tests share: one of every cell type the base knows.
let orderFields: [FieldSpec] = [
    FieldSpec(name: "name", type: .singleLineText),
    FieldSpec(name: "notes", type: .multilineText),
    FieldSpec(name: "qty", type: .number, options: ["precision": 0]),
    FieldSpec(name: "price", type: .currency, options: ["symbol": "NT$", "precision": 0]),
    FieldSpec(name: "discount", type: .percent, options: ["precision": 0]),
    FieldSpec(name: "stars", type: .rating, options: ["max": 5]),
    FieldSpec(name: "prep", type: .duration, options: ["durationFormat": "h:mm"]),
    FieldSpec(name: "paid", type: .checkbox),
    FieldSpec.singleSelect("size", ["中杯", "大杯"]),
    FieldSpec.multipleSelects("addOns", ["加白玉", "加水玉", "加菓玉"]),
    FieldSpec(name: "day", type: .date, options: ["dateFormat": ["name": "iso"]]),
    FieldSpec(name: "pickedUpAt", type: .dateTime, options: ["timeZone": "Asia/Taipei"]),
    FieldSpec(name: "photo", type: .multipleAttachments),
    FieldSpec(name: "email", type: .email),
    FieldSpec(name: "site", type: .url),
    FieldSpec(name: "phone", type: .phoneNumber),
    FieldSpec(name: "number", type: .autoNumber),
    FieldSpec(name: "created", type: .createdTime),
    FieldSpec(name: "modified", type: .lastModifiedTime),
]

/// An in-memory base with the Orders table and a hand-moved clock.
func makeOrdersBase(clock: TestClock = TestClock(), iteratorLifetime: Duration = .seconds(600))
    async throws -> (LocalBase, TableSchema)
{
    let base = try LocalBase.inMemory(clock: clock.date, iteratorLifetime: iteratorLifetime)
    let table = try await base.createTable(TableSpec(name: "Orders", fields: orderFields))
    return (base, table)
}
