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

    @Test func atMostFiftyCharacters() throws {
        #expect(try User(name: String(repeating: "美", count: 50), role: .customer).name.count == 50)
        #expect(throws: PersonNameError.tooLong(field: "name", length: 51)) {
            try User(name: String(repeating: "a", count: 51), role: .customer)
        }
    }

    @Test func oneLineOnly() {
        #expect(throws: PersonNameError.controlCharacters(field: "name")) { try User(name: "A\tB", role: .staff) }
    }

    @Test func rolesAreStoredAsPlainWords() {
        #expect(UserRole.allCases.map(\.rawValue) == ["staff", "customer", "guest"])
    }
}
