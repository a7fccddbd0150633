@testable import HTTPServer

/// What a parser made of a byte stream: the requests it completed and the error it stopped at, if any.
struct ParseOutcome: Equatable {
    var requests: [HTTPRequest] = []
    var heads: [HTTPRequestHead] = []
    var error: HTTPParseError?
}

/// Feeds `chunks` one after another, draining events after each, as a connection would.
func parse(chunks: [[UInt8]], limits: HTTPParserLimits = HTTPParserLimits()) -> ParseOutcome {
    var parser = HTTPRequestParser(limits: limits)
    var outcome = ParseOutcome()
    for chunk in chunks {
        parser.append(chunk)
        do {
            while let event = try parser.nextEvent() {
                switch event {
                case .head(let head): outcome.heads.append(head)
                case .request(let request): outcome.requests.append(request)
                }
            }
        } catch {
            outcome.error = error
            return outcome
        }
    }
    return outcome
}

func parse(_ text: String, limits: HTTPParserLimits = HTTPParserLimits()) -> ParseOutcome {
    parse(chunks: [Array(text.utf8)], limits: limits)
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
