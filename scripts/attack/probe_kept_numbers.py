"""Kept orders (issue 33 item 4): two counters that keep orders while `drinkshop serve` is away once both printed
`P1`, and the audit trail said `edit #P1` after the order had its pickup number. Each counter now puts its own letter
before the P number (`A-P1`, `B-P1`), and once the order is sent the trail, the pickup TV and the counter's message
follow it to its real number."""
import json
import re
import socket
import subprocess
import time

ORDER = ["order", "熟成紅茶", "大杯", "半糖", "少冰", "for"]


def counter_run(ctx, env, *words):
    return subprocess.run([ctx.binary, *words], env=env, capture_output=True, text=True, timeout=120)


def board(port, bound=8.0):
    """The first board the pickup TV's event stream sends, as JSON (None when none came within `bound` s)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=bound)
    sock.sendall(b"GET /display/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    got = b""
    started = time.time()
    try:
        while time.time() - started < bound:
            chunk = sock.recv(4096)
            if not chunk:
                break
            got += chunk
            match = re.search(rb"event: board\r?\ndata: (.*?)\r?\n\r?\n", got, re.S)
            if match:
                return json.loads(match.group(1).decode())
    except OSError:
        pass
    finally:
        sock.close()
    return None


def probe_two_counters_keep_different_numbers(ctx):
    """Two counters over the API (each its own outbox, as on two machines) work online, the server goes away, each
    keeps an order and edits it; the server comes back and each sends what it kept. The kept numbers must differ
    (A-P1 and B-P1), `log` must name each order by its pickup number with what it was, and the TV must show both."""
    failures = []
    server = ctx.server("kept-numbers")
    try:
        counters = [dict(ctx.env, AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base_id,
                         AIRTABLE_ENDPOINT_URL=server.url, DRINKSHOP_STAFF=f"till{n}",
                         DRINKSHOP_OUTBOX=ctx.path(f"outbox-{n}") + ".sqlite") for n in (1, 2)]
        for n, env in enumerate(counters, 1):
            done = counter_run(ctx, env, *ORDER, f"online{n}")
            if done.returncode != 0:
                return False, "set-up failed", [f"counter {n}: {done.stderr[-300:]}"]
        server.stop()
        kept = []
        for n, env in enumerate(counters, 1):
            done = counter_run(ctx, env, *ORDER, f"guest{n}")
            match = re.search(r"kept on this counter as (#\S+?):", done.stdout)
            if not match:
                failures.append(f"counter {n} did not keep its order: {(done.stdout + done.stderr)[-300:]!r}")
                continue
            kept.append(match.group(1))
            edited = counter_run(ctx, env, "edit", match.group(1), "中杯")
            if edited.returncode != 0:
                failures.append(f"counter {n}: edit {match.group(1)} while away: {edited.stderr[-200:]!r}")
        if len(kept) == 2 and kept[0] == kept[1]:
            failures.append(f"both counters handed out {kept[0]}: two customers hold the same slip")
        server.start(port=server.port)
        sent = {}
        for n, env in enumerate(counters, 1):
            done = counter_run(ctx, env, "orders")
            match = re.search(r"Sent order (#\S+): its pickup number is #(\d+)", done.stdout)
            if match:
                sent[match.group(1)] = int(match.group(2))
            else:
                failures.append(f"counter {n} did not say what its kept order became: {(done.stdout + done.stderr)[-300:]!r}")
        log = counter_run(ctx, counters[0], "log").stdout
        for was, number in sent.items():
            named = f"#{number} (was {was[1:]})"
            if named not in log:
                failures.append(f"log does not name the edit of {was} as {named}")
        stale = [was for was in sent if re.search(re.escape(was) + r"\s", log)]
        if stale:
            failures.append(f"log still names {stale} by the kept number alone")
        shown = board(server.port) or {}
        formerly = {entry.get("number"): entry.get("was") for entry in shown.get("formerly", [])}
        for was, number in sent.items():
            if formerly.get(number) != was[1:]:
                failures.append(f"the TV does not show {was[1:]} → {number}: formerly={shown.get('formerly')}")
        figure = (f"kept as {' and '.join(kept) or 'nothing'}; sent as "
                  + (", ".join(f"{was} → #{number}" for was, number in sent.items()) or "nothing")
                  + f"; TV formerly {sorted(formerly.values())}")
        return not failures, figure, failures
    finally:
        server.stop()


PROBES = [
    ("kept-numbers-two-counters", "two counters keep orders while the server is away: their kept numbers differ, and "
     "log, the TV and the counter follow each to its pickup number", probe_two_counters_keep_different_numbers),
]
