import DrinkShop
import DrinkShopCore
import Foundation
import LineEditor
import Synchronization

/// `orders --watch`: the make line, full screen, refreshed from the order desk on a modest clock (every
/// second on this machine's own store, every 5 s on a remote base, within its rate budget), with keys to
/// move the selection and advance the selected order. Without a terminal it prints the make line once.
extension ShopInterpreter {
    /// How often the make line reads today's orders again.
    var makeLineInterval: Duration { shop.outbox == nil ? .seconds(1) : .seconds(5) }

    func watchOrders() async throws {
        guard let screen = makeLineScreen else {
            let (orders, problems) = try await shop.queue.makeLine()
            let menu = try? await shop.catalog.menu()
            say(MakeLineView.plain(orders, menu: menu, day: shop.clock.today, timeZone: shop.clock.timeZone))
            for problem in problems { warn(problem) }
            return
        }
        // The first read fails loudly, before the terminal is taken over.
        let first = try await shop.queue.makeLine()
        await screen.run { events in await watch(on: screen, events: events, first: first.orders) }
    }

    private enum Tick { case event(FullScreenTerminal.Event), refresh }

    private func watch(on screen: FullScreenTerminal, events: AsyncStream<FullScreenTerminal.Event>,
                       first: [StoredOrder]) async {
        var state = MakeLineView.State()
        state.menu = try? await shop.catalog.menu()
        state.update(first)
        // Keys are never dropped, however long a refresh takes on a busy machine (a dropped `q` left the
        // make line running); refreshes do not pile up: at most one waits.
        let (ticks, feed) = AsyncStream.makeStream(of: Tick.self, bufferingPolicy: .unbounded)
        let refreshWaiting = Mutex(false)
        let interval = makeLineInterval
        let forward = Task {
            for await event in events { feed.yield(.event(event)) }
            feed.finish()
        }
        let clock = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let alreadyWaiting = refreshWaiting.withLock { waiting in
                    defer { waiting = true }
                    return waiting
                }
                if !alreadyWaiting { feed.yield(.refresh) }
            }
        }
        defer {
            forward.cancel()
            clock.cancel()
        }
        _ = arrivals.untold(first)  // on the screen from the start: told
        draw(state, on: screen)
        loop: for await tick in ticks {
            switch tick {
            case .refresh:
                refreshWaiting.withLock { $0 = false }
                await refresh(&state)
                // An order from the customers' page: said in the footer, with the bell, once.
                let arrived = arrivals.untold(state.orders)
                if !arrived.isEmpty {
                    state.message = arrived.map(OnlineArrivals.line).joined(separator: "; ")
                    screen.bell()
                }
            case .event(.redraw):
                break
            case .event(.closed):
                break loop
            case .event(.key(let key)):
                switch key {
                case .text("q"), .text("Q"), .control("c"), .control("d"), .escape: break loop
                case .up, .text("k"): state.move(by: -1)
                case .down, .text("j"): state.move(by: 1)
                case .enter, .text(" "):
                    await advanceSelected(&state)
                    await refresh(&state)
                default: continue
                }
            }
            draw(state, on: screen)
        }
    }

    private func refresh(_ state: inout MakeLineView.State) async {
        do {
            let (orders, problems) = try await shop.queue.makeLine()
            // One long command: the shared settings are followed here, so what another counter sells out is flagged
            // within their reading's age (5 s), as it would be between commands.
            _ = await shop.counter.followSharedSettings()
            if let menu = try? await shop.catalog.menu() { state.menu = menu }
            state.update(orders)
            if let problem = problems.first { state.message = "note: \(problem)" }
        } catch {
            state.message = "could not read the orders (showing the last ones read): \(error)"
        }
    }

    private func advanceSelected(_ state: inout MakeLineView.State) async {
        guard let index = state.selectedIndex, let number = state.orders[index].number else {
            state.message = state.orders.isEmpty ? "nothing to advance" : "that order has no pickup number to advance"
            return
        }
        do {
            let stored = try await shop.counter.advance(number, by: try await acting())  // an unpaid handover is refused here too
            state.message = "\(number) is now \(stored.order.status.rawValue) (\(stored.order.status.chineseLabel))"
        } catch {
            state.message = "\(number) did not move: \(error)"
        }
    }

    private func draw(_ state: MakeLineView.State, on screen: FullScreenTerminal) {
        screen.draw(MakeLineView.screen(state, day: shop.clock.today, now: shop.clock.now(),
                                        timeZone: shop.clock.timeZone, style: style, rows: screen.size.rows))
    }
}
