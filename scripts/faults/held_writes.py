"""Item 24: a gateway killed while it holds order updates loses none it acknowledged.

The gateway (`drinkshop serve --upstream`) answers an order's updates (its payment copy, each advance) from its
copy of the table and sends them to the base later (`--hold-writes`), keeping them in its journal first. Here
the base is `drinkshop serve --like-airtable` and the gateway holds for an hour, so nothing leaves by the clock:
- killed with -9 after a counter (one-shot commands) placed, paid and advanced orders: the base has the orders
  but none of the held updates; the gateway started again sends them at once, and the base then shows every
  advance and payment the counter was told of;
- four counters paying one order at the same instant through it: one payment in the ledger, one counter told
  paid and three `already paid`, and the order's copy (held) saying the ledger's amount, through the gateway at
  once and at the base once the gateway has sent it;
- an fdatasync of the journal failing with EIO (strace): the write is refused 503, not acknowledged, and cut back out
  of the journal (the counter's client sends it again); killed then, the journal holds exactly the writes
  acknowledged, and everything the counter was told of reaches the base after a restart;
- killed by strace at an fdatasync (the Nth of a thread, N = 1, 2, ...: the journal's sync of one write, before
  the counter is answered), then started again: every advance the counter was told of is at the base; the one being synced may or
  may not be (the counter was told it failed).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.parse

import drinkshop_harness as harness

GATEWAY_TOKEN = "patFAULTSGATEWAY000000000"


def _gateway(binary, upstream, home, strace_kill_at=None, strace_eio_at=None):
    env = dict(os.environ, AIRTABLE_TOKEN=upstream.token, DRINKSHOP_API_TOKEN=GATEWAY_TOKEN, HOME=home,
               XDG_STATE_HOME=home + "/state", XDG_DATA_HOME=home + "/data", AIRTABLE_RATE_LIMIT="1000")
    env.pop("AIRTABLE_BASE_ID", None)
    command = [binary, "serve", "--port", "0", "--upstream", upstream.url, "--base", upstream.base_id,
               "--hold-writes", "3600"]
    if strace_kill_at:
        command = ["strace", "-f", "-o", "/dev/null", "-e", "trace=fdatasync",
                   "-e", f"inject=fdatasync:signal=SIGKILL:when={strace_kill_at}"] + command
    if strace_eio_at:
        command = ["strace", "-f", "-o", "/dev/null", "-e", "trace=fdatasync",
                   "-e", f"inject=fdatasync:error=EIO:when={strace_eio_at}"] + command
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=open(os.path.join(home, "gateway.log"), "ab"),
                               env=env)
    port = None
    while port is None:
        line = process.stdout.readline().decode()
        if not line:
            raise RuntimeError("the gateway did not start: " + open(os.path.join(home, "gateway.log")).read()[-300:])
        match = re.search(r"endpoint\s+http://127\.0\.0\.1:(\d+)", line)
        if match:
            port = int(match.group(1))
    return process, port


def _stop(gateway, how=signal.SIGTERM):
    """Stops a gateway as Ctrl-C would (it sends what it holds), or kills it; under strace, the traced gateway itself."""
    traced = subprocess.run(["pgrep", "-P", str(gateway.pid)], capture_output=True, text=True).stdout.split()
    for pid in traced or [str(gateway.pid)]:
        os.kill(int(pid), how)
    gateway.wait(timeout=30)


def _counter_env(home, port, upstream):
    env = dict(os.environ, AIRTABLE_TOKEN=GATEWAY_TOKEN, AIRTABLE_BASE_ID=upstream.base_id,
               AIRTABLE_ENDPOINT_URL=f"http://127.0.0.1:{port}", HOME=home + "/counter",
               XDG_STATE_HOME=home + "/counter/state", XDG_DATA_HOME=home + "/counter/data", NO_COLOR="1",
               DRINKSHOP_STAFF="faults", AIRTABLE_RATE_LIMIT="1000")
    for name in ("AIRTABLE_API_KEY", "DRINKSHOP_OUTBOX"):
        env.pop(name, None)
    return env


def _run(binary, args, env):
    return subprocess.run([binary] + args, env=env, capture_output=True, text=True, timeout=60)


def _orders_at_base(upstream):
    return {int(r["fields"]["pickupNumber"]): r["fields"] for r in upstream.all_records("OrderDrink")
            if "pickupNumber" in r["fields"]}


STEPS = ["placed", "preparing", "ready", "picked up"]


def _day(binary, env, orders, told):
    """Places, pays and advances orders with one-shot commands; records in `told` what the counter was told:
    number -> (status, paid). Stops at the first command that fails (the gateway died)."""
    for _ in range(orders):
        placed = _run(binary, ["order", "熟成紅茶", "M", "無糖", "去冰"], env)
        match = re.search(r"取餐號 #(\d+)", placed.stdout)
        if placed.returncode != 0 or not match:
            return False
        number = int(match.group(1))
        told[number] = ("placed", False)
        if _run(binary, ["pay", f"#{number}", "card"], env).returncode != 0:
            return False
        told[number] = ("placed", True)
        for step in STEPS[1:3]:
            if _run(binary, ["advance", f"#{number}"], env).returncode != 0:
                return False
            told[number] = (step, True)
    return True


def _wait_for(upstream, told, seconds=20):
    """The base's orders once every told update is there (or the time is up)."""
    deadline = time.monotonic() + seconds
    while True:
        at_base = _orders_at_base(upstream)
        missing = [n for n, (status, paid) in told.items()
                   if n not in at_base or STEPS.index(at_base[n].get("status", "placed")) < STEPS.index(status)
                   or (paid and not at_base[n].get("paid"))]
        if not missing or time.monotonic() > deadline:
            return at_base, missing
        time.sleep(0.2)


