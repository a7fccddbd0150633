"""Bench 9: archiving a closed 300-order day (issue 13, the base's record limit), watched by the recording
proxy (scripts/lib/recording_proxy.py) in front of `drinkshop serve`.

The day is run from one REPL: a shift opened, each order placed (every other one with two drinks), paid,
advanced three times (picked up), the drawer closed. The day is then closed by the clock: the store's time
zone goes from Etc/GMT+12 to Pacific/Kiritimati (26 hours apart, so the day is always over), and
`drinkshop archive now` moves it at the default pace (5 requests per second). The peer is the least the
job can need with the record API: one listing page per 100 records of each day table, one delete per 10.
The day's `orders --date` and CSV export are compared before and after.
"""
import datetime
import math
import os
import subprocess
import time
import urllib.parse

from budget_bench import ORDER_WORDS, counter_env, number_in, served_counter
from counter_bench import LineProcess

DAY_TABLES = ["OrderDrink", "OrderTill", "TillPayment", "Shift", "AuditLog", "PickupTicket"]
MARK = "help quit\n"
MARK_TEXT = "Ctrl-D works too"


def table_counts(server, day):
    """The records of business day `day` in each day table of the served base."""
    counts = {}
    for table in DAY_TABLES:
        total = 0
        query = "pageSize=100&filterByFormula=" + urllib.parse.quote(f"{{businessDay}}='{day}'")
        path = f"/v0/{server.base_id}/{table}?{query}"
        while True:
            status, body, _ = server.request("GET", path)
            if status != 200:
                raise RuntimeError(f"listing {table} answered {status}: {body}")
            total += len(body["records"])
            if "offset" not in body:
                break
            path = f"/v0/{server.base_id}/{table}?{query}&offset={body['offset']}"
        counts[table] = total
    return counts


def run(bin_dir, workdir, day_orders=300):
    binary, run_dir, server, proxy, home = served_counter(bin_dir, workdir, "archive-day")
    fast = counter_env(server, proxy.url, home, os.path.join(run_dir, "state"), rate=1000)
    paced = counter_env(server, proxy.url, home, os.path.join(run_dir, "state"))

    def one_shot(words, env=fast, zone=None):
        env = dict(env, DRINKSHOP_TIME_ZONE=zone) if zone else env
        out = subprocess.run([binary, *words], capture_output=True, text=True, env=env)
        if out.returncode != 0:
            raise RuntimeError(f"drinkshop {' '.join(words)} failed: {out.stdout}{out.stderr}")
        return out.stdout

    try:
        status = one_shot(["archive"], zone="Etc/GMT+12")
        repl = LineProcess([binary], env=fast)
        repl.ask("shift open 1000\n" + MARK, MARK_TEXT)
        started = time.monotonic()
        for i in range(day_orders):
            words = ORDER_WORDS[i % 4] + (f", {ORDER_WORDS[(i + 1) % 4]}" if i % 2 else "")
            repl.ask(f"order {words} for day{i}\n" + MARK, MARK_TEXT)
            number = number_in(repl.last_text)
            repl.ask(f"pay #{number} cash\n" + "".join(f"advance #{number}\n" for _ in range(3)) + MARK, MARK_TEXT)
        repl.ask("close 1000\n" + MARK, MARK_TEXT)
        repl.close()
        day_seconds = time.monotonic() - started
        day = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=-12))).date().isoformat()
        before = table_counts(server, day)
        # Once the later zone is adopted every date before Kiritimati's today is closed: besides the bench's day,
        # the UTC date that `serve` dated its first setting entry by, when the bench runs after 10:00 UTC. The job
        # archives those days too, so the least counts them.
        kiritimati_today = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=14))).date()
        first = datetime.date.fromisoformat(day)
        others = [(first + datetime.timedelta(days=i)).isoformat() for i in range(1, (kiritimati_today - first).days)]
        before_others = {other: table_counts(server, other) for other in others}
        orders_before = one_shot(["orders", "all", "--date", day])
        one_shot(["export", "--csv", os.path.join(run_dir, "before"), day])

        one_shot(["archive"], zone="Pacific/Kiritimati")  # the day is over: adopt the later zone first
        proxy.reset()
        overhead_text = one_shot(["archive"], env=paced)
        overhead = proxy.stats()["requests"]
        proxy.reset()
        archived_text = one_shot(["archive", "now"], env=paced)
        archive = proxy.stats()
        after = table_counts(server, day)
        after_others = {other: table_counts(server, other) for other in others}
        proxy.reset()
        again_text = one_shot(["archive", "now"], env=paced)
        again = proxy.stats()["requests"]

        orders_after = one_shot(["orders", "all", "--date", day], zone="Etc/GMT+12")
        one_shot(["export", "--csv", os.path.join(run_dir, "after"), day])
        same_export = all(open(os.path.join(run_dir, f"before-{kind}.csv"), "rb").read()
                          == open(os.path.join(run_dir, f"after-{kind}.csv"), "rb").read()
                          for kind in ("orders", "lines", "payments"))
        moved = {table: before[table] - after[table] for table in DAY_TABLES}
        moved_others = {other: {table: before_others[other][table] - after_others[other][table] for table in DAY_TABLES}
                        for other in others}
        # One listing of each table for every closed day, one DELETE per 10 records of each day.
        least = sum(max(1, math.ceil((before[table] + sum(before_others[o][table] for o in others)) / 100))
                    + math.ceil(moved[table] / 10) + sum(math.ceil(moved_others[o][table] / 10) for o in others)
                    for table in DAY_TABLES)
        return {"day_orders": day_orders, "day": day, "day_seconds": day_seconds, "before": before, "after": after,
                "moved": moved, "records": sum(moved.values()), "archive": archive, "overhead": overhead,
                "least": least, "again": again, "same_orders": orders_before == orders_after,
                "same_export": same_export, "output": archived_text, "status": status + overhead_text + again_text}
    finally:
        proxy.stop()
        server.stop()


