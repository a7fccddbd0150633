import Airtable
import AirtableFormula
import AirtableHTTP
import AirtableURLSession
import Foundation
import HTTPServer
import Synchronization
import Testing

/// The live transport follows no redirect: a 307 is the answer, and the place it names hears nothing (a
/// webhook receiver could otherwise bounce a signed ping to a port nobody allowed, and a redirect would
/// carry the client's token to another host).
@Suite struct RedirectRefusalTests {
    @Test func aRedirectIsTheAnswerAndItsTargetHearsNothing() async throws {
        let reached = Mutex<[String]>([])
        let target = HTTPServer(configuration: .init(port: 0)) { request in
            reached.withLock { $0.append("\(request.method) \(request.path) \(request.headers["Authorization"] ?? "-")") }
            return .text("stolen")
        }
        let targetPort = try target.start()
        let bouncer = HTTPServer(configuration: .init(port: 0)) { _ in
            HTTPResponse(status: 307, headers: ["Location": "http://127.0.0.1:\(targetPort)/stolen"])
        }
        let port = try bouncer.start()
        defer {
            Task { await target.shutdown() }
            Task { await bouncer.shutdown() }
        }
        for method in ["POST", "GET"] {
            let response = try await URLSessionTransport.shared.send(
                TransportRequest(method: method, url: "http://127.0.0.1:\(port)/hook",
                                 headers: ["Authorization": "Bearer patSECRET"], body: method == "POST" ? Array("{}".utf8) : nil),
                timeout: 5)
            #expect(response.status == 307)
            #expect(response.headers["location"] == "http://127.0.0.1:\(targetPort)/stolen")
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(reached.withLock { $0 }.isEmpty)
    }
}
