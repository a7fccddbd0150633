import Foundation
import HTTPServer
import Testing
@testable import PickupDisplay

// Waits are generous (the full suite saturates the two-core pool); the within-a-second promise is
// measured in a real browser by scripts/display-check, not asserted here.
@Suite(.timeLimit(.minutes(3))) struct PickupDisplayRouteTests {
    @Test func thePageIsSelfContainedAndShowsBothColumns() async throws {
        try await withDisplayServer { port, _ in
            let client = try StreamClient(port: port)
            client.get("/display")
            let text = try #require(await client.read(until: "</html>"))
            #expect(text.hasPrefix("HTTP/1.1 200"))
            #expect(text.contains("Content-Type: text/html; charset=utf-8"))
            #expect(text.contains("製作中") && text.contains("可取餐"))
            // The newest ready and an earlier day's numbers have places of their own; layout is the browser's
            // (scripts/display-check).
            #expect(text.contains("最新") && text.contains("前日未取"))
            #expect(text.contains("data-events=\"/display/events\""))
            // Nothing loaded from the internet: no absolute URLs, no external style, one script of its own, and
            // no inline script (the policy allows only the server's own files).
            #expect(!text.contains("http://") && !text.contains("https://"))
            #expect(text.components(separatedBy: "src=").count == 2 && text.contains("<script src=\"/display/display.js\"></script>"))
            #expect(text.contains("script-src 'self';") && !text.contains("script-src 'unsafe-inline'"))
        }
    }

    @Test func theScriptIsAFileOfItsOwn() async throws {
        try await withDisplayServer { port, _ in
            let client = try StreamClient(port: port)
            client.get("/display/display.js")
            let text = try #require(await client.read(until: "})();"))
            #expect(text.hasPrefix("HTTP/1.1 200"))
            #expect(text.contains("Content-Type: text/javascript; charset=utf-8") && text.contains("X-Content-Type-Options: nosniff"))
            #expect(text.contains("new EventSource(body.getAttribute(\"data-events\"))"))
        }
    }

    @Test func theEventStreamSendsTheBoardAtOnceAndThenEachChange() async throws {
        let feed = PickupBoardFeed(PickupBoard(preparing: [12, 13], ready: [11]))
        try await withDisplayServer(feed: feed) { port, _ in
            let client = try StreamClient(port: port)
            client.get("/display/events")
            let first = try #require(await client.read(until: "\n\n"))
            #expect(first.hasPrefix("HTTP/1.1 200"))
            #expect(first.contains("Content-Type: text/event-stream"))
            #expect(!first.lowercased().contains("content-length"))
            #expect(try #require(await client.read(until: #"data: {"preparing":[12,13],"ready":[11],"newestReady":null,"earlier":[]}"#)) != "")
            feed.publish(PickupBoard(preparing: [13], ready: [11, 12]))
            #expect(await client.read(until: #"data: {"preparing":[13],"ready":[11,12],"newestReady":null,"earlier":[]}"#) != nil)
            let body = await client.bodyText()
            #expect(body.hasPrefix("retry: 1000\nevent: board\n"))
        }
    }

    @Test func whenTheSourceEndsTheStreamEndsAndTheConnectionCloses() async throws {
        let feed = PickupBoardFeed(PickupBoard(preparing: [1], ready: []))
        try await withDisplayServer(feed: feed) { port, _ in
            let client = try StreamClient(port: port)
            client.get("/display/events")
            #expect(await client.read(until: #""preparing":[1]"#) != nil)
            feed.finish()
            #expect(await client.closedByServer())
            // The server still serves new pages.
            let page = try StreamClient(port: port)
            page.get("/display")
            #expect(await page.read(until: "</html>")?.hasPrefix("HTTP/1.1 200") == true)
        }
    }

    @Test func anIdleStreamSendsHeartbeats() async throws {
        try await withDisplayServer(heartbeat: .milliseconds(100)) { port, _ in
            let client = try StreamClient(port: port)
            client.get("/display/events")
            #expect(await client.read(until: ": heartbeat\n\n") != nil)
        }
    }

    @Test func aPageThatGoesAwayIsUnsubscribed() async throws {
        let feed = PickupBoardFeed()
        try await withDisplayServer(feed: feed) { port, _ in
            let client = try StreamClient(port: port)
            client.get("/display/events")
            _ = await client.read(until: "event: board")
            #expect(feed.subscriberCount == 1)
            client.close()
            var waited = 0
            while feed.subscriberCount > 0, waited < 400 {
                try await Task.sleep(for: .milliseconds(50))
                waited += 1
            }
            #expect(feed.subscriberCount == 0)
        }
    }

    @Test func shutdownClosesOpenStreamsPromptly() async throws {
        let feed = PickupBoardFeed()
        let display = PickupDisplay(source: feed)
        let server = HTTPServer(configuration: .init(port: 0, shutdownGracePeriod: .seconds(300))) { request in
            await display.respond(to: request) ?? .text("no", status: 404)
        }
        let port = try server.start()
        let client = try StreamClient(port: port)
        client.get("/display/events")
        _ = await client.read(until: "event: board")
        // An open stream must not hold shutdown for the grace period (which outlasts the time limit).
        await server.shutdown()
        #expect(await client.closedByServer())
        var waited = 0
        while feed.subscriberCount > 0, waited < 200 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        #expect(feed.subscriberCount == 0)
    }

    @Test func streamsPastTheLimitAre503AndTheOthersKeepGoing() async throws {
        let feed = PickupBoardFeed()
        try await withDisplayServer(feed: feed, maxStreams: 2) { port, _ in
            // Two networks: one alone may hold only its fair share, one of the two.
            let a = try StreamClient(port: port, source: "127.0.1.1")
            let b = try StreamClient(port: port, source: "127.0.2.1")
            a.get("/display/events")
            b.get("/display/events")
            _ = await a.read(until: "event: board")
            _ = await b.read(until: "event: board")
            let c = try StreamClient(port: port, source: "127.0.3.1")
            c.get("/display/events")
            let refused = try #require(await c.read(until: "\r\n\r\n"))
            #expect(refused.hasPrefix("HTTP/1.1 503"))
            // The page itself is still served, and the open streams still get changes.
            let page = try StreamClient(port: port)
            page.get("/display")
            #expect(await page.read(until: "</html>")?.hasPrefix("HTTP/1.1 200") == true)
            feed.publish(PickupBoard(preparing: [], ready: [7]))
            #expect(await a.read(until: #""ready":[7]"#) != nil)
            #expect(await b.read(until: #""ready":[7]"#) != nil)
        }
    }

    @Test(arguments: [
        ("GET /display/../v0/meta/bases HTTP/1.1", "404"),
        ("GET /display/%2e%2e/v0/meta/bases HTTP/1.1", "404"),
        ("GET /display/nothing HTTP/1.1", "404"),
        ("POST /display HTTP/1.1\r\nContent-Length: 0", "405"),
        ("DELETE /display/events HTTP/1.1", "405"),
        ("GET /displayx HTTP/1.1", "401"),
        ("GET /v0/meta/bases HTTP/1.1", "401"),
    ])
    func strangePathsGetTheRightStatus(requestLine: String, status: String) async throws {
        try await withDisplayServer { port, _ in
            let client = try StreamClient(port: port)
            client.send("\(requestLine)\r\nHost: localhost\r\n\r\n")
            let text = try #require(await client.read(until: "\r\n\r\n"))
            #expect(text.hasPrefix("HTTP/1.1 \(status)"), "\(text)")
        }
    }

    @Test func aHugeHeaderIs431AndAnOpenStreamIsUnaffected() async throws {
        let feed = PickupBoardFeed()
        try await withDisplayServer(feed: feed) { port, _ in
            let stream = try StreamClient(port: port)
            stream.get("/display/events")
            _ = await stream.read(until: "event: board")
            let client = try StreamClient(port: port)
            client.get("/display", headers: "X-Big: \(String(repeating: "a", count: 200_000))\r\n")
            let text = try #require(await client.read(until: "\r\n\r\n"))
            #expect(text.hasPrefix("HTTP/1.1 431"), "\(text.prefix(80))")
            feed.publish(PickupBoard(preparing: [5], ready: []))
            #expect(await stream.read(until: #""preparing":[5]"#) != nil)
        }
    }

    @Test func theBoardJSONHoldsOnlyNumbersAndDays() {
        #expect(PickupBoard(preparing: [3, 4], ready: []).json == #"{"preparing":[3,4],"ready":[],"newestReady":null,"earlier":[]}"#)
        let board = PickupBoard(preparing: [], ready: [2, 7], newestReady: 7,
                                earlier: [.init(number: 4, day: "2026-12-02")])
        #expect(board.json == #"{"preparing":[],"ready":[2,7],"newestReady":7,"earlier":[{"number":4,"day":"2026-12-02","label":"12/02"}]}"#)
    }
}
