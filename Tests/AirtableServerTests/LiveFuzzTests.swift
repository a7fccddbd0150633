import Airtable
import Testing
@testable import AirtableServer
import TestSupport


/// Thousands of malformed requests against a live server: well-framed ones with hostile targets, headers
/// and bodies (each must get an Airtable-shaped JSON answer, never a 5xx, on a connection that stays
/// open), and byte-mutated ones (each must end in an answer or a close, never a hang or a 500). Afterwards the
/// server still serves and the base still reads.
@Suite struct LiveFuzzTests {
    private static let pieces = [
        "/v0/", "BASE", "/", "OrderDrink", "Drink", "%2F", "%zz", "%", "?", "&", "=", "fields%5B%5D", "fields[]",
        "sort%5B0%5D%5Bfield%5D", "sort[0][direction]", "records[]", "recAAAAAAAAAAAAAA", "rec1", "listRecords",
        "filterByFormula", "AND(", "%7Bprice%7D", ")", "'", "%27", "\\", "pageSize", "-1", "101", "offset",
        "itrAAAAAAAAAAAAAA%2FrecAAAAAAAAAAAAAA", "cellFormat", "string", "meta", "bases", "tables", "whoami", "+",
        "%E5%A4%A7", "%C3%28", "%00", "..", "returnFieldsByFieldId", "maybe", "view", String(repeating: "x", count: 300),
    ]
    private static let bodies = [
        "", "{", "}", "[]", "null", "\"x\"", "{\"fields\":", "{\"fields\":{}}", "{\"records\":[]}",
        "{\"records\":[{\"fields\":{\"price\":\"x\"}}]}", "{\"records\":[{\"id\":1,\"fields\":{}}]}",
        "{\"fields\":{\"nope\":1}}", "{\"fields\":{\"size\":\"XL\"}}", "{\"performUpsert\":{\"fieldsToMergeOn\":[]},\"records\":[]}",
        "{\"filterByFormula\":\"AND(\"}", "{\"sort\":[{\"field\":1}]}", "{\"pageSize\":1e308}", "{\"offset\":[]}",
        String(repeating: "[", count: 300), String(repeating: "{\"a\":", count: 300), "{\"fields\":{\"orderName\":\"\\ud800\"}}",
        "{\"fields\":{\"price\":-0.0e-999}}", "\u{FEFF}{}", "{\"fields\":{\"orderName\":\"" + String(repeating: "茶", count: 2000) + "\"}}",
    ]
    private static let methods = ["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS", "get", "BREW"]

    @Test func wellFramedGarbageAlwaysGetsAJSONAnswer() async throws {
        try await LiveAPI.run { live in
            var random = SplitMix64(seed: 0xD21_5C0F)
            let base = live.harness.base.baseID
            for connectionIndex in 0..<4 {
                let connection = try RawConnection(port: live.port)
                for round in 0..<500 {
                    let method = Self.methods.randomElement(using: &random) ?? "GET"
                    var target = "/v0/\(base)/OrderDrink"
                    if round % 5 != 0 {
                        target = (0..<Int.random(in: 1...8, using: &random))
                            .map { _ in Self.pieces.randomElement(using: &random) ?? "" }.joined()
                            .replacingOccurrences(of: "BASE", with: base)
                        if !target.hasPrefix("/") { target = "/" + target }
                    }
                    target = target.replacingOccurrences(of: " ", with: "")
                    let token = [APIHarness.writer, APIHarness.reader, nil, "junk"].randomElement(using: &random) ?? nil
                    let body = Self.bodies.randomElement(using: &random) ?? ""
                    try await connection.send(rawRequest(method, target, token: token, body: body))
                    let reply = try await connection.readResponse(head: method == "HEAD")
                    let label = "connection \(connectionIndex) round \(round): \(method) \(target) \(body.prefix(60))"
                    #expect(reply.status < 500, "\(label) -> \(reply.status)")
                    if method != "HEAD" && reply.status != 204 {
                        #expect(reply.json.objectValue != nil, "\(label): not a JSON object")
                        if reply.status >= 400 { #expect(reply.json["error"] != nil, "\(label)") }
                    }
                    #expect(reply.header("Connection") != "close", "\(label)")
                }
            }
            let list = try await live.harness.base.listRecords(in: "OrderDrink", query: ListQuery())
            #expect(list.records.allSatisfy { AirtableID.isValid($0.id, prefix: "rec") })
        }
    }

    @Test func mutatedBytesEndInAnAnswerOrACloseAndTheServerLivesOn() async throws {
        try await LiveAPI.run { live in
            var random = SplitMix64(seed: 0xB0BA_7EA)
            let base = live.harness.base.baseID
            let seeds = [
                rawRequest("POST", "/v0/\(base)/OrderDrink", body: "{\"records\":[{\"fields\":{\"orderName\":\"Amy\",\"price\":35}}]}"),
                rawRequest("GET", "/v0/\(base)/OrderDrink?filterByFormula=%7Bprice%7D%3E1&fields%5B%5D=price"),
                rawRequest("DELETE", "/v0/\(base)/OrderDrink?records%5B%5D=recAAAAAAAAAAAAAA"),
                "POST /v0/\(base)/OrderDrink HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(APIHarness.writer)\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"fie\r\n10\r\nlds\":{\"price\":9}}\r\n0\r\n\r\n",
            ].map { Array($0.utf8) }
            var answered = 0
            for round in 0..<1_000 {
                var bytes = seeds[round % seeds.count]
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let at = Int.random(in: 0..<max(1, bytes.count), using: &random)
                    switch Int.random(in: 0..<5, using: &random) {
                    case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
                    case 1: bytes.insert(contentsOf: Array("\r\n".utf8), at: at)
                    case 2: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...20, using: &random)))
                    case 3: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 40)], at: at)
                    default: bytes.insert(contentsOf: Array(":%\u{0}\"{".utf8).shuffled(using: &random), at: at)
                    }
                    if bytes.isEmpty { bytes = [0x20] }
                }
                let connection = try RawConnection(port: live.port)
                try await connection.send(bytes)
                connection.shutdownWrite()
                let answer = try await connection.readToEnd()
                if !answer.isEmpty {
                    answered += 1
                    #expect(answer.starts(with: Array("HTTP/1.1 ".utf8)), "round \(round)")
                    // 501 and 505 are fair answers to mangled framing; a 500 would be a bug.
                    let status = String(decoding: answer.dropFirst(9).prefix(3), as: UTF8.self)
                    #expect(status != "500" && status != "502", "round \(round): \(status)")
                }
            }
            #expect(answered > 500)
            let after = try RawConnection(port: live.port)
            try await after.send(rawRequest("GET", "/v0/\(base)/OrderDrink?pageSize=1"))
            #expect(try await after.readResponse().status == 200)
            _ = try await live.harness.base.allRecords(in: "OrderDrink")
        }
    }
}
