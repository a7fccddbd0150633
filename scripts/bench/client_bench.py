"""Bench 1 (the Airtable client against pyairtable on the same server), bench 2 (seeding 300 drinks
under Airtable's rate limit, DrinkShop against pyairtable) and bench 11 (seeding 2,000 drinks with no limit)."""
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import drinkshop_harness as harness  # noqa: E402

TABLE = {"name": "BenchRecord", "fields": [{"name": "name", "type": "singleLineText"},
                                           {"name": "qty", "type": "number", "options": {"precision": 0}},
                                           {"name": "note", "type": "multilineText"}]}


def _records(count):
    return [{"name": f"record {i}", "qty": i % 7, "note": f"熟成紅茶 中杯 半糖 少冰 #{i}"} for i in range(count)]


def _pyairtable_crud(server, count):
    from pyairtable import Api
    table = Api(server.token, endpoint_url=server.url).table(server.base_id, "BenchRecord")
    phases = {}
    started = time.perf_counter()
    created = table.batch_create(_records(count))
    phases["create"] = time.perf_counter() - started
    started = time.perf_counter()
    listed = table.all()
    phases["list"] = time.perf_counter() - started
    started = time.perf_counter()
    table.batch_update([{"id": r["id"], "fields": {"qty": 99}} for r in created])
    phases["update"] = time.perf_counter() - started
    started = time.perf_counter()
    table.batch_delete([r["id"] for r in created])
    phases["delete"] = time.perf_counter() - started
    if len(listed) != count:
        raise RuntimeError(f"pyairtable listed {len(listed)} of {count} records")
    return phases


def _drinkshop_crud(bin_dir, server, count, concurrency):
    ours = json.loads(subprocess.run(
        [os.path.join(bin_dir, "DrinkShopBench"), "client-crud", "--endpoint", server.url, "--base", server.base_id,
         "--records", str(count), "--concurrency", str(concurrency)],
        env=dict(os.environ, DRINKSHOP_BENCH_TOKEN=server.token), check=True, capture_output=True, text=True).stdout)
    if ours["listed"] != count:
        raise RuntimeError(f"DrinkShop listed {ours['listed']} of {count} records")
    return {k: ours[k] for k in ("create", "list", "update", "delete")}


def crud(bin_dir, workdir, count=2000, concurrency=4, rounds=3):
    """Both clients in turn on one fresh server, `rounds` times each; each side's round with the median
    total counts (the machine is shared, so single runs wander)."""
    server = harness.Server(os.path.join(bin_dir, "drinkshop"), os.path.join(workdir, "crud.sqlite")).start()
    try:
        status, body, _ = server.request("POST", f"/v0/meta/bases/{server.base_id}/tables", TABLE)
        if status != 200:
            raise RuntimeError(f"could not create the bench table: {status} {body}")
        theirs, ours = [], []
        for _ in range(rounds):
            theirs.append(_pyairtable_crud(server, count))
            ours.append(_drinkshop_crud(bin_dir, server, count, concurrency))
    finally:
        server.stop()
    median = lambda runs: sorted(runs, key=lambda phases: sum(phases.values()))[len(runs) // 2]
    pyairtable, drinkshop = median(theirs), median(ours)
    return {"records": count, "concurrency": concurrency, "rounds": rounds, "pyairtable": pyairtable,
            "pyairtable_total": sum(pyairtable.values()), "drinkshop": drinkshop,
            "drinkshop_total": sum(drinkshop.values()),
            "ratio": sum(drinkshop.values()) / sum(pyairtable.values()),
            "all_ratios": [sum(o.values()) / sum(t.values()) for o, t in zip(ours, theirs)]}


def _seed_file(path, count):
    records = [{"fields": {"name": f"測試茶 {i:03d}", "englishName": f"Bench Tea {i:03d}", "category": "單品茶",
                           "medium": 30 + i % 40, "large": 35 + i % 40, "hotAvailable": i % 2 == 0}}
               for i in range(1, count + 1)]
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"records": records}, handle, ensure_ascii=False)
    return records


def _measure(server, run):
    time.sleep(1.5)  # a full bucket, as after any quiet moment
    started = time.time()
    run()
    ended = time.time()
    time.sleep(0.3)
    requests = server.requests_since(started)
    refused = sum(1 for r in requests if r[3] == 429)
    writes = sum(1 for r in requests if r[1] in ("PATCH", "PUT", "DELETE") or (r[1] == "POST" and not r[2].endswith("listRecords")))
    span = (requests[-1][0] - requests[0][0]) if len(requests) > 1 else 0.0
    return {"requests": len(requests), "refused": refused, "writes": writes, "listings": len(requests) - writes,
            "span": span, "wall": ended - started}


