import Airtable
import DrinkShopCore
import Foundation

/// The staff while a remote base cannot be reached (unreachable, rate limited, out of quota): each reading of
/// the `User` table is kept in the counter's outbox, and while the base is away logins and one-shot commands
/// are checked against that copy (names, roles, PIN hashes), so a counter opened during an outage still
/// proves who is acting and takes orders into the outbox at once.
///
/// Tries of a PIN are counted in the copy with the same rule as in the store (counted before the PIN is
/// compared, locked after the policy's last), so a burst of wrong PINs locks out here too. What is not
/// done: the copy is read and written back, not in one step, so tries that arrive at the very same instant
/// from several processes can each count once (as over the API); and once the base answers again, its own
/// count replaces the copy's (a lock earned only while it was away ends then). Staff are never added,
/// changed or removed from the copy: those changes wait for the base.
extension StaffDirectory {
    /// The `User` records: from the store (and kept for an outage), or while the store is away, as last kept.
    func userRecords() async throws(TillError) -> [Record] {
        if let kept = keptWhileAway(), let records = await keptStaff(in: kept) { return records }
        let records: [Record]
        do {
            records = try await store.allRecords(in: ShopSchema.userTable)
        } catch {
            if let kept = outbox(after: error), let records = await keptStaff(in: kept) { return records }
            throw .shop(.store(error))
        }
        // A copy that cannot be kept costs nothing now: the store answered.
        if let notes { try? await notes.remember(records, of: ShopSchema.userTable) }
        return records
    }

    /// The outbox to go by instead of the store: the store is away and not due to be tried again.
    func keptWhileAway() -> Outbox? {
        delivery?.outboxWithoutTrying(at: now())
    }

    /// The outbox to go by after `error`, when it means the store is away (which it then marks).
    func outbox(after error: AirtableError) -> Outbox? {
        delivery?.outbox(after: .store(error), at: now())
    }

    /// Counts one try of `account`'s PIN in the kept copy, as `countTry` does in the store.
    func countTryWhileAway(_ account: StaffAccount, at date: Date, in outbox: Outbox) async throws(TillError) -> LoginError {
        guard let records = await keptStaff(in: outbox), let record = records.first(where: { $0.id == account.recordID }) else {
            throw .noSuchStaff(account.name)
        }
        let (cells, outcome) = Self.counting(record, at: date)
        if let cells { try await changeWhileAway(account, cells, in: outbox) }
        switch outcome {
        case .success(let ifWrong): return ifWrong
        case .failure(let locked): throw .login(locked)
        }
    }

    /// Writes `cells` on `account`'s record in the kept copy.
    func changeWhileAway(_ account: StaffAccount, _ cells: Fields, in outbox: Outbox) async throws(TillError) {
        guard var records = await keptStaff(in: outbox), let index = records.firstIndex(where: { $0.id == account.recordID }) else {
            throw .noSuchStaff(account.name)
        }
        var record = records[index]
        for (key, value) in cells { record.fields[key] = value.isEmptyCell ? nil : value }
        records[index] = record
        do { try await outbox.remember(records, of: ShopSchema.userTable) } catch { throw .shop(error) }
    }

    private func keptStaff(in outbox: Outbox) async -> [Record]? {
        try? await outbox.remembered(ShopSchema.userTable)
    }
}