def verdict(r):
    archive = r["archive"]
    work = archive["requests"] - r["overhead"]
    left = sum(r["after"].values())
    ok = (work <= r["least"] * 1.1 and archive["excess"] == 0 and archive["status_429"] == 0 and left <= 1
          and r["same_orders"] and r["same_export"])
    return ok, (f"archiving a {r['day_orders']}-order day ({r['records']:,} records) took {archive['requests']} requests "
                f"({work} for the job + {r['overhead']} to start the process; the least the record API allows is "
                f"{r['least']}), {archive['excess']} over the bucket, {archive['status_429']} 429s; {left} records of "
                f"the day left in the base; orders and export of the day "
                f"{'unchanged' if r['same_orders'] and r['same_export'] else 'CHANGED'}")


def rows(r):
    archive = r["archive"]
    by_table = ", ".join(f"{k} {v}" for k, v in archive["by_table"].items())
    return [
        ("the day", f"{r['day_orders']} orders (every other one two drinks), each paid and picked up, one shift; "
                    f"run from one REPL in {r['day_seconds']:.0f} s"),
        ("records of the day in the base", ", ".join(f"{k} {v}" for k, v in r["before"].items())
         + f" ({sum(r['before'].values()):,} in all)"),
        ("`archive now`", f"{archive['requests']} requests: {by_table}"),
        ("of which the job", f"{archive['requests'] - r['overhead']} (least possible {r['least']}: one listing page per "
                             "100 records of each day table, one DELETE per 10 records)"),
        ("of which starting the process", f"{r['overhead']} (what `drinkshop archive`, which reads nothing remote, costs)"),
        ("pace", f"{archive['span']:.1f} s first to last request, {archive['least']:.1f} s the least 5/s allows; "
                 f"{archive['excess']} over the bucket, {archive['status_429']} 429s"),
        ("left in the base", ", ".join(f"{k} {v}" for k, v in r["after"].items())),
        ("a second `archive now`", f"{r['again']} requests, nothing moved"),
        ("reports of the archived day", f"`orders all --date` {'same' if r['same_orders'] else 'DIFFERENT'}, "
                                        f"`export --csv` {'byte-identical' if r['same_export'] else 'DIFFERENT'} before and after"),
        ("a month of such days", f"about {archive['requests'] * 30:,} calls to archive every day "
                                 f"(against about {sum(r['before'].values()) * 30:,} records a month that would otherwise stay)"),
        ("how", "recording proxy in front of `drinkshop serve`; the day at AIRTABLE_RATE_LIMIT=1000, the archive at the "
                "default 5/s; the day closed by moving the store's time zone from Etc/GMT+12 to Pacific/Kiritimati"),
    ]
