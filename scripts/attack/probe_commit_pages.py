"""Probes of what one order costs the embedded store's disk (issue 37): orders piped into one counter, each one
durable commit, write no more WAL pages a commit than the indexes the listings read need."""
import json
import os
import sqlite3
import subprocess

ORDERS = [("熟成紅茶", "中杯", "半糖", "少冰"), ("白玉歐蕾", "大杯", "微糖", "去冰"), ("春芽綠茶", "大杯", "少糖", "微冰")]
# SQLite's WAL: a 32-byte header, then per page written one frame of a 24-byte header and the page.
PAGE, FRAME_HEADER, WAL_HEADER = 4096, 24, 32
MEASURED = 50
# Today's commit: OrderDrink's row, its id, created-time, day, day-and-number and open-orders indexes; the ticket's
# row, id, key and day indexes; sqlite_sequence (11; a page more now and then as a tree grows). 12.4 before the
# tickets' creation-time index was dropped.
MOST_PAGES = 11.6


def probe_order_commit_pages(ctx):
    db = ctx.path("pages") + ".sqlite"
    env = dict(ctx.env, TZ="Asia/Taipei")
    subprocess.run([ctx.binary, "--db", db, "--create", "menu"], env=env, check=True, capture_output=True)
    counter = subprocess.Popen([ctx.binary, "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, bufsize=0)
    buffer = b""

    def order(n):
        nonlocal buffer
        drink, size, sugar, ice = ORDERS[n % len(ORDERS)]
        counter.stdin.write(f"order {drink} {size} {sugar} {ice} for guest{n}\n".encode())
        while b"Total $" not in buffer:
            chunk = os.read(counter.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError("the counter ended: " + counter.stderr.read().decode(errors="replace")[:300])
            buffer += chunk
        buffer = buffer[buffer.index(b"Total $") + 7:]

    def frames():
        size = os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else WAL_HEADER
        return (size - WAL_HEADER) / (PAGE + FRAME_HEADER)

    failures = []
    try:
        for n in range(3):  # the first orders of the day read the day and warm the store
            order(n)
        before = frames()
        for n in range(3, 3 + MEASURED):
            order(n)
        after = frames()
    finally:
        counter.stdin.close()
        counter.wait(timeout=60)
    per_commit = (after - before) / MEASURED
    if after <= before:
        failures.append(f"the WAL did not grow ({before:.0f} -> {after:.0f} frames): checkpointed while measuring?")
    if per_commit > MOST_PAGES:
        failures.append(f"{per_commit:.2f} pages written per order commit, more than {MOST_PAGES}")
    with sqlite3.connect(db) as connection:
        schema = json.loads(connection.execute("SELECT value FROM base_meta WHERE key = 'schema'").fetchone()[0])
        table = next(t["id"] for t in schema["tables"] if t["name"] == "OrderDrink")
        stored = connection.execute(f'SELECT count(*) FROM "records_{table}"').fetchone()[0]
        mode = connection.execute("PRAGMA journal_mode").fetchone()[0]
    if stored != 3 + MEASURED:
        failures.append(f"{stored} order lines stored after {3 + MEASURED} orders")
    if mode != "wal":
        failures.append(f"the store's journal mode is {mode}, not wal")
    return (not failures, f"{per_commit:.2f} WAL pages per order commit over {MEASURED} piped orders "
            f"(at most {MOST_PAGES}), {stored} lines stored", failures)


PROBES = [
    ("order_commit_pages", "make every order's commit write pages for indexes no listing reads", probe_order_commit_pages),
]
