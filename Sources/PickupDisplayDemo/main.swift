@preconcurrency import Foundation
import HTTPServer
import PickupDisplay

// A development server for the pickup screen alone, driven by lines on standard input, for
// scripts/display-check until `drinkshop serve` carries the display. Not part of the product.
//
//   PickupDisplayDemo [--port N]     prints "listening on PORT", then reads:
//   place N | advance N | collect N | board P1,P2;R1,R2 | quit
// `advance` moves a number from 製作中 to 可取餐; `collect` takes it off the screen.

var port = 0
var arguments = CommandLine.arguments.dropFirst()
while let word = arguments.popFirst() {
    if word == "--port", let value = arguments.popFirst().flatMap(Int.init) { port = value } else {
        FileHandle.standardError.write(Data("usage: PickupDisplayDemo [--port N]\n".utf8))
        exit(2)
    }
}

let feed = PickupBoardFeed()
let display = PickupDisplay(source: feed, heartbeat: .seconds(5))
let server = HTTPServer(
    configuration: .init(port: port),
    handler: display.handler { _ in .text("only the pickup screen is served here: /display\n", status: 404) })
let bound = try server.start()
say("listening on \(bound)")

/// One line on standard output, written at once (the reader is a pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Applies one command line to `board`; nil when the line is not understood.
func apply(_ line: String, to board: PickupBoard) -> PickupBoard? {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    guard let verb = words.first else { return board }
    var board = board
    func number() -> Int? { words.count == 2 ? Int(words[1]) : nil }
    switch verb {
    case "place":
        guard let n = number() else { return nil }
        board.preparing.append(n)
    case "advance":
        guard let n = number(), board.preparing.contains(n) else { return nil }
        board.preparing.removeAll { $0 == n }
        board.ready.append(n)
    case "collect":
        guard let n = number() else { return nil }
        board.ready.removeAll { $0 == n }
    case "board":
        let halves = (words.count == 2 ? words[1] : ";").split(separator: ";", omittingEmptySubsequences: false)
        func numbers(_ text: Substring?) -> [Int] { (text ?? "").split(separator: ",").compactMap { Int($0) } }
        board = PickupBoard(preparing: numbers(halves.first), ready: numbers(halves.dropFirst().first))
    default:
        return nil
    }
    return board
}

// Standard input is read on a thread of its own, never on the cooperative pool.
let reader = Thread {
    var board = PickupBoard()
    while let line = readLine() {
        let line = line.trimmingCharacters(in: .whitespaces)
        if line == "quit" { break }
        if let next = apply(line, to: board) {
            board = next
            feed.publish(board)
            say("ok \(board.json)")
        } else {
            say("? \(line)")
        }
    }
    feed.finish()
    Task { await server.shutdown() }
}
reader.start()
let signals = server.shutdownOnSignals()
try await server.run()
signals.cancel()
