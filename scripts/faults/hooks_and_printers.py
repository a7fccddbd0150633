"""Faults 11 and 12: webhooks held to Airtable's bounds (receivers, credentials, count, shape, size) with the
cost of a write beside 10 of the largest webhooks, and a label printer that is a FIFO nobody reads."""
import http.server
import json
import os
import socket
import subprocess
import threading
import time



# The password in a refused webhook URL, which must never reach the log.
SECRET = "hunter2-never-logged"

def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Receiver:
    """A loopback webhook receiver on a port chosen before the server starts (serve must name it)."""

    def __init__(self):
        self.port = _free_port()
        self.pings = []
        pings = self.pings

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                pings.append((self.rfile.read(length), self.headers.get("Authorization")))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def largest_spec(table_id):
    """A specification just under the 8 KB bound: every documented key, 390 watched field ids."""
    ids = [f"fld{n:014d}" for n in range(390)]
    return {"options": {
        "filters": {"dataTypes": ["tableData"], "recordChangeScope": table_id, "changeTypes": ["add", "update"],
                    "fromSources": ["publicApi", "client"], "watchDataInFieldIds": ids},
        "includes": {"includeCellValuesInFieldIds": "all", "includePreviousCellValues": True}}}


def _one_shot_orders(binary, db, env, count):
    """Seconds each of `count` one-shot `drinkshop order` commands took on the served store file."""
    times = []
    for index in range(count):
        started = time.monotonic()
        done = subprocess.run([binary, "--db", db, "order", "熟成紅茶", "大杯", "半糖", "少冰", "for", f"H{index}"],
                              env=env, capture_output=True, timeout=60)
        times.append(time.monotonic() - started)
        if done.returncode != 0:
            raise RuntimeError(f"order failed: {done.stdout.decode()} {done.stderr.decode()}")
    return times


def _quiet(receiver, settle=0.5, bound=10):
    """Waits until the receiver has had no ping for `settle` seconds (at most `bound`): a measurement then
    does not share the machine with pings still owed for earlier writes."""
    deadline = time.time() + bound
    seen, since = len(receiver.pings), time.time()
    while time.time() < deadline:
        time.sleep(0.05)
        if len(receiver.pings) != seen:
            seen, since = len(receiver.pings), time.time()
        elif time.time() - since >= settle:
            return


def _api_writes(server, count):
    """Seconds each of `count` single-record creates through the server took."""
    times = []
    for index in range(count):
        started = time.monotonic()
        status, answer, _ = server.request("POST", f"/v0/{server.base_id}/OrderDrink",
                                           {"fields": {"orderName": f"api{index}", "numberOfCups": 1}})
        times.append(time.monotonic() - started)
        if status != 200:
            raise RuntimeError(f"a write through the server: {status} {answer}")
    return times


