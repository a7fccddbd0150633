"""Probe of mixed versions on one `drinkshop serve`: a counter older than the payment key pays the way it always did
(an upsert merged on a fresh random ref, or a create with no ref, then a read-back of the ledger). Beside a new counter,
whose keyed payment is never read back, that could be a second payment of one bill, so serve refuses it and tells the
staff to update that counter; a keyed payment is still taken."""

import secrets


def probe_old_counter_payment_is_refused(ctx):
    failures = []
    server = ctx.server("old-counter-payment")
    try:
        path = f"/v0/{server.base_id}/TillPayment"
        fields = {"orderRef": "ordOLD", "pickupNumber": 1, "kind": "payment", "method": "cash", "amount": 35, "by": "Old"}
        upsert = {"performUpsert": {"fieldsToMergeOn": ["ref"]}, "typecast": True,
                  "records": [{"fields": dict(fields, ref="pay" + secrets.token_hex(7))}]}
        create = {"typecast": True, "records": [{"fields": dict(fields)}]}
        for name, method, body in (("upsert on a random ref", "PATCH", upsert), ("create with no ref", "POST", create)):
            status, answer, _ = server.request(method, path, body)
            error = answer.get("error", {}) if isinstance(answer, dict) else {}
            message = error.get("message", "") if isinstance(error, dict) else ""
            if status != 422 or error.get("type") != "KEY_REQUIRED" or "Update drinkshop" not in message:
                failures.append(f"an old counter's payment ({name}) was answered {status} {str(answer)[:160]}")
        keyed = {"records": [{"fields": dict(fields, ref="ordOLD#0")}]}
        status, answer, _ = server.request("POST", path, keyed)
        if status != 200:
            failures.append(f"a keyed payment was answered {status} {str(answer)[:160]}")
        status, answer, _ = server.request("GET", path)
        refs = sorted(r["fields"].get("ref", "") for r in answer.get("records", [])) if status == 200 else []
        if refs != ["ordOLD#0"]:
            failures.append(f"the ledger holds {refs}, not the one keyed payment")
    finally:
        server.stop()
    figure = f"{len(failures)} old-counter or keyed payment writes answered wrongly (of 3)"
    return (not failures, figure, failures)


PROBES = [
    ("payment-keys-old-counter", "an older counter's payment on serve (no key, or a random one) is refused 422 "
     "KEY_REQUIRED telling staff to update; a keyed payment is taken", probe_old_counter_payment_is_refused),
]
