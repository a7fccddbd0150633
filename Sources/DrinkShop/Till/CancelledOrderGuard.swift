import Airtable
import AirtableFormula
import DrinkShopCore

/// The rule `drinkshop serve` holds for every payment created in `TillPayment` (`CreateGuard`): none is taken for an
/// order that is cancelled, decided in the payment's own commit, as the embedded store's `pay` decides it. A counter
/// on serve then needs no read of the order's status after its payment (the payer's half of the pay/cancel
/// handshake): a cancel written before the payment refuses it, and one written after it reads the ledger and gives
/// the money back. The order's lines are found as the number lookup finds them (`OrderRecords.withNumberFormula`:
/// the payment's day and pickup number, through the index the lookup already has), then by the payment's `orderRef`.
struct CancelledOrderGuard: CreateGuard {
    static let guardName = "TillPayment.orderNotCancelled"
    /// The error type (status 422) of a refused payment.
    static let refusalType = "ORDER_CANCELLED"

    var name: String { Self.guardName }
    var table: String { ShopSchema.paymentTable }

    func refusal(of fields: Fields, in transaction: any RecordTransaction) throws(AirtableError) -> APIError? {
        guard fields[PaymentField.kind]?.stringValue == MoneyRecord.Kind.payment.rawValue,
              let orderRef = fields[PaymentField.orderRef]?.stringValue, !orderRef.isEmpty,
              let number = fields[PaymentField.pickupNumber]?.intValue,
              let day = fields[PaymentField.businessDay]?.stringValue, !day.isEmpty
        else { return nil }
        var query = ListQuery(filterByFormula: OrderRecords.withNumberFormula(number, today: day).description,
                              fields: [OrderField.orderRef.rawValue, OrderField.status.rawValue])
        var cancelled = false
        repeat {
            let page = try transaction.listRecords(in: ShopSchema.orderTable, query: query)
            cancelled = page.records.contains {
                $0.fields[OrderField.orderRef]?.stringValue == orderRef
                    && $0.fields[OrderField.status]?.stringValue == OrderStatus.cancelled.rawValue
            }
            query.offset = page.offset
        } while !cancelled && query.offset != nil
        guard cancelled else { return nil }
        return APIError(status: 422, type: Self.refusalType,
                        message: "Order #\(number) of \(day) is cancelled: no payment is taken for it (此單已取消，不收款)")
    }
}
