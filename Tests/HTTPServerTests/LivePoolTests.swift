import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

/// The server against a busy cooperative pool: handlers that wait must not hold its threads, so a
/// request that needs no waiting is still answered while many more handlers wait than the pool has threads.
@Suite struct LivePoolTests {
    @Test func answersWhileMoreHandlersWaitThanThePoolHasThreads() async throws {
        let waiting = ProcessInfo.processInfo.activeProcessorCount * 4 + 2
        let gate = AsyncGate()
        let (arrived, arrivedSignal) = AsyncStream<Void>.makeStream()
        try await withServer(handler: { request in
            if request.target.hasPrefix("/wait") {
                arrivedSignal.yield()
                await gate.wait()
            }
            return .text("answered \(request.target)")
        }) { _, port in
            var held: [TestClient] = []
            for index in 0..<waiting {
                let client = try TestClient(port: port)
                try await client.send("GET /wait/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                held.append(client)
            }
            var count = 0
            for await _ in arrived {
                count += 1
                if count == waiting { break }
            }
            // Every waiting handler has started and is waiting now; a quick request must still get through.
            let quick = try TestClient(port: port)
            try await quick.send("GET /quick HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await quick.readResponse().text == "answered /quick")

            gate.open()
            for (index, client) in held.enumerated() {
                #expect(try await client.readResponse().text == "answered /wait/\(index)")
            }
        }
    }
}
