import Airtable
import AirtableFormula
import Foundation

/// Comments on records, in the SQL table `record_comments` (made with the first comment, so an older
/// file is upgraded by use and a file nobody comments in is left as it was). A record's comments go
/// with it when it is deleted.
extension BaseContext {
    static let commentTable = "record_comments"
    /// Airtable's largest page of comments.
    static let maximumCommentPage = 100

    func hasCommentTable() throws -> Bool {
        try file.connection.schemaHas("table", named: Self.commentTable)
    }

    private func ensureCommentTable() throws {
        try file.connection.execute("""
            CREATE TABLE IF NOT EXISTS \(Self.commentTable) (
                id TEXT PRIMARY KEY,
                table_id TEXT NOT NULL,
                record_id TEXT NOT NULL,
                author TEXT NOT NULL,
                text TEXT NOT NULL,
                created_ms INTEGER NOT NULL,
                updated_ms INTEGER
            );
            CREATE INDEX IF NOT EXISTS comments_by_record ON \(Self.commentTable) (record_id, created_ms);
            """)
    }

    /// The record `id` of `table`, or Airtable's 403 for a record that is not there.
    private func existingRecord(_ tableName: String, _ id: String) throws -> TableSchema {
        let table = try table(tableName)
        guard try RecordRows(file: file, tableID: table.id).find(id: id) != nil else { throw APIError.modelNotFound }
        return table
    }

    func comments(in tableName: String, record: String, pageSize: Int, offset: String?) throws -> CommentPage {
        guard (1...Self.maximumCommentPage).contains(pageSize) else {
            throw APIError.invalidPageSize
        }
        return try file.connection.readTransaction {
            let table = try existingRecord(tableName, record)
            var all: [RecordComment] = []
            if try hasCommentTable() { try file.connection.query("""
                SELECT id, author, text, created_ms, updated_ms FROM \(Self.commentTable)
                WHERE table_id = ?1 AND record_id = ?2 ORDER BY created_ms DESC, rowid DESC
                """, [.text(table.id), .text(record)]) { row in
                all.append(try comment(row))
            } }
            var start = 0
            if let offset, !offset.isEmpty {
                guard let index = all.firstIndex(where: { $0.id == offset }) else { throw APIError.invalidOffset(offset) }
                start = index
            }
            let end = min(all.count, start + pageSize)
            return CommentPage(comments: Array(all[start..<end]), offset: end < all.count ? all[end].id : nil)
        }
    }

    func addComment(in tableName: String, record: String, text: String, author: Collaborator) throws -> RecordComment {
        try file.connection.writeTransaction {
            let table = try existingRecord(tableName, record)
            try ensureCommentTable()
            let now = now()
            let id = AirtableID.make("com")
            try file.connection.run("""
                INSERT INTO \(Self.commentTable)(id, table_id, record_id, author, text, created_ms)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                """, [.text(id), .text(table.id), .text(record), .text(JSONWriter.string(author.json)), .text(text),
                      .integer(now)])
            return try makeComment(id: id, author: author, text: text, created: now, updated: nil)
        }
    }

    func updateComment(in tableName: String, record: String, id: String, text: String, author: Collaborator)
        throws -> RecordComment
    {
        try file.connection.writeTransaction {
            let stored = try storedComment(tableName, record, id)
            guard stored.author.id == author.id else {
                throw APIError(status: 403, type: "INVALID_PERMISSIONS",
                               message: "Only the author of comment \(id) can change it")
            }
            let now = now()
            try file.connection.run("UPDATE \(Self.commentTable) SET text = ?1, updated_ms = ?2 WHERE id = ?3",
                                    [.text(text), .integer(now), .text(id)])
            return try makeComment(id: id, author: stored.author, text: text, created: millis(stored.createdTime),
                                   updated: now)
        }
    }

    func deleteComment(in tableName: String, record: String, id: String, author: Collaborator) throws {
        try file.connection.writeTransaction {
            let stored = try storedComment(tableName, record, id)
            guard stored.author.id == author.id else {
                throw APIError(status: 403, type: "INVALID_PERMISSIONS",
                               message: "Only the author of comment \(id) can delete it")
            }
            try file.connection.run("DELETE FROM \(Self.commentTable) WHERE id = ?1", [.text(id)])
        }
    }

    func commentCounts(in tableName: String, records: [String]) throws -> [String: Int] {
        try file.connection.readTransaction {
            _ = try table(tableName)
            guard try hasCommentTable(), !records.isEmpty else { return [:] }
            var counts: [String: Int] = [:]
            for id in records {
                counts[id] = Int(try file.connection.integerValue(
                    "SELECT count(*) FROM \(Self.commentTable) WHERE record_id = ?1", [.text(id)]) ?? 0)
            }
            return counts
        }
    }

    /// Drops the comments of deleted records. Call inside the delete's write transaction.
    func deleteComments(ofRecords ids: [String]) throws {
        guard try hasCommentTable() else { return }
        for id in ids { try file.connection.run("DELETE FROM \(Self.commentTable) WHERE record_id = ?1", [.text(id)]) }
    }

    private func storedComment(_ tableName: String, _ record: String, _ id: String) throws -> RecordComment {
        let table = try existingRecord(tableName, record)
        guard try hasCommentTable() else { throw APIError.modelNotFound }
        var found: RecordComment?
        try file.connection.query("""
            SELECT id, author, text, created_ms, updated_ms FROM \(Self.commentTable)
            WHERE id = ?1 AND table_id = ?2 AND record_id = ?3
            """, [.text(id), .text(table.id), .text(record)]) { row in
            found = try comment(row)
        }
        guard let found else { throw APIError.modelNotFound }
        return found
    }

    private func comment(_ row: SQLiteStatement) throws -> RecordComment {
        let author = Collaborator(json: try JSONParser.parse(row.text(1) ?? "{}"))
            ?? Collaborator(id: "usrUnknownAuthor0", email: "", name: "")
        return try makeComment(id: row.text(0) ?? "", author: author, text: row.text(2) ?? "", created: row.int64(3),
                               updated: row.isNull(4) ? nil : row.int64(4))
    }

    private func makeComment(id: String, author: Collaborator, text: String, created: Int64, updated: Int64?)
        throws -> RecordComment
    {
        let known = Dictionary(try storedUsers().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var mentioned: [String: Collaborator] = [:]
        for id in RecordComment.mentionedIDs(in: text) { if let user = known[id] { mentioned[id] = user } }
        return RecordComment(id: id, author: author, text: text, createdTime: date(created),
                             lastUpdatedTime: updated.map(date), mentioned: mentioned)
    }

    private func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }
}
