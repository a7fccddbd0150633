import Testing
@testable import HTTPServer

@Suite struct ServerSentEventTests {
    @Test func eachDataLineIsAFieldAndTheEventEndsWithABlankLine() {
        let event = ServerSentEvent(event: "board", data: "a\nb", id: "1\r\nevent: x", retryMilliseconds: 500)
        #expect(String(decoding: event.bytes, as: UTF8.self) == "retry: 500\nid: 1event: x\nevent: board\ndata: a\ndata: b\n\n")
    }
}

@Suite struct StreamingStateMachineTests {
    let start = ContinuousClock.now

    func streamingMachine() -> ConnectionStateMachine {
        var machine = ConnectionStateMachine(
            limits: HTTPParserLimits(), timeouts: ConnectionTimeouts(), remoteAddress: nil, now: start)
        _ = machine.received(Array("GET /events HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: start, date: "d")
        _ = machine.handlerFinished(.eventStream(HTTPResponseStream()), now: start, date: "d")
        return machine
    }

    @Test func theHeadGoesOutWithoutLengthAndTheConnectionStaysOpen() {
        var machine = streamingMachine()
        let head = String(decoding: machine.pendingOutput, as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.contains("Connection: close\r\n") && !head.contains("Content-Length"))
        #expect(machine.wrote(machine.pendingOutput.count, now: start, date: "d") == [])
        #expect(machine.isStreaming && machine.deadline == nil && machine.wantsRead)
        _ = machine.streamed(Array("data: 1\n\n".utf8), now: start)
        #expect(String(decoding: machine.pendingOutput, as: UTF8.self) == "data: 1\n\n")
        #expect(machine.deadline == start + ConnectionTimeouts().write)
    }

    @Test func aClientThatStopsReadingIsCutOffAtTheBacklogLimit() {
        var machine = streamingMachine()
        // A live page's events are small: a client 64 KiB of them behind has stopped reading, and its
        // stream is dropped rather than held in memory (many such pages must not add up to the server's memory).
        let event = [UInt8](repeating: 0x61, count: 1_024)
        var actions: [ConnectionStateMachine.Action] = []
        var sent = 0
        while actions.isEmpty, sent < 2_000 {
            actions = machine.streamed(event, now: start)
            sent += 1
        }
        #expect(actions == [.close])
        #expect(sent <= 65, "cut off once 64 KiB wait, not \(sent) KiB")
    }

    @Test func aStreamWhoseClientDoesNotReadIsClosedAtTheWriteDeadline() {
        var machine = streamingMachine()
        _ = machine.wrote(machine.pendingOutput.count, now: start, date: "d")
        _ = machine.streamed(Array("data: 1\n\n".utf8), now: start)
        let write = ConnectionTimeouts().write
        // Some of it goes out: the client reads, so the deadline moves on.
        _ = machine.wrote(2, now: start + write / 2, date: "d")
        #expect(machine.tick(now: start + write, date: "d") == [])
        #expect(machine.deadline == start + write / 2 + write)
        // Then nothing more: closed at the deadline, and only then.
        #expect(machine.tick(now: start + write / 2 + write - .milliseconds(1), date: "d") == [])
        #expect(machine.tick(now: start + write / 2 + write, date: "d") == [.close])
    }

    @Test func theClientLeavingClosesTheStream() {
        var machine = streamingMachine()
        _ = machine.wrote(machine.pendingOutput.count, now: start, date: "d")
        #expect(machine.inputEnded(now: start, date: "d") == [.close])
    }

    @Test func shutdownClosesOnceWhatWasSentIsWritten() {
        var machine = streamingMachine()
        #expect(machine.beginShutdown() == [])  // the head is still unsent
        #expect(machine.wrote(machine.pendingOutput.count, now: start, date: "d") == [.close])
    }

    @Test func aHeadRequestGetsTheHeadOnlyAndNoStream() {
        var machine = ConnectionStateMachine(
            limits: HTTPParserLimits(), timeouts: ConnectionTimeouts(), remoteAddress: nil, now: start)
        _ = machine.received(Array("HEAD /events HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: start, date: "d")
        _ = machine.handlerFinished(.eventStream(HTTPResponseStream()), now: start, date: "d")
        #expect(!machine.isStreaming)
    }
}
