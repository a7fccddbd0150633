"""Bench 3 (the server's write path against the store's own limit) and bench 5 (scale: 100,000 orders)."""
import datetime
import http.client
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import drinkshop_harness as harness  # noqa: E402

TABLE = {"name": "BenchRecord", "fields": [{"name": "name", "type": "singleLineText"},
                                           {"name": "qty", "type": "number", "options": {"precision": 0}},
                                           {"name": "note", "type": "multilineText"}]}


def _writer(args):
    port, base, token, start, count = args
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    bodies = []
    for first in range(start, start + count, 10):
        records = [{"fields": {"name": f"record {i}", "qty": i % 7, "note": f"熟成紅茶 中杯 半糖 少冰 #{i}"}}
                   for i in range(first, min(start + count, first + 10))]
        bodies.append(json.dumps({"records": records}).encode())
    for body in bodies:
        connection.request("POST", f"/v0/{base}/BenchRecord", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"create answered {response.status}")
    connection.close()
    return count


def write_path(bin_dir, workdir, records=10_000, clients=4):
    """`records` created over HTTP, 10 per request from `clients` concurrent clients, against the same
    records inserted in-process into LocalBase in batches of 10 (one durable transaction each)."""
    inprocess = json.loads(subprocess.run(
        [os.path.join(bin_dir, "DrinkShopBench"), "insert", "--db", os.path.join(workdir, "inprocess.sqlite"),
         "--records", str(records), "--batch", "10"], check=True, capture_output=True, text=True).stdout)
    server = harness.Server(os.path.join(bin_dir, "drinkshop"), os.path.join(workdir, "http.sqlite")).start()
    try:
        status, body, _ = server.request("POST", f"/v0/meta/bases/{server.base_id}/tables", TABLE)
        if status != 200:
            raise RuntimeError(f"could not create the bench table: {status} {body}")
        share = records // clients
        jobs = [(server.port, server.base_id, server.token, i * share, share) for i in range(clients)]
        started = time.perf_counter()
        with multiprocessing.Pool(clients) as pool:
            written = sum(pool.map(_writer, jobs))
        seconds = time.perf_counter() - started
        status, body, _ = server.request("GET", f"/v0/{server.base_id}/BenchRecord?pageSize=1&fields%5B%5D=name")
    finally:
        server.stop()
    http_rate = written / seconds
    return {"records": written, "clients": clients, "http_seconds": seconds, "http_records_per_second": http_rate,
            "inprocess_seconds": inprocess["seconds"], "inprocess_records_per_second": inprocess["recordsPerSecond"],
            "ratio": http_rate / inprocess["recordsPerSecond"]}


def scale(bin_dir, workdir, orders=100_000, days=100, repeats=30):
    """With `orders` stored over `days` days: today's orders through the server (the shop's own filter),
    every order by pages, and the server's peak memory."""
    db = os.path.join(workdir, "scale.sqlite")
    populated = json.loads(subprocess.run(
        [os.path.join(bin_dir, "DrinkShopBench"), "populate", "--db", db, "--orders", str(orders), "--days", str(days),
         "--seeds", os.path.join(harness.ROOT, "Seeds")], check=True, capture_output=True, text=True).stdout)
    server = harness.Server(os.path.join(bin_dir, "drinkshop"), db).start()
    try:
        # The shop's "today" filter, exactly as Shop.todaysOrderRecords writes it (UTC day of the server).
        start = datetime.datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
        end = start + datetime.timedelta(days=1)
        stamp = lambda d: d.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        formula = (f"AND(NOT(IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('{stamp(start)}'))), "
                   f"IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('{stamp(end)}')))")
        query = urllib.parse.quote(formula, safe="")

        def list_all(parameters):
            count, offset, pages = 0, None, 0
            while True:
                path = f"/v0/{server.base_id}/OrderDrink?{parameters}" + (f"&offset={urllib.parse.quote(offset, safe='')}" if offset else "")
                status, body, _ = server.request("GET", path, timeout=60)
                if status != 200:
                    raise RuntimeError(f"list answered {status}: {body}")
                count += len(body["records"])
                pages += 1
                offset = body.get("offset")
                if not offset:
                    return count, pages

        today_times = []
        today = 0
        for _ in range(repeats):
            started = time.perf_counter()
            today, _ = list_all(f"filterByFormula={query}")
            today_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        everything, pages = list_all("pageSize=100")
        all_seconds = time.perf_counter() - started
        peak = 0
        for line in open(f"/proc/{server.process.pid}/status"):
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    finally:
        server.stop()
    return {"orders": populated["orders"], "today_orders": today, "today_p50_ms": statistics.median(today_times) * 1000,
            "today_max_ms": max(today_times) * 1000, "all_records": everything, "all_pages": pages,
            "all_seconds": all_seconds, "server_peak_rss_mb": peak}
