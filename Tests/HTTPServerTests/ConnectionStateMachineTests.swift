import Testing
@testable import HTTPServer

/// The connection rules without sockets or a real clock: instants are made up and moved by hand.
@Suite struct ConnectionStateMachineTests {
    typealias Action = ConnectionStateMachine.Action
    static let start = ContinuousClock.now
    static let timeouts = ConnectionTimeouts(
        header: .seconds(10), body: .seconds(20), idle: .seconds(30), write: .seconds(40), linger: .seconds(2))
    static let date = "Sun, 06 Nov 1994 08:49:37 GMT"

    func makeMachine() -> ConnectionStateMachine {
        ConnectionStateMachine(
            limits: HTTPParserLimits(maxBodyBytes: 100), timeouts: Self.timeouts, remoteAddress: "127.0.0.1:5000",
            now: Self.start)
    }

    func at(_ seconds: Double) -> ContinuousClock.Instant { Self.start + .milliseconds(Int(seconds * 1_000)) }

    func receive(_ machine: inout ConnectionStateMachine, _ text: String, at time: Double = 0) -> [Action] {
        machine.received(Array(text.utf8), now: at(time), date: Self.date)
    }

    func sentText(_ machine: inout ConnectionStateMachine, at time: Double = 0) -> (String, [Action]) {
        let text = String(decoding: machine.pendingOutput, as: UTF8.self)
        return (text, machine.wrote(machine.pendingOutput.count, now: at(time), date: Self.date))
    }

    func requests(in actions: [Action]) -> [HTTPRequest] {
        actions.compactMap { if case .runHandler(let request) = $0 { request } else { nil } }
    }

    @Test func runsTheHandlerThenWaitsIdleForTheNextRequest() throws {
        var machine = makeMachine()
        #expect(machine.deadline == at(10), "the first request's header clock starts at accept")
        let actions = receive(&machine, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", at: 1)
        let request = try #require(requests(in: actions).first)
        #expect(request.remoteAddress == "127.0.0.1:5000")
        #expect(machine.phase == .handling)
        #expect(!machine.wantsRead)
        #expect(machine.deadline == nil, "no deadline while the handler runs")

        let finished = machine.handlerFinished(.text("hi"), now: at(3), date: Self.date)
        #expect(finished == [.log(HTTPRequestLogEntry(method: "GET", path: "/a", status: 200, milliseconds: 2_000))])
        #expect(machine.deadline == at(43))
        let (text, afterWrite) = sentText(&machine, at: 3)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.hasSuffix("Content-Length: 2\r\n\r\nhi"))
        #expect(afterWrite.isEmpty)
        #expect(machine.phase == .awaitingRequest(deadline: at(33), firstRequest: false))
        #expect(machine.wantsRead)
    }

