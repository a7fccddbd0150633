"""Token scopes: the tables `drinkshop serve` keeps apart (staff, till) against tokens without their scopes,
reached by another spelling of the table's name, by a link or lookup, by typecast, by a webhook."""
import urllib.parse

FULL = "patATTACKFULL000000001"
READ = "patATTACKREAD000000002"
RECORDS = "patATTACKRECORDS000003"
SCHEMA = "patATTACKSCHEMA0000004"
HOOKS = "patATTACKHOOKS00000005"
TOKENS = {
    FULL: "read-write",
    READ: "read",
    RECORDS: "data.records:read data.records:write",
    SCHEMA: "schema.bases:read schema.bases:write data.records:read data.records:write",
    HOOKS: "webhook:manage data.records:read",
}
KEPT = ["User", "TillPayment", "Setting", "AuditLog", "Shift", "Member", "OrderTill", "Adjustment", "OnlineGroup"]


def spellings(name):
    quoted = "".join(f"%{ord(c):02X}" for c in name)
    return [name.lower(), name.upper(), name.swapcase(), name[0].lower() + name[1:], quoted, name.lower() + "/"]


def _users(server):
    status, body, _ = server.request("GET", f"/v0/{server.base_id}/User", token=FULL)
    return body.get("records", []) if status == 200 else None


def spelled_tables(ctx):
    server = ctx.server("scopes-spelling", tokens=TOKENS)
    failures, tries = [], 0
    try:
        before = _users(server)
        base = server.base_id
        for table in KEPT:
            for spelling in spellings(table):
                for token in (READ, RECORDS):
                    tries += 1
                    status, body, _ = server.request("GET", f"/v0/{base}/{spelling}", token=token)
                    if status == 200:
                        failures.append(f"GET {spelling} with a {'read' if token == READ else 'records'} token: 200")
                    if "pbkdf2" in str(body):
                        failures.append(f"GET {spelling}: a PIN hash in the answer")
        for spelling in spellings("User"):
            tries += 1
            status, _, _ = server.request("POST", f"/v0/{base}/{spelling}", token=RECORDS,
                                          body={"records": [{"fields": {"name": "Mallory", "role": "manager"}}]})
            if status == 200:
                failures.append(f"POST {spelling} with a records token made a staff member")
        if _users(server) != before:
            failures.append("the staff table changed")
        return not failures, f"{tries} spellings of {len(KEPT)} kept tables, {len(failures)} got through", failures
    finally:
        server.stop()


def through_links(ctx):
    server = ctx.server("scopes-links", tokens=TOKENS)
    failures, tries = [], 0
    try:
        base = server.base_id
        status, schema, _ = server.request("GET", f"/v0/meta/bases/{base}/tables", token=FULL)
        tables = {t["name"]: t for t in schema["tables"]}
        user_id = tables["User"]["id"]
        meta = f"/v0/meta/bases/{base}/tables"
        link = {"name": "spy", "type": "multipleRecordLinks", "options": {"linkedTableId": user_id}}
        tries += 2
        status, _, _ = server.request("POST", f"{meta}/Drink/fields", body=link, token=SCHEMA)
        if status == 200:
            failures.append("a schema token linked Drink to User")
        status, _, _ = server.request("POST", meta, token=SCHEMA, body={"name": "Spy", "fields": [
            {"name": "name", "type": "singleLineText"}, link]})
        if status == 200:
            failures.append("a schema token made a table linking to User")
        # The owner links and looks up (as an owner might); a records token then reads Drink.
        server.request("POST", f"{meta}/Drink/fields", body=dict(link, name="maker"), token=FULL)
        server.request("POST", f"{meta}/Drink/fields", token=FULL, body={
            "name": "makerPin", "type": "multipleLookupValues",
            "options": {"recordLinkFieldId": "maker", "fieldIdInLinkedTable": "pinHash"}})
        for query in ["", "?fields%5B%5D=makerPin", "?filterByFormula=" + urllib.parse.quote("FIND('pbkdf2',{makerPin})"),
                      "?returnFieldsByFieldId=true"]:
            tries += 1
            status, body, _ = server.request("GET", f"/v0/{base}/Drink{query}", token=RECORDS)
            if "pbkdf2" in str(body) or (query.startswith("?f") and status == 200):
                failures.append(f"GET Drink{query} with a records token: {status}, hash shown: {'pbkdf2' in str(body)}")
        before = _users(server)
        tries += 1
        status, _, _ = server.request("POST", f"/v0/{base}/Drink", token=RECORDS,
                                      body={"records": [{"fields": {"name": "x", "maker": ["Mallory"]}}], "typecast": True})
        if status == 200 or _users(server) != before:
            failures.append("typecast on a link to User made a staff record")
        return not failures, f"{tries} paths through links, lookups and typecast, {len(failures)} got through", failures
    finally:
        server.stop()


def through_webhooks(ctx):
    server = ctx.server("scopes-hooks", tokens=TOKENS)
    failures = []
    try:
        base = server.base_id
        status, body, _ = server.request("POST", f"/v0/bases/{base}/webhooks", token=HOOKS, body={
            "specification": {"options": {"filters": {"dataTypes": ["tableData"]},
                                          "includes": {"includeCellValuesInFieldIds": "all"}}}})
        if status != 200:
            return False, f"could not make a webhook: {status} {body}", []
        hook = body["id"]
        server.request("POST", f"/v0/{base}/User", token=FULL,
                       body={"records": [{"fields": {"name": "Ben", "pinHash": "pbkdf2$sha256$1$probe$hash"}}]})
        status, payloads, _ = server.request("GET", f"/v0/bases/{base}/webhooks/{hook}/payloads", token=HOOKS)
        if status != 200:
            failures.append(f"payloads answered {status}")
        if "pbkdf2" in str(payloads) or "Ben" in str(payloads):
            failures.append("a webhook-only token read a staff member's PIN hash in a payload")
        return not failures, f"payloads read with webhook:manage: {len(failures)} leaks", failures
    finally:
        server.stop()


PROBES = [
    ("scopes-spelling", "a kept table by another spelling (user, USER, %55ser, user/) with a read or records token",
     spelled_tables),
    ("scopes-links", "a kept table through a link, a lookup, a formula filter or typecast", through_links),
    ("scopes-webhooks", "a kept table's records in a webhook payload read with webhook:manage", through_webhooks),
]
