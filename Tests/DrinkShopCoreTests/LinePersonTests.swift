import Testing
@testable import DrinkShopCore

/// Whose line of a group order: written at the start of the line's note, read back by the cup sticker.
@Suite struct LinePersonTests {
    @Test func aPersonAndTheirNoteRoundTrip() throws {
        #expect(LinePerson.note(for: "Ben", "少一點奶") == "for Ben · 少一點奶")
        #expect(LinePerson.note(for: "Cara", nil) == "for Cara")
        let ben = try #require(LinePerson.parse("for Ben · 少一點奶"))
        #expect(ben.person == "Ben" && ben.note == "少一點奶")
        let cara = try #require(LinePerson.parse("for Cara"))
        #expect(cara.person == "Cara" && cara.note == nil)
        // A staff note that does not name anyone stays a note.
        #expect(LinePerson.parse("少冰塊") == nil)
        #expect(LinePerson.parse("for ") == nil)
        #expect(LinePerson.parse(nil) == nil)
    }
}
