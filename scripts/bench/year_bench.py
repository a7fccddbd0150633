"""Bench 10, a year on one machine (issue 23): stores holding 1, 30 and 365 closed days of a 300-order day,
each command measured beside the `sqlite3` shell doing the same work on the same file in the same run.

How the days are made: `DrinkShopBench year` writes them through LocalBase's own bulk path (one
`createRecords` call, one transaction, per table and day) in the shop's record shape: every order paid in
cash and picked up, every other order two drinks, one pickup ticket per order, one shift per day. A real
day also has cancellations, voids, edits, audit entries and refunds, and is written an order at a time.
The last stored day is yesterday, so a counter opening the store starts a new day.

Each measure alternates drinkshop and sqlite3 rounds and takes medians: the machine has two cores shared
with other builds, so absolute times are noisy and the ratios in one run are what count.
"""
import json
import os
import sqlite3
import statistics
import subprocess
import tempfile
import time

from counter_bench import LineProcess

ORDER_LINE = "order 熟成紅茶 中杯 半糖 少冰 for guest{n}\n"


def fields_of(db):
    """{table name: (SQL table, {field name: field id})} from the store's own schema."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        schema = json.loads(connection.execute("SELECT value FROM base_meta WHERE key = 'schema'").fetchone()[0])
    return {t["name"]: (f'"records_{t["id"]}"', {f["name"]: f["id"] for f in t["fields"]}) for t in schema["tables"]}


def timed(argv, env=None, stdin=None):
    """Whole-process seconds and peak resident memory (MB) of one command (the memory as wait4 gives it,
    this Python process's own high-water mark included: see `peak_mb`)."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if stdin:
        process.stdin.write(stdin)
        process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    err = process.stderr.read()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{argv[:4]} failed: {err.decode(errors='replace')[:400]}")
    return seconds, usage.ru_maxrss / 1024


def peak_mb(argv, env=None):
    """Peak resident memory (MB) of one command alone, as GNU time reports it (an untimed run). wait4's
    ru_maxrss is not that: a child spawned from this process (fork or vfork) carries this Python process's
    high-water mark through its exec, so after the earlier benches it read 51 MB for a 28 MB export."""
    with tempfile.NamedTemporaryFile(mode="r") as report:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + argv, env=env, check=True,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return int(report.read().split()[-1]) / 1024


def alternate(rounds, ours, peer):
    """Medians of `rounds` alternating runs of two callables, each returning (seconds, peak MB)."""
    a, b = [], []
    for _ in range(rounds):
        a.append(ours())
        b.append(peer())
    return ({"s": statistics.median(x[0] for x in a), "mb": max(x[1] for x in a)},
            {"s": statistics.median(x[0] for x in b), "mb": max(x[1] for x in b)})


def measure(bin_dir, directory, days, per_day, rounds, advances):
    binary = os.path.join(bin_dir, "drinkshop")
    env = dict(os.environ, DRINKSHOP_STAFF="bench", NO_COLOR="1", HOME=directory, TZ="Asia/Taipei",
               XDG_STATE_HOME=directory + "/state")
    db = os.path.join(directory, f"year{days}.sqlite")
    built = json.loads(subprocess.run(
        [os.path.join(bin_dir, "DrinkShopBench"), "year", "--db", db, "--days", str(days), "--orders-per-day",
         str(per_day), "--seeds", os.path.join(os.path.dirname(__file__), "..", "..", "Seeds")],
        env=env, check=True, capture_output=True, text=True).stdout)
    # The first start after the build upgrades the store (indexes) and notes its check, as a counter's would.
    subprocess.run([binary, "--db", db, "menu"], env=env, check=True, capture_output=True)
    tables = fields_of(db)
    lines_table, line_fields = tables["OrderDrink"]
    pay_table, pay_fields = tables["TillPayment"]
    cell = lambda fields, name: f"json_extract(cells, '$.{fields[name]}')"
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        stored_days = [r[0] for r in connection.execute(
            f"SELECT DISTINCT {cell(pay_fields, 'businessDay')} FROM {pay_table} ORDER BY 1")]
    last_day = stored_days[-1]
    month = stored_days[-min(30, len(stored_days)):]
    result = {"days": days, "built": built}

    # `advance #N` in a REPL on a new day: today's #1..#k are placed first, every stored day has its own
    # (picked up) #1..#k too, so the lookup `pickupNumber == N AND (today OR still open)` meets them all.
    # The peer: one sqlite3 shell setting the same order's status by its number and day, durably.
    shop = LineProcess([binary, "--db", db], env=env)
    shop.ask("".join(ORDER_LINE.format(n=n) for n in range(advances)) + "orders\n", "orders, ")
    peer = LineProcess(["sqlite3", db], env=env)
    peer.ask("PRAGMA synchronous=FULL; SELECT 'ready';\n", "ready")
    today = None
    ours, theirs = [], []
    for k in range(1, advances + 1):
        ours.append(shop.ask(f"advance #{k}\n", "is now preparing"))
        if today is None:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
                today = connection.execute(f"SELECT max({cell(line_fields, 'businessDay')}) FROM {lines_table}").fetchone()[0]
        theirs.append(peer.ask(
            f"UPDATE {lines_table} SET cells = json_set(cells, '$.{line_fields['status']}', 'preparing') "
            f"WHERE {cell(line_fields, 'pickupNumber')} = {k} AND {cell(line_fields, 'businessDay')} = '{today}'; "
            f"SELECT 'done{k}.';\n", f"done{k}."))
    shop.close()
    peer.close()
    result["advance"] = ({"s": statistics.median(ours)}, {"s": statistics.median(theirs)})

    def sums(first, last):
        where = (f"{cell(pay_fields, 'businessDay')} = '{first}'" if first == last
                 else f"{cell(pay_fields, 'businessDay')} BETWEEN '{first}' AND '{last}'")
        line_where = where.replace(pay_fields["businessDay"], line_fields["businessDay"])
        return (f"SELECT {cell(pay_fields, 'method')}, count(*), sum({cell(pay_fields, 'amount')}) FROM {pay_table} "
                f"WHERE {where} GROUP BY 1; SELECT {cell(line_fields, 'drinkName')}, count(*), "
                f"sum({cell(line_fields, 'price')}) FROM {lines_table} WHERE {line_where} GROUP BY 1;").encode()

    result["report"] = alternate(rounds, lambda: timed([binary, "--db", db, "report", last_day], env),
                                 lambda: timed(["sqlite3", db], env, sums(last_day, last_day)))
    result["month report"] = alternate(rounds, lambda: timed([binary, "--db", db, "report", month[0], month[-1]], env),
                                       lambda: timed(["sqlite3", db], env, sums(month[0], month[-1])))
    csv_path = os.path.join(directory, "export.csv")
    columns = ", ".join(cell(line_fields, f) for f in ("businessDay", "pickupNumber", "drinkName", "size", "ice",
                                                       "sugar", "price", "status", "paidBy"))
    export_sql = (f".mode csv\n.once {csv_path}.peer\nSELECT {columns} FROM {lines_table} WHERE "
                  f"{cell(line_fields, 'businessDay')} BETWEEN '{month[0]}' AND '{month[-1]}' ORDER BY 1, 2;\n"
                  f".once {csv_path}.peer2\nSELECT {cell(pay_fields, 'businessDay')}, {cell(pay_fields, 'orderRef')}, "
                  f"{cell(pay_fields, 'method')}, {cell(pay_fields, 'amount')} FROM {pay_table} WHERE "
                  f"{cell(pay_fields, 'businessDay')} BETWEEN '{month[0]}' AND '{month[-1]}' ORDER BY 1, 2;\n").encode()
    result["export"] = alternate(
        rounds, lambda: timed([binary, "--db", db, "export", "--csv", csv_path, month[0], month[-1]], env),
        lambda: timed(["sqlite3", db], env, export_sql))
    result["export"][0]["mb"] = peak_mb([binary, "--db", db, "export", "--csv", csv_path, month[0], month[-1]], env)

    def start():
        # The note of the last check is removed first: this is a start as after a backup, a copy, another
        # tool's write, or the first start of a day.
        for suffix in (".checked",):
            if os.path.exists(db + suffix):
                os.unlink(db + suffix)
        return timed([binary, "--db", db, "menu"], env)

    result["start"] = alternate(rounds, start, lambda: timed(["sqlite3", db, "SELECT count(*) FROM sqlite_master"], env))
    result["full check"] = alternate(max(1, rounds // 2), lambda: timed(["sqlite3", db, "PRAGMA quick_check"], env),
                                     lambda: (0.0, 0.0))[0]
    result["file_mb"] = (os.path.getsize(db) + (os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else 0)) / 1e6
    result["month_days"] = len(month)
    return result


def run(bin_dir, workdir, sizes=(1, 30, 365), per_day=300, rounds=5, advances=20):
    results = []
    with tempfile.TemporaryDirectory(dir=workdir) as directory:
        for days in sizes:
            results.append(measure(bin_dir, directory, days, per_day, rounds, advances))
            for suffix in ("", "-wal", "-shm", ".checked"):
                if os.path.exists(os.path.join(directory, f"year{days}.sqlite{suffix}")):
                    os.unlink(os.path.join(directory, f"year{days}.sqlite{suffix}"))
    return {"sizes": list(sizes), "per_day": per_day, "rounds": rounds, "advances": advances, "results": results}


MEASURES = [("advance", "`advance #N` in a REPL on a new day (p50 round trip)"),
            ("report", "`report DAY` (the newest full day)"),
            ("month report", "`report FIRST LAST` (30 days)"),
            ("export", "`export --csv FILE FIRST LAST` (30 days)"),
            ("start", "a start with no check note (`menu`; the note removed first)")]


def growth(r, key, first=0):
    return r["results"][-1][key][0]["s"] / r["results"][first][key][0]["s"]


def verdict(r):
    last = r["results"][-1]
    month_first = 1 if len(r["results"]) > 2 else 0
    checks = {
        "advance": growth(r, "advance") <= 1.2,
        "report growth": growth(r, "report") <= 1.3,
        "report floor": last["report"][0]["s"] / last["report"][1]["s"] <= 5,
        "month floor": max(last[k][0]["s"] / last[k][1]["s"] for k in ("month report", "export")) <= 8,
        "export memory": last["export"][0]["mb"] < 40,
        "start": growth(r, "start") <= 1.2,
    }
    missed = [k for k, ok in checks.items() if not ok]
    summary = (f"{r['sizes'][0]} → {r['sizes'][-1]} days: advance ×{growth(r, 'advance'):.2f} (target <= 1.2), report "
               f"×{growth(r, 'report'):.2f} (<= 1.3) at {last['report'][0]['s'] / last['report'][1]['s']:.1f}× sqlite3 (<= 5), "
               f"month report {last['month report'][0]['s'] / last['month report'][1]['s']:.1f}× and export "
               f"{last['export'][0]['s'] / last['export'][1]['s']:.1f}× sqlite3 (<= 8), export peak "
               f"{last['export'][0]['mb']:.0f} MB (< 40), start ×{growth(r, 'start'):.2f} (<= 1.2); month growth "
               f"report ×{growth(r, 'month report', month_first):.2f}, export ×{growth(r, 'export', month_first):.2f}"
               + (f"; missed: {', '.join(missed)}" if missed else ""))
    return not missed, summary


def table(r):
    sizes = r["sizes"]
    ms = lambda s: f"{s * 1000:,.1f} ms" if s < 10 else f"{s:,.1f} s"
    head = "| command | " + " | ".join(f"{d} day{'s' if d > 1 else ''}" for d in sizes) + \
           f" | growth {sizes[-1]} vs {sizes[0]} |"
    rows = [head, "|---" * (len(sizes) + 2) + "|"]
    for key, name in MEASURES:
        cells = []
        for result in r["results"]:
            ours, peer = result[key]
            cells.append(f"{ms(ours['s'])} (sqlite3 {ms(peer['s'])}, {ours['s'] / peer['s']:.1f}×"
                         + (f"; {ours['mb']:.0f} MB peak" if key == "export" else "") + ")")
        rows.append(f"| {name} | " + " | ".join(cells) + f" | ×{growth(r, key):.2f} |")
    rows.append("| sqlite3's full `PRAGMA quick_check` (what a start without a matching note did before) | "
                + " | ".join(ms(x["full check"]["s"]) for x in r["results"])
                + f" | ×{r['results'][-1]['full check']['s'] / r['results'][0]['full check']['s']:.2f} |")
    rows.append("| store file (with its WAL) | " + " | ".join(f"{x['file_mb']:,.1f} MB" for x in r["results"])
                + f" | ×{r['results'][-1]['file_mb'] / r['results'][0]['file_mb']:.1f} |")
    rows.append("| building the store (`DrinkShopBench year`) | " + " | ".join(
        f"{x['built']['seconds']:.1f} s: {x['built']['orders']:,} orders, {x['built']['lines']:,} lines, "
        f"{x['built']['payments']:,} payments" for x in r["results"]) + " | |")
    return "\n".join(rows)


if __name__ == "__main__":
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
    import drinkshop_harness as harness
    quick = "--quick" in sys.argv
    out = run(harness.build("release"), tempfile.gettempdir(), (1, 3, 10) if quick else (1, 30, 365),
              30 if quick else 300, 3 if quick else 5, 10 if quick else 20)
    print(table(out))
    print(verdict(out))
