"""Probes of what a big seed costs `drinkshop serve` and who may write bigger batches: 2,000 drinks seeded through the
client in whole batches the server commits at once (a few dozen requests, not one durable commit per ten drinks),
the same seed again writing nothing, and a client that does not ask (or asks beyond the limit) held to Airtable's
ten records per request, refused whole."""
import json
import os
import subprocess
import urllib.parse

DRINKS = 2_000
MOST_REQUESTS = 20
SERVED = 500  # WriteBatchLimit.served


def _seed_file(path, count):
    records = [{"fields": {"name": f"測試茶 {i:04d}", "category": "單品茶", "medium": 30 + i % 40, "large": 35 + i % 40}}
               for i in range(1, count + 1)]
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"records": records}, handle, ensure_ascii=False)


def probe_seed_in_whole_batches(ctx):
    failures = []
    server = ctx.server("seed-batches")
    try:
        seed = ctx.path("menu") + ".json"
        _seed_file(seed, DRINKS)
        env = dict(ctx.env, AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base_id, AIRTABLE_ENDPOINT_URL=server.url,
                   AIRTABLE_RATE_LIMIT="1000", DRINKSHOP_OUTBOX=ctx.path("outbox") + ".sqlite")
        runs = []
        for attempt in ("first", "again"):
            before = len(server.requests_since(0))
            done = subprocess.run([ctx.binary, "seed", seed], env=env, capture_output=True, text=True, timeout=300)
            if done.returncode != 0:
                failures.append(f"the {attempt} seed failed ({done.returncode}): {(done.stdout + done.stderr)[-300:]!r}")
            requests = server.requests_since(0)[before:]
            writes = [r for r in requests if r[1] in ("POST", "PATCH", "PUT")]
            runs.append((len(requests), len(writes)))
            if any(r[3] != 200 for r in requests):
                failures.append(f"the {attempt} seed met refusals: {[r for r in requests if r[3] != 200][:3]}")
        (first, first_writes), (again, again_writes) = runs
        if first > MOST_REQUESTS:
            failures.append(f"seeding {DRINKS} drinks took {first} requests ({first_writes} writes, one durable commit "
                            f"each); at most {MOST_REQUESTS}")
        if again_writes:
            failures.append(f"the same seed again wrote {again_writes} times; nothing changed")
        last = urllib.parse.quote(f"{{name}}='測試茶 {DRINKS:04d}'")
        status, body, _ = server.request("GET", f"/v0/{server.base_id}/Drink?pageSize=1&filterByFormula={last}")
        if status != 200 or len((body or {}).get("records", [])) != 1:
            failures.append(f"the last drink was not stored: {status} {str(body)[:200]}")

        # A client that does not ask gets Airtable's ten, and one that asks gets no more than the server names.
        path = f"/v0/{server.base_id}/Drink"
        eleven = {"records": [{"fields": {"name": f"plain {i}"}} for i in range(11)]}
        status, body, headers = server.request("POST", path, eleven)
        said = {k.lower(): v for k, v in headers.items()}.get("x-drinkshop-write-batch")
        if status != 422 or (body or {}).get("error", {}).get("type") != "INVALID_RECORDS":
            failures.append(f"11 records without asking were not refused as Airtable would: {status} {str(body)[:200]}")
        if said != str(SERVED):
            failures.append(f"the server named {said!r} records per request, not {SERVED}")
        too_many = {"records": [{"fields": {"name": f"asked {i}"}} for i in range(SERVED + 1)]}
        status, body, _ = server.request("POST", path, too_many, headers={"X-DrinkShop-Write-Batch": "1000"})
        if status != 422:
            failures.append(f"{SERVED + 1} records, asked for 1,000, were not refused whole: {status} {str(body)[:200]}")
        figure = (f"{DRINKS} drinks seeded in {first} requests ({first_writes} writes), again in {again} "
                  f"({again_writes} writes); 11 unasked and {SERVED + 1} asked refused")
    finally:
        server.stop()
    return (not failures, figure, failures)


PROBES = [
    ("seed_in_whole_batches", "seed 2,000 drinks at one durable commit per ten; write past Airtable's ten without "
                              "asking, or past the server's limit", probe_seed_in_whole_batches),
]
