"""Bench 6, a busy day at the counter (issue 10's targets):

- 1,000 orders piped through one `drinkshop` process, whole-process wall time, against the `sqlite3` shell
  doing 1,000 single-row durable transactions (WAL, synchronous=FULL, as the embedded store) piped the same way,
  each from a new file, in alternating rounds (median of each side, and their ratio);
- with 1,000 orders already today, `advance`, `edit` and `cancel` round trips in one REPL process (p50).
"""
import os
import statistics
import subprocess
import tempfile
import time

from counter_bench import ORDERS, LineProcess, percentile


def run(binary, count=1000, each=100, rounds=5):
    each = min(each, count // 3)
    with tempfile.TemporaryDirectory() as directory:
        env = dict(os.environ, DRINKSHOP_STAFF="bench", NO_COLOR="1", HOME=directory, TZ="Asia/Taipei",
                   XDG_STATE_HOME=directory + "/state")
        lines = "".join(f"order {d} {s} {g} {i} for guest{n}\n"
                        for n, (d, s, g, i) in enumerate(ORDERS[k % len(ORDERS)] for k in range(count))).encode()
        # Issue 23's way: each side is one process with its file already made (untimed), and only the
        # 1,000 lines piped into it are timed; sqlite3 gets the same durability (WAL, synchronous=FULL,
        # one transaction a line). Timing the shell's file creation too (as this bench once did) gave
        # it a fixed cost drinkshop's side did not pay.
        setup = ("PRAGMA journal_mode=WAL;\n"
                 "CREATE TABLE OrderDrink(id INTEGER PRIMARY KEY, drinkName TEXT, size TEXT, ice TEXT, sugar TEXT,"
                 " price INTEGER, orderName TEXT, numberOfCups INTEGER, pickupNumber INTEGER);\n").encode()
        sql = ["PRAGMA synchronous=FULL;"]
        for n in range(count):
            d, s, g, i = ORDERS[n % len(ORDERS)]
            sql.append(f"BEGIN; INSERT INTO OrderDrink(drinkName,size,ice,sugar,price,orderName,numberOfCups,pickupNumber) "
                       f"VALUES('{d}','{s}','{i}','{g}',35,'guest{n}',1,{n + 1}); COMMIT;")
        script = "\n".join(sql).encode()

        # Both sides start from a new file each round, and the rounds alternate, so a slow spell of the
        # machine (its disk's fsync time varies by the minute) falls on both; the figures are medians.
        shop_times, lite_times = [], []
        for round_number in range(rounds):
            db = os.path.join(directory, f"shop{round_number}.sqlite")
            subprocess.run([binary, "--db", db, "--create", "menu"], env=env, check=True, capture_output=True)
            started = time.perf_counter()
            done = subprocess.run([binary, "--db", db], input=lines, env=env, capture_output=True)
            shop_times.append(time.perf_counter() - started)
            if done.returncode != 0:
                raise RuntimeError("drinkshop failed: " + done.stderr.decode(errors="replace")[:500])

            plain = os.path.join(directory, f"plain{round_number}.sqlite")
            subprocess.run(["sqlite3", plain], input=setup, check=True, capture_output=True)
            started = time.perf_counter()
            subprocess.run(["sqlite3", plain], input=script, check=True, capture_output=True)
            lite_times.append(time.perf_counter() - started)
        shop_seconds, lite_seconds = statistics.median(shop_times), statistics.median(lite_times)
        pages = wal_pages_per_commit(binary, directory, env, lines, setup, script)

        # With the day's orders in place: advance, edit and cancel, each on orders still placed.
        shop = LineProcess([binary, "--db", db], env=env)
        shop.ask("orders\n", "orders, ")
        times = {"advance": [], "edit": [], "cancel": []}
        for k in range(each):
            times["advance"].append(shop.ask(f"advance #{1 + k}\n", "is now preparing"))
            times["edit"].append(shop.ask(f"edit #{1 + each + k} x2\n", "cups)"))
            times["cancel"].append(shop.ask(f"cancel #{1 + 2 * each + k} changed their mind\n", "changed their mind\n"))
        shop.close()

    result = {"orders": count, "drinkshop_seconds": shop_seconds, "sqlite3_seconds": lite_seconds,
              "ratio": shop_seconds / lite_seconds, "fastest_ratio": min(shop_times) / min(lite_times),
              "pages_per_commit": pages, "each": each, "rounds": rounds,
              "drinkshop_range": (min(shop_times), max(shop_times)), "sqlite3_range": (min(lite_times), max(lite_times))}
    for name, values in times.items():
        result[f"{name}_p50_ms"] = statistics.median(values) * 1000
        result[f"{name}_p99_ms"] = percentile(values, 0.99) * 1000
    return result


def wal_pages_per_commit(binary, directory, env, lines, setup, script):
    """What each side writes to its WAL per commit, from one more untimed round of each under `strace`: pages
    (frames) per commit, and WAL syncs per commit; plus the syncs of one more round of each counted by `perf`
    (which does not slow the process as strace does), when perf can read the syscall tracepoints.
    Returns {side: {"pages": …, "syncs": …, "syncs_untraced": … or None}}, or None where strace is missing or failed."""
    import re
    import shutil
    if not shutil.which("strace"):
        return None
    result = {}
    for side in ("drinkshop", "sqlite3"):
        def fresh(name):
            db = os.path.join(directory, f"{name}-{side}.sqlite")
            if side == "drinkshop":
                subprocess.run([binary, "--db", db, "--create", "menu"], env=env, check=True, capture_output=True)
                return [binary, "--db", db], lines
            subprocess.run(["sqlite3", db], input=setup, check=True, capture_output=True)
            return ["sqlite3", db], script
        argv, given = fresh("pages")
        log = os.path.join(directory, f"pages-{side}.strace")
        done = subprocess.run(["strace", "-f", "-y", "-xx", "-s", "8", "-e", "trace=pwrite64,fdatasync,fsync", "-o", log]
                              + argv, input=given, env=env, capture_output=True)
        if done.returncode != 0:
            return None
        frames = commits = syncs = 0
        with open(log, encoding="utf-8", errors="replace") as trace:
            for line in trace:
                # -y with -xx writes paths in hex: "-wal" is 2d 77 61 6c.
                if "\\x2d\\x77\\x61\\x6c>" not in line:
                    continue
                header = re.search(r'pwrite64\(\d+<[^>]*>, "((?:\\x[0-9a-f]{2}){8})"\.*, 24,', line)
                if header:
                    frames += 1
                    commits += bytes.fromhex(header.group(1).replace("\\x", ""))[4:8] != b"\0\0\0\0"
                elif re.search(r"f(data)?sync\(\d+<", line):
                    syncs += 1
        if not commits:
            return None
        result[side] = {"pages": frames / commits, "syncs": syncs / commits, "syncs_untraced": None}
        if shutil.which("perf"):
            argv, given = fresh("syncs")
            counted = subprocess.run(["perf", "stat", "-x", ",", "-e", "syscalls:sys_enter_fdatasync,syscalls:sys_enter_fsync"]
                                     + argv, input=given, env=env, capture_output=True)
            figures = [line.split(",")[0] for line in counted.stderr.decode(errors="replace").splitlines() if "sys_enter_" in line]
            if counted.returncode == 0 and figures and all(f.isdigit() for f in figures):
                result[side]["syncs_untraced"] = sum(int(f) for f in figures) / commits
    return result


if __name__ == "__main__":
    import json
    import sys
    print(json.dumps(run(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000), indent=2))