def webhooks(make_server, binary, db, env, writes=15):
    """Refused receivers and specifications get 422; an allowed loopback receiver is pinged; 10 per base; the
    one-shot order's time with 10 of the largest webhooks against none (medians)."""
    receiver = Receiver()
    server = make_server([f"--webhook-allow", f"http://127.0.0.1:{receiver.port}"]).start()
    failures = []
    try:
        hooks = f"/v0/bases/{server.base_id}/webhooks"
        _, tables, _ = server.request("GET", f"/v0/meta/bases/{server.base_id}/tables")
        order_table = next(t["id"] for t in tables["tables"] if t["name"] == "OrderDrink")
        plain = {"options": {"filters": {"dataTypes": ["tableData"]}}}
        other = _free_port()
        refused = [
            ({"notificationUrl": f"http://127.0.0.1:{other}/", "specification": plain}, "a loopback port not allowed"),
            ({"notificationUrl": f"http://user:{SECRET}@127.0.0.1:{receiver.port}/", "specification": plain}, "credentials"),
            ({"notificationUrl": "https://127.0.0.1/", "specification": plain}, "https to loopback"),
            ({"notificationUrl": "https://[::1]:9/", "specification": plain}, "https to ::1"),
            ({"notificationUrl": "http://2130706433/", "specification": plain}, "127.0.0.1 spelt as a number"),
            ({"notificationUrl": "http://example.com/", "specification": plain}, "plain http"),
            ({"specification": {"options": {"filters": {"dataTypes": ["tableData"], "x": 1}}}}, "an unknown key"),
            ({"specification": {"options": {"filters": {"dataTypes": ["records"]}}}}, "an unknown data type"),
            ({"specification": {"options": {"filters": {"dataTypes": ["tableData"],
                                                        "watchDataInFieldIds": ["fld" + "x" * 14] * 600}}}}, "12 KB"),
        ]
        for body, label in refused:
            status, answer, _ = server.request("POST", hooks, body)
            kind = (answer or {}).get("error", {}).get("type") if isinstance(answer, dict) else None
            if status != 422 or kind != "INVALID_REQUEST_UNKNOWN":
                failures.append(f"{label}: {status} {answer}")
        # The password is a word no record id or base id holds by chance ("pw" once did: an id's two letters).
        if SECRET in " ".join(server.log_lines()):
            failures.append("a refused URL's password is in the log")

        _one_shot_orders(binary, db, env, 2)  # warm the file and the page cache
        before = _one_shot_orders(binary, db, env, writes)
        # Ten small webhooks at the same receiver first: writes through the server then cost the payloads and
        # the pings; the largest specifications must add nothing to that.
        small = {"options": {"filters": {"dataTypes": ["tableData"], "recordChangeScope": order_table}}}
        small_ids = [server.request("POST", hooks, {"notificationUrl": f"http://127.0.0.1:{receiver.port}/ping",
                                                    "specification": small})[1]["id"] for _ in range(10)]
        _quiet(receiver)
        api_before = _api_writes(server, writes * 4)
        for hook_id in small_ids:
            server.request("DELETE", f"{hooks}/{hook_id}")
        made = 0
        for _ in range(10):
            status, answer, _ = server.request("POST", hooks, {
                "notificationUrl": f"http://127.0.0.1:{receiver.port}/ping", "specification": largest_spec(order_table)})
            made += status == 200
            if status != 200:
                failures.append(f"webhook {made + 1} of 10: {status} {answer}")
        status, _, _ = server.request("POST", hooks, {"specification": plain})
        if status != 422:
            failures.append(f"an 11th webhook: {status}, not 422")
        after = _one_shot_orders(binary, db, env, writes)
        _quiet(receiver)
        api_after = _api_writes(server, writes * 4)

        def swap(spec):
            """Replaces the base's webhooks by ten of `spec` at the allowed receiver, and waits for quiet."""
            _, listed_now, _ = server.request("GET", hooks)
            for hook in listed_now["webhooks"]:
                server.request("DELETE", f"{hooks}/{hook['id']}")
            for _ in range(10):
                server.request("POST", hooks, {"notificationUrl": f"http://127.0.0.1:{receiver.port}/ping",
                                               "specification": spec})
            _quiet(receiver)
        # Small and largest alternate twice more, so a slow spell of the machine falls on both sides.
        for _ in range(2):
            swap(small)
            api_before += _api_writes(server, writes * 4)
            swap(largest_spec(order_table))
            api_after += _api_writes(server, writes * 4)
        # The writes through the server pinged every webhook at the allowed receiver.
        deadline = time.time() + 10
        while time.time() < deadline and len(receiver.pings) < 10:
            time.sleep(0.05)
        if len(receiver.pings) < 10:
            failures.append(f"{len(receiver.pings)} of 10 webhooks pinged the allowed receiver")
        if any(auth for _, auth in receiver.pings):
            failures.append("a ping carried an Authorization header")
        _, listed, _ = server.request("GET", hooks)
        payloads = sum(h["cursorForNextPayload"] - 1 for h in listed["webhooks"])
    finally:
        server.stop()
        receiver.stop()
    median = lambda values: sorted(values)[len(values) // 2]  # noqa: E731
    ratio = median(after) / median(before)
    api_ratio = median(api_after) / median(api_before)
    # A one-shot process parses each specification once; re-reading and re-parsing 80 KB of specifications on
    # every write (what this replaced) cost far more.
    if ratio > 2 or api_ratio > 1.5:
        failures.append(f"a one-shot order took x{ratio:.2f} beside 10 of the largest webhooks, a write "
                        f"through the server x{api_ratio:.2f} beside 10 largest against 10 smallest")
    figure = (f"{len(refused)} bad receivers and specifications refused (422); {made} webhooks of "
              f"{len(json.dumps(largest_spec(order_table), separators=(',', ':')))} bytes made, the 11th refused; "
              f"pings at the allowed receiver: {len(receiver.pings)}, payloads written: {payloads}; median one-shot "
              f"order {median(before) * 1000:.0f} ms with no webhook, {median(after) * 1000:.0f} ms with 10 "
              f"(x{ratio:.2f}); median write through the server beside 10 pinged webhooks of the smallest "
              f"specification {median(api_before) * 1000:.1f} ms, of the largest {median(api_after) * 1000:.1f} ms "
              f"(x{api_ratio:.2f})")
    return not failures, figure, failures


def printer_fifo(binary, workdir, env, bound=10.0):
    """DRINKSHOP_LABEL_PRINTER is a FIFO with no reader: a one-shot order is placed and the command ends
    within `bound` s, saying the failure once; a piped REPL runs every line; `label #N` prints once a reader is
    there."""
    fifo = os.path.join(workdir, "label-fifo")
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    db = os.path.join(workdir, "printer.sqlite")
    subprocess.run([binary, "init", "--db", db], env=env, capture_output=True, timeout=60)
    run_env = dict(env, DRINKSHOP_LABEL_PRINTER=fifo)
    failures = []
    started = time.monotonic()
    try:
        one = subprocess.run([binary, "--db", db, "order", "熟成紅茶", "大杯", "半糖", "少冰", "for", "Fifo"],
                             env=run_env, capture_output=True, timeout=bound + 20)
        one_shot = time.monotonic() - started
        said = (one.stdout + one.stderr).decode()
        if one.returncode != 0 or one_shot > bound:
            failures.append(f"one-shot order: exit {one.returncode} after {one_shot:.1f} s: {said}")
        if said.count("label printer") != 1:
            failures.append(f"the printer failure was said {said.count('label printer')} times: {said}")
    except subprocess.TimeoutExpired:
        one_shot = time.monotonic() - started
        failures.append(f"the one-shot order hung ({one_shot:.0f} s)")
    started = time.monotonic()
    try:
        repl = subprocess.run([binary, "--db", db], input="order 熟成紅茶 中杯 無糖 去冰 for Pipe\norders\nquit\n".encode(),
                              env=run_env, capture_output=True, timeout=bound + 20)
        piped = time.monotonic() - started
        text = repl.stdout.decode()
        if "Pipe" not in text or piped > bound:
            failures.append(f"piped REPL after {piped:.1f} s did not list the order: {text[-400:]}")
    except subprocess.TimeoutExpired:
        piped = time.monotonic() - started
        failures.append(f"the piped REPL hung ({piped:.0f} s)")
    # A reader at last: the sticker prints on request.
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    later = subprocess.run([binary, "--db", db, "label", "#1"], env=run_env, capture_output=True, timeout=30)
    reader.join(timeout=10)
    printed = bool(got and got[0])
    if later.returncode != 0 or not printed:
        failures.append(f"label #1 with a reader: exit {later.returncode}, {len(got[0]) if got else 0} bytes: "
                        f"{(later.stdout + later.stderr).decode()}")
    figure = (f"FIFO without a reader: one-shot order done in {one_shot:.1f} s (bound {bound:.0f} s), piped REPL "
              f"in {piped:.1f} s; label #1 later with a reader: {'printed' if printed else 'NOT printed'}")
    return not failures, figure, failures