    @Test func answersPipelinedRequestsOneAtATime() throws {
        var machine = makeMachine()
        let first = receive(&machine, "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(requests(in: first).map(\.target) == ["/1"])
        _ = machine.handlerFinished(.text("one"), now: at(1), date: Self.date)
        let (_, afterFirst) = sentText(&machine, at: 1)
        #expect(requests(in: afterFirst).map(\.target) == ["/2"], "the buffered request starts once the first is sent")
        _ = machine.handlerFinished(.text("two"), now: at(2), date: Self.date)
        let (text, _) = sentText(&machine, at: 2)
        #expect(text.hasSuffix("two"))
        #expect(machine.phase == .awaitingRequest(deadline: at(32), firstRequest: false))
    }

    @Test func closesAfterTheResponseWhenTheClientAsked() {
        var machine = makeMachine()
        _ = receive(&machine, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        _ = machine.handlerFinished(.text("bye"), now: at(1), date: Self.date)
        let (text, actions) = sentText(&machine, at: 1)
        #expect(text.contains("Connection: close\r\n"))
        #expect(actions == [.halfClose])
        #expect(machine.phase == .lingering(deadline: at(3)))
        #expect(machine.tick(now: at(3), date: Self.date) == [.close])
    }

    @Test func lingersOnlyUntilThePeerCloses() {
        var machine = makeMachine()
        _ = receive(&machine, "GET / HTTP/1.0\r\n\r\n")
        _ = machine.handlerFinished(.text("old"), now: at(1), date: Self.date)
        #expect(sentText(&machine, at: 1).1 == [.halfClose])
        #expect(receive(&machine, "ignored bytes", at: 1.5).isEmpty)
        #expect(machine.inputEnded(now: at(1.6), date: Self.date) == [.close])
        #expect(machine.isClosed)
    }

    @Test func sendsContinueOnlyWhenTheBodyHasNotStarted() {
        var waiting = makeMachine()
        _ = receive(&waiting, "PUT / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        #expect(String(decoding: waiting.pendingOutput, as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(waiting.phase == .readingBody(deadline: at(20)))
        #expect(sentText(&waiting).1.isEmpty)
        #expect(requests(in: receive(&waiting, "abc", at: 1)).first?.body == Array("abc".utf8))

        var eager = makeMachine()
        let actions = receive(&eager, "PUT / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc")
        #expect(!eager.wantsWrite)
        #expect(requests(in: actions).count == 1)
    }

    @Test func answersParseErrorsAndCloses() {
        var machine = makeMachine()
        let actions = receive(&machine, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n", at: 1)
        #expect(actions == [.log(HTTPRequestLogEntry(method: "-", path: "-", status: 413, milliseconds: 0))])
        let (text, afterWrite) = sentText(&machine, at: 1)
        #expect(text.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"))
        #expect(text.contains("Connection: close\r\n"))
        #expect(text.hasSuffix("the body is larger than 100 bytes\n"))
        #expect(afterWrite == [.halfClose])
    }

    @Test func headerDeadlineIsTotalAndAnswered408() {
        var machine = makeMachine()
        _ = receive(&machine, "GET / HT", at: 9)
        #expect(machine.deadline == at(10), "bytes arriving late do not extend the first request's deadline")
        #expect(machine.tick(now: at(9.9), date: Self.date).isEmpty)
        let actions = machine.tick(now: at(10), date: Self.date)
        #expect(actions.count == 1)
        #expect(String(decoding: machine.pendingOutput, as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout"))
    }

    @Test func laterRequestsGetAFreshHeaderDeadlineFromTheirFirstByte() {
        var machine = makeMachine()
        _ = receive(&machine, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = machine.handlerFinished(.text(""), now: at(1), date: Self.date)
        _ = sentText(&machine, at: 1)
        _ = receive(&machine, "G", at: 20)
        #expect(machine.phase == .readingHead(deadline: at(30)))
    }

    @Test func bodyDeadlineIsAnswered408() {
        var machine = makeMachine()
        _ = receive(&machine, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab", at: 1)
        #expect(machine.deadline == at(21))
        _ = machine.tick(now: at(21), date: Self.date)
        #expect(String(decoding: machine.pendingOutput, as: UTF8.self).hasPrefix("HTTP/1.1 408 "))
    }

    @Test func idleAndWriteDeadlinesCloseWithoutAResponse() {
        var idle = makeMachine()
        #expect(idle.tick(now: at(10), date: Self.date) == [.close])
        #expect(!idle.wantsWrite)

        var stuck = makeMachine()
        _ = receive(&stuck, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = stuck.handlerFinished(.text("never read"), now: at(1), date: Self.date)
        #expect(stuck.tick(now: at(41), date: Self.date) == [.close])
    }

    @Test func aRequestCutShortByThePeerIsDropped() {
        var machine = makeMachine()
        _ = receive(&machine, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab")
        #expect(machine.inputEnded(now: at(1), date: Self.date) == [.close])
    }

    @Test func aCompleteRequestIsAnsweredEvenAfterThePeerHalfCloses() {
        var machine = makeMachine()
        _ = receive(&machine, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(machine.inputEnded(now: at(1), date: Self.date).isEmpty)
        _ = machine.handlerFinished(.text("ok"), now: at(1), date: Self.date)
        let (text, actions) = sentText(&machine, at: 1)
        #expect(text.contains("Connection: close"))
        #expect(actions == [.close])
    }

    @Test func shutdownClosesIdleConnectionsAndLetsBusyOnesFinish() {
        var idle = makeMachine()
        #expect(idle.beginShutdown() == [.close])

        var busy = makeMachine()
        _ = receive(&busy, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(busy.beginShutdown().isEmpty)
        _ = busy.handlerFinished(.text("last"), now: at(1), date: Self.date)
        let (text, actions) = sentText(&busy, at: 1)
        #expect(text.contains("Connection: close"))
        #expect(actions == [.halfClose])
    }

    @Test func rejectionAnswers503AndCloses() {
        var machine = ConnectionStateMachine.rejecting(
            timeouts: Self.timeouts, remoteAddress: nil, now: Self.start, date: Self.date)
        let (text, actions) = sentText(&machine)
        #expect(text.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(text.contains("Connection: close"))
        #expect(actions == [.halfClose])
    }

    @Test func ignoresAResponseForARequestItIsNotHandling() {
        var machine = makeMachine()
        #expect(machine.handlerFinished(.text("stray"), now: at(1), date: Self.date).isEmpty)
        #expect(!machine.wantsWrite)
    }
}
