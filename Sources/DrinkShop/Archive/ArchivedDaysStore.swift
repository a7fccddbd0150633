import Airtable

/// The shop's store once it has an archive: every write goes to the base; a listing of a day table
/// (order lines, the till's records, shifts, the audit trail) reads the base and then the archive, so
/// `orders --date`, the reports and the export of an archived day work as before. A record found in both
/// (a day whose archiving stopped between copying and removing) counts once, as the base has it.
///
/// Such a listing answers in one page (the base's pages are read through), with the archive's records
/// after the base's, each part in the query's order. Listings that page or cap by hand (`maxRecords`, an
/// offset, a view) and every other table go to the base alone.
struct ArchivedDaysStore: WrappingRecordStore, WholeListing {
    let base: any RecordStore
    let archive: DayArchive
    /// Writes go to the base unchanged (today's tickets and lines are never in the archive).
    var underlying: any RecordStore { base }

    /// Whether a listing reads the archive too: a day table's, in one page, as the base's pages read it.
    private func readsBack(_ table: String, _ query: ListQuery) -> Bool {
        DayTables.readBack.contains(table) && query.maxRecords == nil && query.offset == nil && query.view == nil
            && query.cellFormat == .json && !query.returnFieldsByFieldId && archive.isStarted
    }

    func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        guard readsBack(table, query) else { return try await base.listRecords(in: table, query: query) }
        let fromBase = try await base.allRecords(in: table, query: query)
        var archiveQuery = query
        archiveQuery.pageSize = nil
        archiveQuery.includeCommentCount = false
        let archived = try await archiveStore().allRecords(in: table, query: archiveQuery)
        guard !archived.isEmpty else { return RecordPage(records: fromBase) }
        let seen = Set(fromBase.map(\.id))
        return RecordPage(records: fromBase + archived.filter { !seen.contains($0.id) })
    }

    /// A listing that reads the archive is one page already; any other is the base's, whole when it can.
    func listAllRecords(in table: String, query: ListQuery) async throws(AirtableError) -> [Record] {
        guard readsBack(table, query) else { return try await base.allRecords(in: table, query: query) }
        return try await listRecords(in: table, query: query).records
    }

    func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record {
        do {
            return try await base.getRecord(in: table, id: id, options: options)
        } catch where error.isNotFound && DayTables.readBack.contains(table) && archive.isStarted {
            guard let archived = try? await archiveStore().getRecord(in: table, id: id, options: options) else { throw error }
            return archived
        }
    }

    /// The archive's base; a failure to open it is the archive file's, said as a local store's.
    private func archiveStore() async throws(AirtableError) -> any RecordKeeping {
        do { return try await archive.store() } catch {
            if case .store(let cause) = error { throw cause }
            throw .localStore("the archive \(archive.location) cannot be opened: \(error)")
        }
    }
}
