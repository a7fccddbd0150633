import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// A group order (揪團) of the customers' page as the store keeps it (`OnlineGroup`): the page's own state as
/// text, under the digest of the group's link id. The shop reads nothing in it.
public struct KeptGroup: Sendable, Equatable {
    /// The record holding it; nil before it was first written.
    public var recordID: String?
    /// The SHA-256 of the group's link id, in hex.
    public var key: String
    /// The group as the page writes it (JSON).
    public var state: String
    /// When the page forgets it; the store's copy is dropped then too.
    public var expiresAt: Date

    public init(recordID: String? = nil, key: String, state: String, expiresAt: Date) {
        self.recordID = recordID
        self.key = key
        self.state = state
        self.expiresAt = expiresAt
    }
}

/// The page's groups in the store, so a restart of `drinkshop serve` forgets none. Each write is one record
/// written (durably, on the embedded store) before the page answers; the page writes one at a time.
extension Counter {
    private var groupStore: any RecordStore { orders.records.store }

    /// Every group the store keeps (expired ones too: the page drops them).
    /// - Returns: the groups, and the records that could not be read as one (left in the store).
    public func keptGroups() async throws(ShopError) -> (groups: [KeptGroup], unreadable: [String]) {
        let records: [Record]
        do { records = try await groupStore.allRecords(in: ShopSchema.onlineGroupTable) } catch { throw .store(error) }
        var groups: [KeptGroup] = [], unreadable: [String] = []
        for record in records {
            guard let key = record.fields[OnlineGroupField.key]?.stringValue,
                  let state = record.fields[OnlineGroupField.state]?.stringValue,
                  let expires = record.fields[OnlineGroupField.expiresAt]?.stringValue.flatMap(AirtableTimestamp.parse)
            else {
                unreadable.append(record.id)
                continue
            }
            groups.append(KeptGroup(recordID: record.id, key: key, state: state, expiresAt: expires))
        }
        return (groups, unreadable)
    }

    /// Writes `group` (a new record the first time).
    /// - Returns: its record's id.
    public func keep(_ group: KeptGroup) async throws(ShopError) -> String {
        let fields = Fields([OnlineGroupField.key: .string(group.key), .state: .string(group.state),
                             .expiresAt: .string(AirtableTimestamp.format(group.expiresAt))])
        do {
            if let id = group.recordID {
                return try await groupStore.updateRecord(in: ShopSchema.onlineGroupTable, id: id, fields).id
            }
            return try await groupStore.createRecord(in: ShopSchema.onlineGroupTable, fields).id
        } catch {
            throw .store(error)
        }
    }

    /// Deletes the records of groups the page has dropped (expired).
    public func forgetGroups(_ recordIDs: [String]) async throws(ShopError) {
        var left = recordIDs[...]
        while !left.isEmpty {
            let batch = Array(left.prefix(10))
            left = left.dropFirst(batch.count)
            do { _ = try await groupStore.deleteRecords(in: ShopSchema.onlineGroupTable, ids: batch) } catch { throw .store(error) }
        }
    }

    /// A new key for an order's records, for the page to keep before it places the order (`placeOnline`'s
    /// `orderRef`), so the order can be found again by it.
    public func newOrderRef() -> String { orders.makeOrderRef() }

    /// The order placed from the page with `orderRef`, if there is one: how a group that was being sent when
    /// the server stopped learns whether its order was placed (then it is not placed again).
    public func placedOnlineOrder(_ orderRef: String) async throws(ShopError) -> OnlineTicket? {
        let menu = try await orders.catalog.snapshot(refresh: false).menu
        let records = try await orders.records.list(.field(OrderField.orderRef) == .text(orderRef))
        guard let stored = OrderRecord.orders(from: records, menu: menu, clock: clock).orders
            .first(where: { $0.orderRef == orderRef && $0.isOnline })
        else { return nil }
        return OnlineTicket(number: stored.order.pickupNumber, day: stored.businessDay, orderRef: orderRef, total: stored.order.total)
    }
}
