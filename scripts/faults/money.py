"""Money under concurrent counters and crashes.

Item 13, paying at once: each round places an order, then starts several `drinkshop pay #N card` processes at
the same instant, on the embedded store file itself and through `drinkshop serve` (the remote path: no
transactions, the ledger's claim rule). Every round must end with exactly one payment in the ledger, one
process told it paid and the others `already paid`.

Item 14, kill -9 at every fdatasync of `pay`: strace kills the paying process at its 1st, 2nd, ... fdatasync
until a run gets through. After each kill the order is paid once or not at all (the payment and the order's
copy are one commit), and paying again does the right thing: pays when nothing was recorded, says `already
paid` when it was.
"""
import json
import os
import shutil
import subprocess
import urllib.parse

import drinkshop_harness as harness


def _run(binary, args, env, timeout=60):
    return subprocess.run([binary] + args, env=env, capture_output=True, text=True, timeout=timeout)


def _place(binary, env, db=None):
    """Places one order; returns its pickup number."""
    args = (["--db", db] if db else []) + ["order", "熟成紅茶", "M", "無糖", "去冰"]
    result = _run(binary, args, env)
    if result.returncode != 0:
        raise RuntimeError(f"order failed: {result.stderr.strip()}")
    for line in result.stdout.splitlines():
        if "取餐號 #" in line:
            return int(line.split("取餐號 #")[1].split()[0])
    raise RuntimeError(f"no pickup number in: {result.stdout!r}")


def _ledger(server, order_ref):
    formula = urllib.parse.quote(f"{{orderRef}}='{order_ref}'")
    status, body, _ = server.request("GET", f"/v0/{server.base_id}/TillPayment?filterByFormula={formula}")
    if status != 200:
        raise RuntimeError(f"reading the ledger: {status} {body}")
    return body["records"]


def _order(server, number):
    formula = urllib.parse.quote(f"AND({{pickupNumber}}={number}, {{line}}=1)")
    status, body, _ = server.request("GET", f"/v0/{server.base_id}/OrderDrink?filterByFormula={formula}")
    if status != 200 or not body["records"]:
        raise RuntimeError(f"reading order #{number}: {status} {body}")
    # Today's order of that number (the newest, should several days be stored).
    return max(body["records"], key=lambda record: record["createdTime"])["fields"]


def paying_at_once(binary, workdir, env, rounds, payers):
    db = os.path.join(workdir, "money-race.sqlite")
    server = harness.Server(binary, db, env=env).start()
    failures = []
    try:
        _run(binary, ["--db", db, "seed", os.path.join(harness.ROOT, "Seeds", "menu.json")], env)
        remote = dict(env, AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base_id, AIRTABLE_ENDPOINT_URL=server.url)
        remote.pop("AIRTABLE_API_KEY", None)
        remote["DRINKSHOP_OUTBOX"] = os.path.join(workdir, "money-outbox")
        sides = [("embedded", lambda n: ["--db", db, "pay", f"#{n}", "card"], env),
                 ("served", lambda n: ["pay", f"#{n}", "card"], remote)]
        done = {"embedded": 0, "served": 0}
        for side, command, side_env in sides:
            for round_number in range(rounds):
                number = _place(binary, side_env, db if side == "embedded" else None)
                processes = [subprocess.Popen([binary] + command(number), env=side_env, stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE, text=True) for _ in range(payers)]
                outcomes = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in processes]
                paid = [o for o in outcomes if o[0] == 0]
                told = [o for o in outcomes if o[0] != 0 and "already paid" in o[2]]
                order = _order(server, number)
                ledger = _ledger(server, order["orderRef"])
                if len(paid) != 1 or len(told) != payers - 1 or len(ledger) != 1:
                    other = [o[2].strip() for o in outcomes if o[0] != 0 and "already paid" not in o[2]]
                    failures.append(f"{side} round {round_number + 1} (#{number}): {len(paid)} paid, {len(told)} told "
                                    f"already paid, {len(ledger)} payments in the ledger; other errors: {other[:2]}")
                elif order.get("paid") != ledger[0]["fields"]["amount"]:
                    failures.append(f"{side} round {round_number + 1}: the order's copy says paid {order.get('paid')}, "
                                    f"the ledger {ledger[0]['fields']['amount']}")
                else:
                    done[side] += 1
    finally:
        server.stop()
    figure = (f"{payers} processes paying one order at once, {rounds} rounds each: embedded {done['embedded']}/{rounds}, "
              f"through drinkshop serve {done['served']}/{rounds} rounds with exactly one payment")
    return not failures, figure, failures


def kill_at_every_fdatasync(binary, workdir, env, limit):
    if not shutil.which("strace"):
        return False, "strace is not installed (apt-get install strace)", []
    db = os.path.join(workdir, "money-kill.sqlite")
    server = harness.Server(binary, db, env=env).start()
    failures, kills, kept = [], 0, 0
    try:
        _run(binary, ["--db", db, "seed", os.path.join(harness.ROOT, "Seeds", "menu.json")], env)
        finished = False
        for when in range(1, limit + 1):
            number = _place(binary, env, db)
            traced = subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=fdatasync",
                                     "-e", f"inject=fdatasync:signal=SIGKILL:when={when}",
                                     binary, "--db", db, "pay", f"#{number}", "card"],
                                    env=env, capture_output=True, text=True, timeout=120)
            order = _order(server, number)
            ledger = _ledger(server, order["orderRef"])
            killed = traced.returncode != 0
            kills += killed
            kept += killed and len(ledger) == 1
            if len(ledger) > 1 or (len(ledger) == 1) != (order.get("paid", 0) > 0):
                failures.append(f"kill at fdatasync {when}: {len(ledger)} payments in the ledger, the copy says paid "
                                f"{order.get('paid', 0)}")
            again = _run(binary, ["--db", db, "pay", f"#{number}", "card"], env)
            if ledger and (again.returncode == 0 or "already paid" not in again.stderr):
                failures.append(f"kill at fdatasync {when}: the payment was recorded, yet paying again said "
                                f"{(again.stdout + again.stderr).strip()[:120]!r}")
            if not ledger and again.returncode != 0:
                failures.append(f"kill at fdatasync {when}: nothing was recorded, yet paying again was refused: "
                                f"{again.stderr.strip()[:120]!r}")
            if len(_ledger(server, order["orderRef"])) != 1:
                failures.append(f"kill at fdatasync {when}: not exactly one payment after paying again")
            if not killed:
                finished = True
                break
        if not finished:
            failures.append(f"pay was still being killed after {limit} fdatasyncs")
    finally:
        server.stop()
    figure = (f"pay killed at each of its fdatasyncs ({kills} kills: {kept} after the commit, {kills - kept} before it; "
              f"then one run through): paid once or not at all, and paying again right, every time")
    return not failures, figure, failures
