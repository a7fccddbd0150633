"""Probes of the rules `drinkshop serve` keeps on the payment ledger and pickup tickets, whatever a request calls the
fields: no payment for a cancelled order (checked in the payment's own commit, said in X-DrinkShop-Create-Guards),
and a kept key never given twice, whether the fields are named by their names or by their ids (Airtable takes both)."""


def _fields_by_id(server, table):
    status, schema, _ = server.request("GET", f"/v0/meta/bases/{server.base_id}/tables")
    if status != 200:
        raise RuntimeError(f"the schema was answered {status}")
    for entry in schema["tables"]:
        if entry["name"] == table:
            return {field["name"]: field["id"] for field in entry["fields"]}
    raise RuntimeError(f"no table {table}")


def probe_no_payment_for_a_cancelled_order(ctx):
    """A cancelled order's line, then payments for it: by field names, by field ids, in a batch beside a payment of a
    standing order. Every one is refused (422 ORDER_CANCELLED), nothing is written, the header names the guard; a
    refund of the cancelled order and a payment of a standing one are taken."""
    failures = []
    server = ctx.server("payment-guard")
    try:
        orders = f"/v0/{server.base_id}/OrderDrink"
        payments = f"/v0/{server.base_id}/TillPayment"
        day = "2026-12-06"
        lines = {"typecast": True, "records": [
            {"fields": {"drinkName": "熟成紅茶", "orderRef": "ordCANCEL", "pickupNumber": 7, "businessDay": day,
                        "status": "cancelled"}},
            {"fields": {"drinkName": "熟成紅茶", "orderRef": "ordSTAND", "pickupNumber": 8, "businessDay": day,
                        "status": "placed"}}]}
        status, answer, _ = server.request("POST", orders, lines)
        if status != 200:
            raise RuntimeError(f"the order lines were answered {status} {str(answer)[:160]}")

        def payment(ref, number, kind="payment"):
            return {"ref": f"{ref}#0" if kind == "payment" else f"{ref}-refund-card", "orderRef": ref,
                    "pickupNumber": number, "businessDay": day, "kind": kind, "method": "card", "amount": 40}

        ids = _fields_by_id(server, "TillPayment")
        by_id = {ids[name]: value for name, value in payment("ordCANCEL", 7).items()}
        tries = [("by field names", [payment("ordCANCEL", 7)]), ("by field ids", [by_id]),
                 ("in a batch beside a standing order's", [payment("ordSTAND", 8), payment("ordCANCEL", 7)])]
        for name, records in tries:
            status, answer, headers = server.request("POST", payments, {"records": [{"fields": f} for f in records]})
            error = answer.get("error", {}) if isinstance(answer, dict) else {}
            if status != 422 or not isinstance(error, dict) or error.get("type") != "ORDER_CANCELLED":
                failures.append(f"a payment of a cancelled order ({name}) was answered {status} {str(answer)[:160]}")
            said = {k.lower(): v for k, v in (headers.items() if hasattr(headers, "items") else headers)}
            if "TillPayment.orderNotCancelled" not in said.get("x-drinkshop-create-guards", "").split(","):
                failures.append(f"the answer ({name}) does not name the guard: {said.get('x-drinkshop-create-guards')!r}")
        upsert = {"performUpsert": {"fieldsToMergeOn": ["ref"]}, "records": [{"fields": payment("ordCANCEL", 7)}]}
        status, answer, _ = server.request("PATCH", payments, upsert)
        error = answer.get("error", {}) if isinstance(answer, dict) else {}
        if status != 422 or not isinstance(error, dict) or error.get("type") != "ORDER_CANCELLED":
            failures.append(f"a payment of a cancelled order (upserted on its key) was answered {status} {str(answer)[:160]}")
        status, answer, _ = server.request("GET", payments)
        if status != 200 or answer.get("records"):
            failures.append(f"the ledger holds {len(answer.get('records', []))} records after the refusals")
        for name, fields in (("a refund of the cancelled order", payment("ordCANCEL", 7, kind="refund")),
                             ("a payment of the standing order", payment("ordSTAND", 8))):
            status, answer, _ = server.request("POST", payments, {"records": [{"fields": fields}]})
            if status != 200:
                failures.append(f"{name} was answered {status} {str(answer)[:160]}")
        # The standing order's key is taken: a second payment under it, named by field ids, is a duplicate.
        second = {ids[name]: value for name, value in payment("ordSTAND", 8).items()}
        status, answer, _ = server.request("POST", payments, {"records": [{"fields": second}]})
        error = answer.get("error", {}) if isinstance(answer, dict) else {}
        if status != 422 or not isinstance(error, dict) or error.get("type") != "DUPLICATE_KEY_VALUE":
            failures.append(f"a second payment under a taken key, by field ids, was answered {status} {str(answer)[:160]}")
        # A pickup ticket's key, named by its id, is kept unique too.
        tickets = f"/v0/{server.base_id}/PickupTicket"
        key_id = _fields_by_id(server, "PickupTicket")["key"]
        answers = [server.request("POST", tickets, {"records": [{"fields": {field: f"{day}#900"}}]})[0]
                   for field in ("key", key_id)]
        if answers != [200, 422]:
            failures.append(f"two tickets for one key (by name, then by id) were answered {answers}")
    finally:
        server.stop()
    figure = f"{len(failures)} of 10 writes answered wrongly (cancelled-order payments, keys spelled by field id)"
    return (not failures, figure, failures)


PROBES = [
    ("payment-guard-cancelled", "payments for a cancelled order on serve, by field names, by ids and in a batch, are "
     "refused 422 ORDER_CANCELLED with nothing written, an upsert on the key too; kept keys hold when named by field id",
     probe_no_payment_for_a_cancelled_order),
]
