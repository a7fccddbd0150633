import Foundation
@testable import LocalBase
import Testing

/// `SQLiteConnection.schemaHas` keeps the file's schema names between calls (every write asks it): it
/// must still see what another connection made or dropped, and forget what a write of its own undid.
@Suite struct SchemaNamesTests {
    @Test func anIndexMadeOrDroppedByAnotherConnectionIsSeen() throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let asking = try SQLiteConnection(path: path)
        try asking.execute("PRAGMA journal_mode = WAL; CREATE TABLE t(a)")
        let other = try SQLiteConnection(path: path)
        #expect(try asking.schemaHas("table", named: "t"))
        #expect(try !asking.schemaHas("index", named: "t_a"))
        try other.execute("CREATE INDEX t_a ON t(a)")
        #expect(try asking.schemaHas("index", named: "t_a"))
        #expect(try !asking.schemaHas("table", named: "t_a"))
        try other.execute("DROP INDEX t_a")
        #expect(try !asking.schemaHas("index", named: "t_a"))
    }

    /// An index made and asked about in a write that is then undone leaves the cookie where it was before:
    /// another connection's next change brings it back to the value the undone write had.
    @Test func anIndexOfAWriteUndoneIsForgotten() throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let asking = try SQLiteConnection(path: path)
        try asking.execute("PRAGMA journal_mode = WAL; CREATE TABLE t(a)")
        struct Undo: Error {}
        #expect(throws: Undo.self) {
            try asking.writeTransaction {
                try asking.execute("CREATE INDEX t_a ON t(a)")
                #expect(try asking.schemaHas("index", named: "t_a"))
                throw Undo()
            }
        }
        try SQLiteConnection(path: path).execute("CREATE INDEX t_b ON t(a)")
        #expect(try !asking.schemaHas("index", named: "t_a"))
        #expect(try asking.schemaHas("index", named: "t_b"))
    }
}
