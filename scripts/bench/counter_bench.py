"""Bench 4, the counter: orders piped through one `drinkshop` process on the embedded store, against the
`sqlite3` command-line shell inserting the same rows, one durable transaction each.

Both are driven the same way: one command is written to the process's standard input, and the clock stops
when its answer has been read back, so each figure is a whole round trip as staff would feel it.
"""
import os
import select
import statistics
import subprocess
import tempfile
import time

ORDERS = [
    ("熟成紅茶", "中杯", "半糖", "少冰"), ("白玉歐蕾", "大杯", "微糖", "去冰"), ("冷露歐蕾", "中杯", "無糖", "正常冰"),
    ("春芽綠茶", "大杯", "少糖", "微冰"), ("胭脂紅茶", "中杯", "半糖", "熱"), ("雪花冷露", "大杯", "正常糖", "少冰"),
]


class LineProcess:
    """A child process spoken to one line at a time over pipes."""

    def __init__(self, argv, env=None):
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=env, bufsize=0)
        self.buffer = b""

    def ask(self, text, until, timeout=120):
        """Writes `text`, then reads until a line containing `until` arrives; returns the seconds it took. Raises
        (with what the process said) when it has not arrived within `timeout` seconds: a bench never hangs."""
        start = time.perf_counter()
        self.process.stdin.write(text.encode())
        self.process.stdin.flush()
        while until.encode() not in self.buffer:
            left = timeout - (time.perf_counter() - start)
            if left <= 0 or not select.select([self.process.stdout], [], [], left)[0]:
                said = self.buffer.decode(errors="replace")[-600:]
                raise RuntimeError(f"no {until!r} within {timeout} s after {text.strip()!r}; the process said: {said}")
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError("the process ended: " + self.process.stderr.read().decode(errors="replace"))
            self.buffer += chunk
        elapsed = time.perf_counter() - start
        end = self.buffer.index(until.encode()) + len(until)
        self.last_text = self.buffer[:end].decode(errors="replace")
        self.buffer = self.buffer[end:]
        return elapsed

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def run(binary, count=1000, warmup=20):
    with tempfile.TemporaryDirectory() as directory:
        env = dict(os.environ, DRINKSHOP_STAFF="bench", NO_COLOR="1", HOME=directory,
                   XDG_STATE_HOME=directory + "/state")
        db = os.path.join(directory, "shop.sqlite")
        # First run creates and seeds the store, so the timed process starts on a ready shop.
        subprocess.run([binary, "--db", db, "--create", "menu"], env=env, check=True, capture_output=True)
        shop = LineProcess([binary, "--db", db], env=env)
        shop_times = []
        for i in range(warmup + count):
            drink, size, sugar, ice = ORDERS[i % len(ORDERS)]
            seconds = shop.ask(f"order {drink} {size} {sugar} {ice} for guest{i}\n", "cup")
            if i >= warmup:
                shop_times.append(seconds)
        shop.close()

        lite = LineProcess(["sqlite3", os.path.join(directory, "plain.sqlite")])
        lite.ask("CREATE TABLE OrderDrink(id INTEGER PRIMARY KEY, drinkName TEXT, size TEXT, ice TEXT, sugar TEXT,"
                 " price INTEGER, orderName TEXT, numberOfCups INTEGER, pickupNumber INTEGER);\nSELECT 'ready';\n", "ready")
        lite_times = []
        for i in range(warmup + count):
            drink, size, sugar, ice = ORDERS[i % len(ORDERS)]
            sql = (f"INSERT INTO OrderDrink(drinkName,size,ice,sugar,price,orderName,numberOfCups,pickupNumber) "
                   f"VALUES('{drink}','{size}','{ice}','{sugar}',35,'guest{i}',1,{i + 1});\nSELECT 'done{i}';\n")
            seconds = lite.ask(sql, f"done{i}")
            if i >= warmup:
                lite_times.append(seconds)
        lite.close()

    result = {
        "orders": count,
        "drinkshop_median_ms": statistics.median(shop_times) * 1000,
        "drinkshop_p99_ms": percentile(shop_times, 0.99) * 1000,
        "sqlite3_median_ms": statistics.median(lite_times) * 1000,
        "sqlite3_p99_ms": percentile(lite_times, 0.99) * 1000,
    }
    result["median_ratio"] = result["drinkshop_median_ms"] / result["sqlite3_median_ms"]
    result["p99_ratio"] = result["drinkshop_p99_ms"] / result["sqlite3_p99_ms"]
    return result


if __name__ == "__main__":
    import json
    import sys
    print(json.dumps(run(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000), indent=2))
