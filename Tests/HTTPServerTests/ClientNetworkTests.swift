import Testing
@testable import HTTPServer

/// What every quota counts by: an address's network (IPv4 /24, IPv6 /64, IPv4-mapped as IPv4), and the fair share
/// of a cap one network may hold.
@Suite struct ClientNetworkTests {
    @Test(arguments: [
        ("127.0.0.1:51234", "127.0.0.0/24"),
        ("127.0.0.254:1", "127.0.0.0/24"),
        ("127.1.0.1:80", "127.1.0.0/24"),
        ("203.0.113.9", "203.0.113.0/24"),
        ("[::1]:8080", "0:0:0:0::/64"),
        ("[2001:db8:1:2::1]:443", "2001:db8:1:2::/64"),
        ("[2001:db8:1:2:ffff:eeee:dddd:cccc]:443", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::9", "2001:db8:1:3::/64"),
        ("[::ffff:198.51.100.7]:5000", "198.51.100.0/24"),
        ("[fe80::1%eth0]:9", "fe80:0:0:0::/64"),
        ("", ""),
        ("made-up peer", "made-up peer"),
    ])
    func anAddressCountsAsItsNetwork(_ address: String, _ network: String) {
        #expect(ClientNetwork(remoteAddress: address).key == network)
    }

    @Test func everyAddressOfOneMachineIsOneNetworkAndTheNextNetworkIsAnother() {
        let keys = Set((1...254).map { ClientNetwork(remoteAddress: "127.0.0.\($0):4000").key })
        #expect(keys == ["127.0.0.0/24"])
        let six = Set((1...200).map { ClientNetwork(remoteAddress: "[2001:db8::\(String($0, radix: 16))]:1").key })
        #expect(six == ["2001:db8:0:0::/64"])
        #expect(ClientNetwork(remoteAddress: "127.1.0.1:4000") != ClientNetwork(remoteAddress: "127.0.0.1:4000"))
        #expect(ClientNetwork(remoteAddress: "[::ffff:127.0.0.9]:1") == ClientNetwork(remoteAddress: "127.0.0.1:2"))
        #expect(ClientNetwork(remoteAddress: nil).key == "")
    }

    @Test func oneNetworkNeverFillsACapAndTheNextFindsRoom() {
        // Alone: half (rounded up), so a cap of one can still be taken.
        #expect(FairShare.limit(cap: 512, heldByOthers: 0) == 256)
        #expect(FairShare.limit(cap: 1, heldByOthers: 0) == 1)
        #expect(FairShare.limit(cap: 20, heldByOthers: 10) == 5)
        #expect(FairShare.limit(cap: 512, heldByOthers: 0, perNetwork: 64) == 64)
        #expect(FairShare.limit(cap: 10, heldByOthers: 12) == 0)
        // A network takes all it may, then the next, and so on: each leaves the rest as much as it took.
        var held: [Int] = []
        for _ in 0..<4 {
            var mine = 0
            while FairShare.allows(holding: mine, total: held.reduce(0, +) + mine, cap: 100) { mine += 1 }
            held.append(mine)
        }
        #expect(held == [50, 25, 13, 6])
        #expect(held.reduce(0, +) < 100)
        // An amount (cups, NT$) is allowed only whole.
        #expect(FairShare.allows(60, holding: 0, total: 0, cap: 100) == false)
        #expect(FairShare.allows(50, holding: 0, total: 30, cap: 100) == false)
        #expect(FairShare.allows(35, holding: 0, total: 30, cap: 100))
    }
}
