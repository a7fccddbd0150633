import Airtable
import AirtableHTTP
import Foundation
import Testing

/// Errors as staff read them, from every body shape, and the token kept out of all of it.
@Suite struct ClientErrorTests {
    private func failure(status: Int, body: String, headers: [String: String] = [:]) async -> AirtableError? {
        let transport = StubTransport { _, _ in TransportResponse(status: status, headers: headers, body: Array(body.utf8)) }
        let client = ClientFixture.client(transport, retry: RetryPolicy(maximumAttempts: 1))
        do {
            _ = try await client.listRecords(in: "Drink", query: ListQuery())
            return nil
        } catch {
            return error
        }
    }

    @Test func allThreeErrorBodyShapesAreRead() async throws {
        let full = try #require(await failure(status: 422, body:
            #"{"error":{"type":"UNKNOWN_FIELD_NAME","message":"Unknown field name: \"x\""}}"#))
        #expect(full == .api(APIError(status: 422, type: "UNKNOWN_FIELD_NAME", message: "Unknown field name: \"x\"")))
        #expect(full.description == "Airtable error 422 UNKNOWN_FIELD_NAME: Unknown field name: \"x\"")

        let typeOnly = try #require(await failure(status: 422, body: #"{"error":{"type":"LIST_RECORDS_ITERATOR_NOT_AVAILABLE"}}"#))
        #expect(typeOnly.apiError == APIError(status: 422, type: "LIST_RECORDS_ITERATOR_NOT_AVAILABLE"))

        let bare = try #require(await failure(status: 404, body: #"{"error":"NOT_FOUND"}"#))
        #expect(bare.apiError?.type == "NOT_FOUND")
        #expect(bare.isNotFound)
    }

    @Test func aBodyInNoKnownShapeStillGivesOneClearLine() async throws {
        let error = try #require(await failure(status: 502, body: "<html>\n<h1>Bad Gateway</h1>\n</html>"))
        #expect(error.apiError?.type == "BAD_GATEWAY")
        #expect(error.description == "Airtable error 502 BAD_GATEWAY: <html><h1>Bad Gateway</h1></html>")
        #expect(!error.description.contains("\n"))
    }

    @Test func notFoundAndForbiddenModelsReadAlike() async throws {
        let forbidden = try #require(await failure(status: 403, body: JSONWriter.string(APIError.modelNotFound.body)))
        let missing = try #require(await failure(status: 404, body: #"{"error":"NOT_FOUND"}"#))
        #expect(forbidden.isNotFound && missing.isNotFound)
        #expect(forbidden.description.hasPrefix("not found or not allowed"))
        #expect(missing.description.hasPrefix("not found or not allowed"))
    }

    @Test func aRefusedTokenSaysSo() async throws {
        let error = try #require(await failure(status: 401, body: JSONWriter.string(APIError.authenticationRequired.body)))
        #expect(error.description == "Airtable refused the token (401)")
    }

    @Test func theTokenNeverAppearsEvenWhenAServerEchoesIt() async throws {
        // A misbehaving server that copies the request's Authorization header into its answers.
        let echo = StubTransport { request, index in
            let header = request.headers["Authorization"] ?? ""
            let statuses = [401, 422, 502, 200]
            let status = statuses[index % statuses.count]
            let body = status == 200 ? "not json \(header)" : #"{"error":{"type":"X \#(header)","message":"you sent \#(header)"}}"#
            return TransportResponse(status: status, body: Array(body.utf8))
        }
        let client = ClientFixture.client(echo, retry: RetryPolicy(maximumAttempts: 1))
        var texts: [String] = [String(describing: client), String(reflecting: client.configuration),
                               String(describing: client.configuration.token)]
        var dumped = ""
        dump(client.configuration, to: &dumped)
        texts.append(dumped)
        for _ in 0..<4 {
            do {
                _ = try await client.listRecords(in: "Drink", query: ListQuery())
            } catch {
                texts += [error.description, String(reflecting: error), "\(error.localizedDescription)"]
            }
        }
        let request = try #require(echo.requests.first)
        texts += [request.description, String(reflecting: request)]
        var dumpedRequest = ""
        dump(request, to: &dumpedRequest)
        texts.append(dumpedRequest)
        #expect(texts.count > 10)
        for text in texts {
            #expect(!text.contains(ClientFixture.token), "token shown in: \(text.prefix(80))")
            #expect(!text.contains("0123456789abcdef0123"), "part of the token shown in: \(text.prefix(80))")
        }
        #expect(texts.contains { $0.contains("[token]") })
    }

    @Test func transportFailuresReadAsUnreachableStore() async throws {
        let transport = StubTransport { _, _ throws(TransportError) in
            throw TransportError(.notSent, "could not connect to api.airtable.com (is the server running?)")
        }
        let client = ClientFixture.client(transport, retry: RetryPolicy(maximumAttempts: 2, initialBackoff: 0))
        await #expect(throws: AirtableError.transport("could not connect to api.airtable.com (is the server running?)")) {
            _ = try await client.listRecords(in: "Drink", query: ListQuery())
        }
        #expect(transport.requests.count == 2)
    }
}