def _restart_and_check(binary, upstream, home, told):
    """Starts the gateway of `home` again; the orders still lacking what the counter was told once it sent its journal."""
    gateway, _ = _gateway(binary, upstream, home)
    try:
        return _wait_for(upstream, told)[1]
    finally:
        _stop(gateway)


def run(binary, workdir, env, kills=3):
    notes = []
    base_dir = os.path.join(workdir, "held")
    shutil.rmtree(base_dir, ignore_errors=True)
    os.makedirs(base_dir)
    upstream = harness.Server(binary, os.path.join(base_dir, "base.sqlite"), token="patFAULTSUPSTREAM00000000",
                              extra=["--like-airtable"], env=env).start()
    try:
        # 1. kill -9 with writes held.
        home = os.path.join(base_dir, "plain")
        os.makedirs(home)
        gateway, port = _gateway(binary, upstream, home)
        told = {}
        counter = _counter_env(home, port, upstream)
        if not _day(binary, counter, 5, told):
            gateway.kill()
            return False, "a command failed through a running gateway", []
        held = _orders_at_base(upstream)
        advanced = [n for n in told if held.get(n, {}).get("status", "placed") != "placed"]
        if len(held) != 5 or advanced:
            gateway.kill()
            return False, f"before the kill the base should hold 5 orders, none advanced: {len(held)} orders, " \
                          f"{len(advanced)} advanced (the gateway did not hold)", []
        gateway.send_signal(signal.SIGKILL)
        gateway.wait()
        journal = os.path.join(home, "data", "drinkshop", f"gateway-{upstream.base_id}-held.jsonl")
        kept = sum(1 for line in open(journal) if line.startswith('{"')) if os.path.exists(journal) else 0
        missing = _restart_and_check(binary, upstream, home, told)
        if missing:
            return False, f"after the restart {len(missing)} of 5 orders lack what the counter was told: {missing}", []
        notes.append(f"kill -9 with 5 orders' updates held ({kept} journal lines): all at the base after the restart")

        # Four counters paying one order at once, through the gateway.
        home = os.path.join(base_dir, "race")
        os.makedirs(home)
        gateway, port = _gateway(binary, upstream, home)
        counter = _counter_env(home, port, upstream)
        try:
            for round_number in range(3):
                placed = _run(binary, ["order", "熟成紅茶", "M", "無糖", "去冰"], counter)
                number = int(re.search(r"取餐號 #(\d+)", placed.stdout).group(1))
                payers = [subprocess.Popen([binary, "pay", f"#{number}", "card"], env=counter, stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE, text=True) for _ in range(4)]
                outcomes = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in payers]
                paid = [o for o in outcomes if o[0] == 0]
                told = [o for o in outcomes if o[0] != 0 and "already paid" in o[2]]
                shown = _run(binary, ["orders", "all", "--json"], counter)
                if shown.returncode != 0:
                    return False, "orders --json through the gateway failed: " + shown.stderr.strip()[:160], []
                copy = next((r["fields"] for r in json.loads(shown.stdout) if r["fields"].get("pickupNumber") == number), {})
                ref = _orders_at_base(upstream)[number]["orderRef"]
                ledger = [r for r in upstream.all_records("TillPayment", "filterByFormula="
                                                          + urllib.parse.quote(f"{{orderRef}}='{ref}'"))
                          if r["fields"].get("amount")]
                if len(paid) != 1 or len(told) != 3 or len(ledger) != 1:
                    return False, (f"paying at once, round {round_number + 1}: {len(paid)} paid, {len(told)} told already "
                                   f"paid, {len(ledger)} payments in the ledger"), [o[2].strip()[:160] for o in outcomes]
                if copy.get("paid") != ledger[0]["fields"]["amount"]:
                    return False, f"paying at once: the copy through the gateway says {copy.get('paid')}, the ledger " \
                                  f"{ledger[0]['fields']['amount']}", []
        finally:
            gateway.terminate()
            gateway.wait(timeout=30)
        races = {n: f for n, f in _orders_at_base(upstream).items() if n > 5}
        wrong = [n for n, f in races.items() if not f.get("paid")]
        if wrong:
            return False, f"paying at once: after the gateway stopped, orders {wrong} have no paid copy at the base", []
        notes.append("4 counters paying one order at once, 3 rounds: one payment each, the copy at the base says it")

        # 2. killed at its Nth fdatasync (the journal's), then started again.
        survived = 0
        for n in range(1, kills + 1):
            home = os.path.join(base_dir, f"sync{n}")
            os.makedirs(home)
            gateway, port = _gateway(binary, upstream, home, strace_kill_at=n)
            told = {}
            finished = _day(binary, _counter_env(home, port, upstream), 3, told)
            gateway.wait(timeout=60) if not finished else None
            if finished:
                _stop(gateway)
                survived += 1
            missing = _restart_and_check(binary, upstream, home, told)
            if missing:
                return False, f"killed at fdatasync {n}: orders {missing} lack an update the counter was told of", []
        notes.append(f"killed at fdatasync 1..{kills} ({kills - survived} killed mid-day): every update a counter "
                     "was told of reached the base after the restart")

        # An fdatasync of the journal that fails (EIO, the 1st or 2nd of a thread: strace counts per thread): that
        # write is refused 503 and not acknowledged (the counter's client sends it again). Every update the counter
        # was told of reaches the base.
        failed = []
        for n in (1, 2):
            home = os.path.join(base_dir, f"eio{n}")
            os.makedirs(home)
            gateway, port = _gateway(binary, upstream, home, strace_eio_at=n)
            told = {}
            counter = _counter_env(home, port, upstream)
            for _ in range(3):
                _day(binary, counter, 1, told)
            # Killed with what it holds: the journal keeps exactly the writes acknowledged (a write refused at its
            # sync was cut back out of it), each order's payment copy and advances.
            _stop(gateway, signal.SIGKILL)
            journal = os.path.join(home, "data", "drinkshop", f"gateway-{upstream.base_id}-held.jsonl")
            kept = sum(1 for line in open(journal) if line.startswith('{"fields"') or '"seq"' in line)
            acknowledged = sum(int(paid) + STEPS.index(status) for status, paid in told.values())
            if kept != acknowledged:
                return False, f"an EIO at fdatasync {n}: the journal keeps {kept} writes, the counter was told of " \
                              f"{acknowledged}", []
            failed.append(open(os.path.join(home, "gateway.log"), errors="replace").read().count("cannot be synced"))
            missing = _restart_and_check(binary, upstream, home, told)
            if missing:
                return False, f"an EIO at fdatasync {n}: orders {missing} lack an update the counter was told of", []
        if 0 in failed:
            return False, f"an injected EIO did not reach the journal (failed syncs logged: {failed})", []
        notes.append(f"an EIO at the journal's fdatasync ({sum(failed)} syncs failed): each write refused 503, cut back out "
                     "of the journal and sent again by the counter; killed then, the journal held exactly the acknowledged "
                     "writes, every one at the base after a restart")
        return True, "; ".join(notes), []
    finally:
        upstream.stop()