def seed_rate_limited(bin_dir, workdir, count=300, rate=5):
    from pyairtable import Api
    seed_path = os.path.join(workdir, f"menu{count}.json")
    records = _seed_file(seed_path, count)
    binary = os.path.join(bin_dir, "drinkshop")
    results = {}

    server = harness.Server(binary, os.path.join(workdir, "seed-drinkshop.sqlite"), extra=["--rate-limit", str(rate)]).start()
    try:
        env = dict(os.environ, AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base_id,
                   AIRTABLE_ENDPOINT_URL=server.url, HOME=workdir, NO_COLOR="1",
                   DRINKSHOP_OUTBOX=os.path.join(workdir, "seed-outbox.sqlite"))
        env.pop("AIRTABLE_RATE_LIMIT", None)

        def seed():
            subprocess.run([binary, "seed", seed_path], env=env, check=True, capture_output=True)
        results["drinkshop"] = _measure(server, seed)
    finally:
        server.stop()

    server = harness.Server(binary, os.path.join(workdir, "seed-pyairtable.sqlite"), extra=["--rate-limit", str(rate)]).start()
    try:
        table = Api(server.token, endpoint_url=server.url).table(server.base_id, "Drink")

        def seed():
            table.all(fields=["name"])
            table.batch_upsert([{"fields": r["fields"]} for r in records], key_fields=["name"], typecast=True)
        results["pyairtable"] = _measure(server, seed)
    finally:
        server.stop()

    for name, figures in results.items():
        # A full bucket of `rate` lets n requests through in (n - rate) / rate seconds at the least.
        least = max(0.0, (figures["requests"] - rate) / rate)
        figures["least"] = least
        figures["ratio"] = figures["span"] / least if least else 0.0
    results["batches"] = (count + 9) // 10
    results["drinks"] = count
    results["rate"] = rate
    return results


def seed_unlimited(bin_dir, workdir, count=2000, rounds=3):
    """Bench 11: seeding `count` drinks into a new base over HTTP (no rate limit): `drinkshop seed` through the
    client against pyairtable's `all()` then `batch_upsert` (typecast, merged on name), as an engineer would
    seed with it. Each round gives each side a new server (a new store), the sides alternating; the medians
    count, and the fastest rounds are compared too. Both wait for the same durable commits, so the ratio is
    what each side does around them (requests, their sizes, how many are in flight)."""
    from pyairtable import Api
    seed_path = os.path.join(workdir, f"menu{count}.json")
    records = _seed_file(seed_path, count)
    binary = os.path.join(bin_dir, "drinkshop")
    times = {"drinkshop": [], "pyairtable": []}
    requests = {}
    for n in range(rounds):
        for side in ("drinkshop", "pyairtable"):
            server = harness.Server(binary, os.path.join(workdir, f"seed{count}-{side}-{n}.sqlite")).start()
            try:
                if side == "drinkshop":
                    env = dict(os.environ, AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base_id,
                               AIRTABLE_ENDPOINT_URL=server.url, HOME=workdir, NO_COLOR="1", AIRTABLE_RATE_LIMIT="1000",
                               DRINKSHOP_OUTBOX=os.path.join(workdir, f"seed{count}-outbox-{n}.sqlite"))
                    started = time.perf_counter()
                    subprocess.run([binary, "seed", seed_path], env=env, check=True, capture_output=True)
                else:
                    table = Api(server.token, endpoint_url=server.url).table(server.base_id, "Drink")
                    started = time.perf_counter()
                    table.all(fields=["name"])
                    table.batch_upsert([{"fields": r["fields"]} for r in records], key_fields=["name"], typecast=True)
                times[side].append(time.perf_counter() - started)
                time.sleep(0.3)
                requests[side] = len(server.requests_since(0))
                status, body, _ = server.request("GET", f"/v0/{server.base_id}/Drink?fields%5B%5D=name&pageSize=1"
                                                        f"&filterByFormula=%7Bname%7D%3D%27%E6%B8%AC%E8%A9%A6%E8%8C%B6%20{count:03d}%27")
                if status != 200 or len(body.get("records", [])) != 1:
                    raise RuntimeError(f"{side} did not store the last drink: {status} {body}")
            finally:
                server.stop()
    ours, theirs = statistics.median(times["drinkshop"]), statistics.median(times["pyairtable"])
    return {"drinks": count, "rounds": rounds, "drinkshop": ours, "pyairtable": theirs, "ratio": ours / theirs,
            "fastest_ratio": min(times["drinkshop"]) / min(times["pyairtable"]),
            "round_ratios": [o / t for o, t in zip(times["drinkshop"], times["pyairtable"])],
            "drinkshop_range": (min(times["drinkshop"]), max(times["drinkshop"])),
            "pyairtable_range": (min(times["pyairtable"]), max(times["pyairtable"])), "requests": requests}
