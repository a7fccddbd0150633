import Airtable
import AirtableFormula
import Foundation
import LocalBase
import Testing
import TestSupport

@Suite struct CellTests {
    @Test func everyTypeStoresItsValueAndReadsItBack() async throws {
        let clock = TestClock()
        let (base, _) = try await makeOrdersBase(clock: clock)
        let written: Fields = [
            "name": "白玉歐蕾", "notes": "line one\nline two", "qty": 2, "price": 130, "discount": 0.1, "stars": 4,
            "prep": 90, "paid": true, "size": "大杯", "addOns": ["加白玉", "加水玉"], "day": "2026-11-29",
            "pickedUpAt": "2026-11-29T14:30:00.000Z", "email": "amy@example.com", "site": "https://kebuke.com",
            "phone": "02-1234-5678",
        ]
        let created = try await base.createRecord(in: "Orders", written)
        #expect(AirtableID.isValid(created.id, prefix: "rec"))
        #expect(AirtableTimestamp.format(created.createdTime) == AirtableTimestamp.format(clock.now))
        for (name, value) in written { #expect(created.fields[name] == value, "\(name)") }
        #expect(created.fields["number"] == 1)
        #expect(created.fields["created"] == .string(AirtableTimestamp.format(clock.now)))
        #expect(created.fields["modified"] == .string(AirtableTimestamp.format(clock.now)))
        let read = try await base.getRecord(in: "Orders", id: created.id, options: ReadOptions())
        #expect(read == created)
    }

    @Test func createdTimeKeepsMilliseconds() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_795_000_000.987))
        let (base, _) = try await makeOrdersBase(clock: clock)
        let record = try await base.createRecord(in: "Orders", ["name": "x"])
        #expect(AirtableTimestamp.format(record.createdTime).hasSuffix(".987Z"))
    }

    @Test func emptyValuesAreLeftOut() async throws {
        let (base, _) = try await makeOrdersBase()
        let record = try await base.createRecord(in: "Orders", [
            "name": "", "paid": false, "addOns": [], "notes": nil, "photo": [], "qty": 0,
        ])
        #expect(record.fields.keys.sorted() == ["created", "modified", "number", "qty"])
    }

    @Test func wrongTypesAreRefusedNamingTheField() async throws {
        let (base, _) = try await makeOrdersBase()
        let cases: [(Fields, String, String)] = [
            (["name": 12], "name", "text is needed, not a number (12)"),
            (["qty": "two"], "qty", "a number is needed, not a string (\"two\")"),
            (["price": true], "price", "a number is needed"),
            (["paid": "yes"], "paid", "true or false is needed"),
            (["size": ["大杯"]], "size", "text is needed, not an array"),
            (["addOns": "加白玉"], "addOns", "an array of options is needed"),
            (["day": "29/11/2026"], "day", "is not a date of the form YYYY-MM-DD"),
            (["day": "2026-02-30"], "day", "is not a date"),
            (["pickedUpAt": "tomorrow"], "pickedUpAt", "is not an ISO 8601 date and time"),
            (["pickedUpAt": 1_795_000_000], "pickedUpAt", "an ISO 8601 date and time is needed"),
            (["photo": [["filename": "a.png"]]], "photo", "attachment 1 needs a \"url\""),
            (["photo": "https://x.com/a.png"], "photo", "an array of attachments"),
            (["photo": [["url": "not a url"]]], "photo", "http or https address"),
            (["stars": 9], "stars", "a rating is a whole number from 1 to 5"),
            (["email": ["a@b.c"]], "email", "text is needed"),
        ]
        for (fields, field, detail) in cases {
            let error = await apiError { try await base.createRecord(in: "Orders", fields) }
            #expect(error?.type == "INVALID_VALUE_FOR_COLUMN", "\(fields)")
            #expect(error?.status == 422)
            #expect(error?.message?.hasPrefix("Field \"\(field)\" cannot accept the provided value") == true,
                    "\(String(describing: error?.message))")
            #expect(error?.message?.contains(detail) == true, "\(String(describing: error?.message)) lacks \(detail)")
        }
        #expect(try await base.listRecords(in: "Orders", query: ListQuery()).records.isEmpty)
    }

    @Test func computedFieldsRefuseEveryWrite() async throws {
        let (base, _) = try await makeOrdersBase()
        for name in ["number", "created", "modified"] {
            for value: JSONValue in [1, "2026-11-29T00:00:00.000Z", nil] {
                let error = await apiError { try await base.createRecord(in: "Orders", [name: value]) }
                #expect(error == APIError.invalidValue(field: name, detail: "cannot accept a value because the field is computed"))
            }
        }
    }

    @Test func unknownFieldAndUnknownOption() async throws {
        let (base, table) = try await makeOrdersBase()
        #expect(await apiError { try await base.createRecord(in: "Orders", ["Name": "x"]) } == .unknownFieldName("Name"))
        #expect(await apiError { try await base.createRecord(in: "Orders", ["size": "特大杯"]) } == .invalidChoice("特大杯"))
        #expect(await apiError { try await base.createRecord(in: "Orders", ["addOns": ["加白玉", "加珍珠"]]) }
            == .invalidChoice("加珍珠"))
        // The refused option was not added to the field.
        #expect(try await base.schema().table(table.id)?.field("size")?.choices == ["中杯", "大杯"])
    }

    @Test func fieldIdsWorkAsKeysInAndOut() async throws {
        let (base, table) = try await makeOrdersBase()
        let qty = try #require(table.field("qty"))
        let name = try #require(table.field("name"))
        let record = try await base.createRecords(in: table.id, [[qty.id: 3, "name": "x"]],
                                                  options: WriteOptions(returnFieldsByFieldId: true))[0]
        #expect(record.fields[qty.id] == 3)
        #expect(record.fields[name.id] == "x")
        #expect(record.fields["qty"] == nil)
        let same = await apiError { try await base.createRecord(in: "Orders", [qty.id: 1, "qty": 2]) }
        #expect(same?.message?.contains("field \"qty\" is given twice (as \"\(qty.id)\" and \"qty\")") == true)
    }

    /// Cells are taken in whatever order the request's dictionary holds them, but a refused write is refused
    /// for the first of its faults by key, every time: twelve wrong cells, and `n01`'s is the one named (a
    /// field given twice is found before a wrong cell that comes after it by key).
    @Test func aRefusedWriteNamesItsFirstFaultByKey() async throws {
        let base = try LocalBase.inMemory(clock: TestClock().date, iteratorLifetime: .seconds(600))
        let names = (1...12).map { "n" + ($0 < 10 ? "0" : "") + String($0) }
        let table = try await base.createTable(TableSpec(name: "Numbers", fields: names.map { FieldSpec(name: $0, type: .number) }))
        for _ in 0..<5 {
            let fields = Fields(uniqueKeysWithValues: names.map { ($0, JSONValue.string("x")) })
            let wrong = await apiError { try await base.createRecord(in: "Numbers", fields) }
            #expect(wrong?.message?.contains("\"n01\"") == true, "\(wrong?.message ?? "no error")")
        }
        let n05 = try #require(table.field("n05"))
        var twice = Fields(uniqueKeysWithValues: names.map { ($0, JSONValue.number(1)) })
        twice[n05.id] = 2
        twice["n09"] = "x"
        let given = await apiError { try await base.createRecord(in: "Numbers", twice) }
        #expect(given?.message?.contains("field \"n05\" is given twice") == true, "\(given?.message ?? "no error")")
    }

    /// A write answers with its table's field names as they are now: renamed here, or by another process
    /// (another base on the same file), the next write answers by the new name.
    @Test func aWriteAnswersByTheNamesOfNow() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let base = try await LocalBase.open(path: path)
        _ = try await base.createTable(TableSpec(name: "Orders", fields: orderFields))
        #expect(try await base.createRecord(in: "Orders", ["name": "a"]).fields["name"] == "a")
        _ = try await base.updateField(in: "Orders", field: "name", SchemaChange(name: "guest"))
        let renamed = try await base.createRecord(in: "Orders", ["guest": "b"])
        #expect(renamed.fields["guest"] == "b" && renamed.fields["name"] == nil)
        let other = try await LocalBase.open(path: path)
        _ = try await other.updateField(in: "Orders", field: "guest", SchemaChange(name: "customer"))
        let again = try await base.createRecord(in: "Orders", ["customer": "c"])
        #expect(again.fields["customer"] == "c" && again.fields["guest"] == nil)
    }

    @Test func typecastConvertsOnABestEffortBasis() async throws {
        let (base, table) = try await makeOrdersBase()
        let options = WriteOptions(typecast: true)
        let record = try await base.createRecords(in: "Orders", [[
            "name": 42, "notes": ["a", "b"], "qty": "12", "price": "NT$1,250", "discount": "15%", "stars": "3",
            "prep": "1:30", "paid": "true", "size": "特大杯", "addOns": "加白玉, 加珍珠", "day": "2026-11-29T23:30:00+08:00",
            "photo": "https://img.example.com/drinks/%E7%99%BD%E7%8E%89.png",
        ]], options: options)[0]
        #expect(record.fields["name"] == "42")
        #expect(record.fields["notes"] == "a, b")
        #expect(record.fields["qty"] == 12)
        #expect(record.fields["price"] == 1250)
        #expect(record.fields["discount"] == 0.15)
        #expect(record.fields["stars"] == 3)
        #expect(record.fields["prep"] == 5400)
        #expect(record.fields["paid"] == true)
        #expect(record.fields["size"] == "特大杯")
        #expect(record.fields["addOns"] == ["加白玉", "加珍珠"])
        #expect(record.fields["day"] == "2026-11-29")
        let photo = try #require(record.fields["photo"]?.arrayValue?.first)
        #expect(photo["filename"] == "白玉.png")
        // New options were added to the fields, in the order they were first written.
        let schema = try await base.schema().table(table.id)
        #expect(schema?.field("size")?.choices == ["中杯", "大杯", "特大杯"])
        #expect(schema?.field("addOns")?.choices == ["加白玉", "加水玉", "加菓玉", "加珍珠"])
        // Typecast still refuses what cannot be read.
        let bad = await apiError { try await base.createRecords(in: "Orders", [["qty": "a dozen"]], options: options) }
        #expect(bad?.type == "INVALID_VALUE_FOR_COLUMN")
        #expect(bad?.message?.contains("does not read as a number") == true)
    }

    @Test func typecastReadsDatesAsPeopleTypeThemAndBlankNumbers() async throws {
        let (base, _) = try await makeOrdersBase()
        let options = WriteOptions(typecast: true)
        let record = try await base.createRecords(in: "Orders", [[
            "day": "11/29/2026", "pickedUpAt": "2026/11/29 22:30", "qty": " ",
        ]], options: options)[0]
        #expect(record.fields["day"] == "2026-11-29")
        #expect(record.fields["pickedUpAt"] == "2026-11-29T14:30:00.000Z")  // read in the field's zone, Taipei
        #expect(record.fields["qty"] == nil)
        // Without typecast the same values are refused.
        #expect(await apiError { try await base.createRecord(in: "Orders", ["day": "11/29/2026"]) }?.type == "INVALID_VALUE_FOR_COLUMN")
        #expect(await apiError { try await base.createRecord(in: "Orders", ["qty": " "]) }?.type == "INVALID_VALUE_FOR_COLUMN")
        let impossible = await apiError { try await base.createRecords(in: "Orders", [["day": "2/30/2026"]], options: options) }
        #expect(impossible?.message?.contains("is not a date") == true)
    }

    @Test func typecastCheckboxWords() async throws {
        let (base, _) = try await makeOrdersBase()
        let options = WriteOptions(typecast: true)
        for (text, checked) in [("yes", true), ("1", true), ("checked", true), ("no", false), ("0", false), ("", false)] {
            let record = try await base.createRecords(in: "Orders", [["paid": .string(text)]], options: options)[0]
            #expect((record.fields["paid"] == true) == checked, "\(text)")
        }
        let number = try await base.createRecords(in: "Orders", [["paid": 1]], options: options)[0]
        #expect(number.fields["paid"] == true)
    }

    @Test func dateTimesAreStoredInUTCWithMilliseconds() async throws {
        let (base, _) = try await makeOrdersBase()
        let cases: [(String, String)] = [
            ("2026-11-29T14:30:00Z", "2026-11-29T14:30:00.000Z"),
            ("2026-11-29T22:30:00+08:00", "2026-11-29T14:30:00.000Z"),
            ("2026-11-29T14:30:00.25Z", "2026-11-29T14:30:00.250Z"),
            // No zone: read in the field's zone (Asia/Taipei, UTC+8).
            ("2026-11-29T22:30", "2026-11-29T14:30:00.000Z"),
            ("2026-11-30", "2026-11-29T16:00:00.000Z"),
        ]
        for (written, stored) in cases {
            let record = try await base.createRecord(in: "Orders", ["pickedUpAt": .string(written)])
            #expect(record.fields["pickedUpAt"] == .string(stored), "\(written)")
        }
    }

    @Test func attachmentsGetIdsAndFilenames() async throws {
        let (base, _) = try await makeOrdersBase()
        let record = try await base.createRecord(in: "Orders", ["photo": [
            ["url": "https://img.example.com/a/milk-tea.jpg"],
            ["url": "https://img.example.com/b", "filename": "cover.png"],
        ]])
        let photos = try #require(record.fields["photo"]?.arrayValue)
        #expect(photos.count == 2)
        #expect(photos.allSatisfy { AirtableID.isValid($0["id"]?.stringValue ?? "", prefix: "att") })
        #expect(photos.map { $0["filename"] } == ["milk-tea.jpg", "cover.png"])
        // Sending the attachments back as read keeps their ids.
        let again = try await base.updateRecord(in: "Orders", id: record.id, ["photo": .array(photos)])
        #expect(again.fields["photo"]?.arrayValue?.map { $0["id"] } == photos.map { $0["id"] })
    }

    @Test func nullClearsACell() async throws {
        let (base, _) = try await makeOrdersBase()
        let record = try await base.createRecord(in: "Orders", ["name": "x", "qty": 3, "size": "中杯"])
        let cleared = try await base.updateRecord(in: "Orders", id: record.id, ["qty": nil, "size": ""])
        #expect(cleared.fields["qty"] == nil)
        #expect(cleared.fields["size"] == nil)
        #expect(cleared.fields["name"] == "x")
    }

    @Test func autoNumbersIncreaseAndAreNotReused() async throws {
        let (base, _) = try await makeOrdersBase()
        let first = try await base.createRecords(in: "Orders", [["name": "a"], ["name": "b"], ["name": "c"]],
                                                 options: WriteOptions())
        #expect(first.map { $0.fields["number"] } == [1, 2, 3])
        _ = try await base.deleteRecords(in: "Orders", ids: [first[2].id])
        let next = try await base.createRecord(in: "Orders", ["name": "d"])
        #expect(next.fields["number"] == 4)
    }
}
