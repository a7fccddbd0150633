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

private final class HogFlags: Sendable {
    let started = Atomic<Int>(0)
    let answered = Atomic<Bool>(false)
}

/// The server beside a process whose default-priority tasks keep every thread busy (a test suite's
/// hundreds of tests, an archive run): its handlers run at their own priority, whose threads (on
/// Linux each priority has its own) are free, so a request is answered instead of waiting its turn
/// behind all of that work. Before, the suite's live-server tests gave up reading on a loaded machine.
@Suite struct LivePriorityTests {
    @Test func answersWhileEveryDefaultPriorityThreadIsBusy() async throws {
        try await withServer { _, port in
            let flags = HogFlags()
            let threads = ProcessInfo.processInfo.activeProcessorCount
            // As many default-priority tasks as the pool has threads, each holding its thread (spinning)
            // until the answer is in, or 30 s at most; bounded so a broken server cannot hold the suite.
            let hogs = (0..<threads).map { _ in
                Task.detached(priority: .medium) {
                    flags.started.add(1, ordering: .relaxed)
                    let end = ContinuousClock.now + .seconds(30)
                    while !flags.answered.load(ordering: .relaxed), ContinuousClock.now < end {}
                }
            }
            // Connected, sent and read on a queue of the client's own, off the pool, so the test waits on nothing
            // the hogs hold; connected only once every hog holds its thread (on a loaded machine that can take
            // longer than the server's 10 s header deadline, which runs from the connection). The answer releases
            // the hogs from that queue: the test's own task, at the default priority, could only run again once
            // they let go.
            let response = try await TestClient.exchange(
                port: port, "GET /busy HTTP/1.1\r\nHost: x\r\n\r\n",
                when: { flags.started.load(ordering: .relaxed) == threads },
                then: { flags.answered.store(true, ordering: .relaxed) })
            for hog in hogs { await hog.value }
            #expect(response.text == "GET /busy ")
        }
    }
}
