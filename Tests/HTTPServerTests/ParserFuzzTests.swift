import Testing
@testable import HTTPServer
import TestSupport


/// Random and mutated requests through the parser: it must always end in requests, an error or a wait
/// for more bytes, never crash or loop, and cutting the bytes differently must not change the outcome.
@Suite struct ParserFuzzTests {
    static let limits = HTTPParserLimits(
        maxRequestLineLength: 256, maxHeaderLineLength: 128, maxHeaderCount: 12, maxHeaderBytes: 512,
        maxBodyBytes: 300, maxChunkLineLength: 64)
    static let statuses: Set<Int> = [400, 413, 414, 417, 431, 501, 505]

    static let corpus: [[UInt8]] = ParserSplittingTests.streams.map(bytes) + [
        bytes("PUT /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello"),
        bytes("POST /y HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\n"
            + String(repeating: "z", count: 26) + "\r\n0\r\n\r\n"),
    ]
    static let interesting: [UInt8] = Array("\r\n :;,\t0aF-/?%".utf8) + [0x00, 0x7F, 0xFF, 0xE9]

    @Test func randomBytes() async {
        var random = SplitMix64(seed: 0xD1E5_5EED)
        for round in 0..<3_000 {
            if round.isMultiple(of: 32) { await Task.yield() }  // CPU-bound: let other suites' tasks run
            let length = Int.random(in: 0...200, using: &random)
            let raw = (0..<length).map { _ in
                Bool.random(using: &random) ? Self.interesting.randomElement(using: &random) ?? 0
                    : UInt8.random(in: 0...255, using: &random)
            }
            check(raw, round: round, random: &random)
        }
    }

    @Test func mutatedRequests() async {
        var random = SplitMix64(seed: 0xC0FF_EE11)
        var statuses: Set<Int> = []
        var requests = 0
        for round in 0..<6_000 {
            if round.isMultiple(of: 32) { await Task.yield() }  // CPU-bound: let other suites' tasks run
            var raw = Self.corpus.randomElement(using: &random) ?? []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                mutate(&raw, random: &random)
            }
            let outcome = check(raw, round: round, random: &random)
            requests += outcome.requests.count
            if let error = outcome.error { statuses.insert(error.status) }
        }
        // The mutations must reach both sides: requests still accepted and most kinds of refusal.
        #expect(requests > 1_000)
        #expect(statuses.isSuperset(of: [400, 413, 431, 505]), "\(statuses.sorted())")
    }

    private func mutate(_ raw: inout [UInt8], random: inout SplitMix64) {
        guard !raw.isEmpty else { raw = [Self.interesting.randomElement(using: &random) ?? 0]; return }
        let at = Int.random(in: 0..<raw.count, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: raw[at] = UInt8.random(in: 0...255, using: &random)
        case 1: raw.insert(Self.interesting.randomElement(using: &random) ?? 0, at: at)
        case 2: raw.remove(at: at)
        case 3:
            let end = Swift.min(raw.count, at + Int.random(in: 1...40, using: &random))
            raw.insert(contentsOf: raw[at..<end], at: end)
        case 4: raw.replaceSubrange(at..<Swift.min(raw.count, at + 8), with: bytes("\r\n"))
        default:
            let end = Swift.min(raw.count, at + Int.random(in: 1...300, using: &random))
            raw.insert(contentsOf: repeatElement(raw[at], count: end - at), at: at)
        }
    }

    @discardableResult
    private func check(_ raw: [UInt8], round: Int, random: inout SplitMix64) -> ParseOutcome {
        let whole = parse(chunks: [raw], limits: Self.limits)
        if let error = whole.error {
            #expect(Self.statuses.contains(error.status), "round \(round): \(error)")
            #expect(!error.description.isEmpty)
        }
        for request in whole.requests {
            #expect(request.body.count <= Self.limits.maxBodyBytes, "round \(round)")
            #expect(request.target.first == "/" || request.target == "*", "round \(round): \(request.target)")
        }
        #expect(whole.heads.count >= whole.requests.count)
        var pieces: [[UInt8]] = []
        var rest = raw[...]
        while !rest.isEmpty {
            let size = Int.random(in: 1...Swift.max(1, rest.count), using: &random)
            pieces.append(Array(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        #expect(parse(chunks: pieces, limits: Self.limits) == whole, "round \(round): \(HTTPSyntax.printable(raw, limit: 400))")
        return whole
    }
}
