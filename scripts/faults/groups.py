"""Customers' group orders (揪團) through a crash: `drinkshop serve` killed with -9 while a group is open or while its
organiser sends it, then started again on the same store."""
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "attack"))

import drinkshop_harness as harness  # noqa: E402
from probe_money_and_secrets import Browser  # noqa: E402


def _run(binary, db, env, *words):
    return subprocess.run([binary, "--db", db, *words], env=env, capture_output=True, text=True, timeout=120)


def _add(browser, group, drink, size, ice, sugar, cups):
    status, _, _ = browser.post(group + "/drink?d=" + urllib.parse.quote(drink), group + "/lines",
                                {"drink": drink, "size": size, "ice": ice, "sugar": sugar, "cups": str(cups), "note": ""})
    return status


def killed_mid_send(binary, workdir, env, rounds):
    """Each round: a group started on /order by its organiser, joined by a second browser, a line from each; then
    `drinkshop serve` is killed (-9) with the group still open (every fourth round) or at a random moment 0-30 ms
    into the organiser's send, and started again on the same store. The same link must still show the group with
    both people's lines; sending it (again, when the page says it was not sent) and then once more must leave
    exactly one order for that group."""
    db = os.path.join(workdir, "groups-kill.sqlite")
    server = harness.Server(binary, db, env=env).start()
    failures, found, sent_before, rng = [], 0, 0, random.Random(35)
    try:
        if _run(binary, db, env, "online", "on").returncode != 0:
            return False, "online on failed", []
        for round_ in range(rounds):
            name = f"Group{round_}"
            amy, ben = Browser(server.port), Browser(server.port)
            amy.request("GET", "/order")
            status, _, group = amy.post("/order", "/order/start", {"name": name})
            if not group or "/order/g/" not in group:
                failures.append(f"round {round_}: the group was not started ({status})")
                continue
            ben.request("GET", group)
            ben.post(group, group + "/join", {"name": "Ben"})
            added = [_add(amy, group, "熟成紅茶", "中杯", "去冰", "無糖", 1), _add(ben, group, "熟成紅茶", "大杯", "少冰", "半糖", 2)]
            if added != [303, 303]:
                failures.append(f"round {round_}: the lines answered {added}")
            if round_ % 4 == 0:
                server.stop(signal.SIGKILL)
            else:
                sending = threading.Thread(target=lambda: _quietly(lambda: amy.post(group, group + "/send", {})))
                sending.start()
                time.sleep(rng.uniform(0, 0.03))
                server.stop(signal.SIGKILL)
                sending.join(timeout=30)
            server = harness.Server(binary, db, env=env).start()
            amy.port = ben.port = server.port
            status, page, _ = amy.request("GET", group)
            if status != 200 or "Ben" not in page or page.count("熟成紅茶") < 2:
                failures.append(f"round {round_}: after the restart the link answered {status} without the group and its two lines")
                continue
            found += 1
            if "取餐號" in page:
                sent_before += 1
            else:
                status, _, _ = amy.post(group, group + "/send", {})
                if status != 303:
                    failures.append(f"round {round_}: the send after the restart answered {status}")
            amy.post(group, group + "/send", {})
        listed = _run(binary, db, env, "orders", "all", "--json")
        try:
            records = json.loads(listed.stdout)
        except ValueError:
            return False, "orders --json could not be read", [listed.stderr[-300:]]
        orders = {}
        for record in records:
            fields = record.get("fields", {})
            orders.setdefault(fields.get("orderName"), set()).add(fields.get("orderRef"))
        for round_ in range(rounds):
            count = len(orders.get(f"Group{round_}", ()))
            if count != 1:
                failures.append(f"round {round_}: {count} orders for the group")
        once = sum(1 for round_ in range(rounds) if len(orders.get(f"Group{round_}", ())) == 1)
        # What the restarted server settled: a group it found being sent (placed, or open again).
        settled = sum(1 for line in server.log_lines() if "being sent when the server stopped" in line)
        figure = (f"{rounds} groups killed open or mid-send: {found}/{rounds} shown again by their link after the restart "
                  f"with both people's lines ({sent_before} already sent, {settled} found mid-send and settled at start), "
                  f"{once}/{rounds} made exactly one order")
        return not failures, figure, failures
    finally:
        server.stop()


def _quietly(call):
    """The send whose server is killed under it: its connection may simply close."""
    try:
        call()
    except OSError:
        pass
