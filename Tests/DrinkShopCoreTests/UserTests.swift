import Testing
@testable import DrinkShopCore

@Suite struct UserTests {
    @Test func namesAreTrimmed() throws {
        let staff = try User(name: "  小美 ", role: .staff)
        #expect(staff.name == "小美")
        #expect(staff.role.canPlaceOrders)
        #expect(!(try User(name: "Amy", role: .guest)).role.canPlaceOrders)
    }

    @Test func aNameIsRequired() {
        #expect(throws: PersonNameError.empty(field: "name")) { try User(name: " \n ", role: .guest) }
        #expect(PersonNameError.empty(field: "name").description == "name: a name is required (請輸入名稱)")
    }

    @Test func atMostFiftyScalarsAndOneHundredFiftyUTF8Bytes() throws {
        #expect(try User(name: String(repeating: "美", count: 50), role: .customer).name.count == 50)
        #expect(throws: PersonNameError.tooLong(field: "name", length: 51)) {
            try User(name: String(repeating: "美", count: 51), role: .customer)
        }
        #expect(throws: PersonNameError.tooLong(field: "name", length: 60)) {
            try User(name: String(repeating: "A", count: 60), role: .customer)
        }
        // One "character" of a base letter and 100 combining marks is 101 scalars (201 bytes), not 1.
        #expect(throws: PersonNameError.tooLong(field: "name", length: 101)) {
            try User(name: "a" + String(repeating: "\u{301}", count: 100), role: .customer)
        }
        // 50 scalars of four bytes each are 200 bytes: refused by the bytes.
        #expect(throws: PersonNameError.self) { try User(name: String(repeating: "😀", count: 40), role: .customer) }
    }

    @Test(arguments: ["A\tB", "A\u{1B}[2KB", "Amy\u{202E}ecila", "A\u{2028}B", "Be\u{200B}n", "\u{600}<b"])
    func oneLineOfVisibleTextOnly(name: String) {
        #expect(throws: PersonNameError.controlCharacters(field: "name")) { try User(name: name, role: .staff) }
    }

    @Test func noWordMixesLookAlikeScripts() throws {
        // Cyrillic В and е with a Latin n: at a glance, Ben.
        #expect(throws: PersonNameError.lookAlikeLetters(field: "name")) { try User(name: "\u{412}\u{435}n", role: .staff) }
        #expect(try User(name: "Ben Иванов", role: .staff).name == "Ben Иванов")
        #expect(try User(name: "Zoë 王", role: .staff).name == "Zoë 王")
    }

    @Test func rolesAreStoredAsPlainWords() {
        #expect(UserRole.allCases.map(\.rawValue) == ["staff", "customer", "guest"])
    }
}
