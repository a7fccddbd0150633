import Testing
import Foundation
@testable import Airtable

@Suite struct JSONParserTests {
    @Test func parsesNestedValues() throws {
        let value = try JSONParser.parse(#"{"a":[1,2.5,-3e2,true,false,null],"b":{"c":"d"}}"#)
        #expect(value["a"] == [1, 2.5, -300, true, false, nil])
        #expect(value["b"]?["c"] == "d")
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#""a\"b\\c\/\n\u00e9\ud83e\uddcb""#)
        #expect(value == .string("a\"b\\c/\né🧋"))
    }

    @Test func reportsLineAndColumnOfTheError() {
        let text = "{\n  \"name\": \"白玉歐蕾\",\n  \"medium\": 6O\n}"
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 14)
        }
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\\x\"", "\"\u{01}\"", "tru", "[1] 2",
                      "\"\\ud800\"", "{\"a\":1,}", "-", "1e", "nul"])
    func rejectsMalformedText(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test func refusesDeepNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }
}

@Suite struct JSONWriterTests {
    @Test func writesIntegersWithoutFractionAndSortsKeys() {
        let value: JSONValue = ["b": 60, "a": [1.5, "x"], "c": nil]
        #expect(JSONWriter.string(value) == #"{"a":[1.5,"x"],"b":60,"c":null}"#)
    }

    @Test func escapesControlCharactersAndKeepsCJK() {
        #expect(JSONWriter.string("熟成\"\n\u{01}") == #""熟成\"\n\u0001""#)
    }

    @Test func roundTrips() throws {
        let value: JSONValue = ["records": [["fields": ["name": "O'Brien \\ \"x\"", "n": -0.25, "ok": true]]]]
        #expect(try JSONParser.parse(JSONWriter.bytes(value)) == value)
    }
}

@Suite struct AirtableTimestampTests {
    @Test func formatsWithMilliseconds() {
        #expect(AirtableTimestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(AirtableTimestamp.format(Date(timeIntervalSince1970: 1_709_280_930.5)) == "2024-03-01T08:15:30.500Z")
        #expect(AirtableTimestamp.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
    }

    @Test func parsesWhatItFormats() {
        let date = Date(timeIntervalSince1970: 1_795_000_000.123)
        let parsed = AirtableTimestamp.parse(AirtableTimestamp.format(date))
        #expect(parsed.map { abs($0.timeIntervalSince(date)) < 0.001 } == true)
    }

    @Test func parsesDatesAndOffsets() {
        #expect(AirtableTimestamp.parse("2024-02-29") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(AirtableTimestamp.parse("2024-03-01T16:15:30+08:00") == Date(timeIntervalSince1970: 1_709_280_930))
        #expect(AirtableTimestamp.parse("2023-02-29") == nil)
        #expect(AirtableTimestamp.parse("2024-03-01T25:00") == nil)
        #expect(AirtableTimestamp.parse("yesterday") == nil)
    }
}

@Suite struct RecordTests {
    @Test func leavesEmptyCellsOut() {
        let record = Record(id: "rec00000000000001", createdTime: Date(timeIntervalSince1970: 0),
                            fields: ["a": "", "b": false, "c": [], "d": nil, "e": 0, "f": "x"])
        #expect(record.fields == ["e": 0, "f": "x"])
    }

    @Test func readsAndWritesTheAPIForm() throws {
        let json: JSONValue = ["id": "recAAAAAAAAAAAAAA", "createdTime": "2024-03-01T08:15:30.000Z", "fields": ["n": 2]]
        let record = try Record(json: json)
        #expect(record.json == json)
    }

    @Test func makesWellFormedIDs() {
        let id = AirtableID.make("rec")
        #expect(AirtableID.isValid(id, prefix: "rec"))
        #expect(!AirtableID.isValid("rec123", prefix: "rec"))
        #expect(!AirtableID.isValid("recAAAAAAAAAAAA-A", prefix: "rec"))
    }

    @Test func readsAllThreeErrorShapes() {
        #expect(APIError(status: 404, body: ["error": "NOT_FOUND"]) == .notFound)
        #expect(APIError(status: 422, body: ["error": ["type": "LIST_RECORDS_ITERATOR_NOT_AVAILABLE"]])
                == .iteratorNotAvailable)
        #expect(APIError(status: 401, body: ["error": ["type": "AUTHENTICATION_REQUIRED",
                                                       "message": "Authentication required"]])
                == .authenticationRequired)
        #expect(APIError(status: 500, body: ["oops": 1]) == nil)
    }
}
