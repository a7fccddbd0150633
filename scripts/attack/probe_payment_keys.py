"""Probes of the payment ledger on `drinkshop serve`: a payment is created under a key naming the ledger state it was
worked out from, and the server keeps that key unique, so two payments worked out from one state cannot both be
written (a counter then needs no read-back of the ledger)."""


def probe_second_payment_under_one_key_is_refused(ctx):
    """Two creates of a payment under one key, as two counters paying one order at the same instant send them: the
    server names TillPayment.ref among the keys it keeps unique, takes the first and refuses the second with 422
    DUPLICATE_KEY_VALUE; the ledger holds one payment. A refund's upsert merged on its key is still taken."""
    failures = []
    server = ctx.server("payment-keys")
    try:
        path = f"/v0/{server.base_id}/TillPayment"
        payment = {"records": [{"fields": {"ref": "ordPROBE#0", "orderRef": "ordPROBE", "kind": "payment",
                                           "method": "card", "amount": 35}}]}
        status, _, headers = server.request("POST", path, payment)
        said = {name.lower(): value for name, value in (headers.items() if hasattr(headers, "items") else headers)}
        keys = said.get("x-drinkshop-unique-keys", "")
        if status != 200:
            failures.append(f"the first payment was answered {status}")
        if "TillPayment.ref" not in keys.split(","):
            failures.append(f"the server does not say it keeps TillPayment.ref unique (X-DrinkShop-Unique-Keys: {keys!r})")
        status, body, _ = server.request("POST", path, payment)
        kind = body.get("error", {}).get("type") if isinstance(body, dict) else None
        if status != 422 or kind != "DUPLICATE_KEY_VALUE":
            failures.append(f"a second payment under one key was answered {status} {kind or str(body)[:120]}")
        refund = {"performUpsert": {"fieldsToMergeOn": ["ref"]},
                  "records": [{"fields": {"ref": "ordPROBE-refund-card", "orderRef": "ordPROBE", "kind": "refund",
                                          "method": "card", "amount": 35}}]}
        for attempt in (1, 2):
            status, body, _ = server.request("PATCH", path, refund)
            if status != 200:
                failures.append(f"a refund upserted on its key (try {attempt}) was answered {status} {str(body)[:120]}")
        status, body, _ = server.request("GET", path)
        refs = sorted(record["fields"].get("ref", "") for record in body.get("records", [])) if status == 200 else []
        if refs != ["ordPROBE#0", "ordPROBE-refund-card"]:
            failures.append(f"the ledger holds {refs}, not one payment and one refund")
    finally:
        server.stop()
    figure = f"{len(failures)} ways two payments under one key, or a refund's upsert, went wrong"
    return (not failures, figure, failures)


PROBES = [
    ("payment-keys-unique", "two payments under one key on serve: the second is refused (422 DUPLICATE_KEY_VALUE), the "
     "header names TillPayment.ref, a refund's upsert on its key is still taken", probe_second_payment_under_one_key_is_refused),
]
