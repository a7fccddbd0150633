"""Webhooks that go where they were checked to go, and requests that cannot hold a core or the process.

- hooks-redirect: an allowed local receiver answers 307 to a local port nobody allowed; nothing may arrive there.
- hooks-own-address: a webhook URL whose host text reads as public but is this machine's own address; no
  connection may arrive. Offline there is no DNS, so a name like 127.0.0.1.nip.io cannot be tried here (the
  Swift tests cover names with an injected resolver); what is tried is the nearest real thing: an address
  of this machine's own interfaces that the text check takes for public (skipped, and said so, when the
  machine has none).
- cpu-regex: REGEX_MATCH({note}, '(.+)+$$x') with a read token answers within 2 s (the engine is linear), and
  regexes that outrun the listing's step budget answer 422 INVALID_FILTER_BY_FORMULA.
- cpu-sigterm: SIGTERM while requests compute ends `serve` within 2 s.
"""
import http.server
import socket
import threading
import time
import urllib.parse

READ, WRITE = "patATTACKREAD00000000", "patATTACKWRITE0000000"
PLAIN = {"options": {"filters": {"dataTypes": ["tableData"]}}}


def _free_port(host="127.0.0.1"):
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


class _Listener:
    """A raw TCP listener that notes every connection and the first bytes sent on it."""

    def __init__(self, host="0.0.0.0", port=0):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.seen = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                connection, _ = self.sock.accept()
            except OSError:
                return
            connection.settimeout(2)
            try:
                self.seen.append(connection.recv(200))
            except OSError as error:
                self.seen.append(repr(error).encode())
            connection.close()

    def stop(self):
        self.sock.close()


class _Bouncer:
    """An HTTP receiver that answers every POST with 307 to `location`."""

    def __init__(self, location_port):
        self.port = _free_port()
        self.pings = []
        pings = self.pings

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                pings.append(self.path)
                self.send_response(307)
                self.send_header("Location", f"http://127.0.0.1:{location_port}/stolen")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def _hook(server, url):
    return server.request("POST", f"/v0/bases/{server.base_id}/webhooks", {"notificationUrl": url, "specification": PLAIN},
                          token=WRITE)


def _last_results(server):
    _, listed, _ = server.request("GET", f"/v0/bases/{server.base_id}/webhooks", token=WRITE)
    return [hook.get("lastNotificationResult") for hook in (listed or {}).get("webhooks", [])]


def hooks_redirect(ctx):
    stolen = _Listener("127.0.0.1")
    bouncer = _Bouncer(stolen.port)
    server = ctx.server("hooks-redirect", tokens={WRITE: "read-write"},
                        extra=["--webhook-allow", f"http://127.0.0.1:{bouncer.port}"])
    failures = []
    try:
        status, answer, _ = _hook(server, f"http://127.0.0.1:{bouncer.port}/ping")
        if status != 200:
            failures.append(f"the allowed receiver's webhook: {status} {answer}")
        server.request("POST", f"/v0/{server.base_id}/OrderDrink", {"fields": {"orderName": "redirect"}}, token=WRITE)
        deadline = time.time() + 8
        while time.time() < deadline and len(bouncer.pings) < 2:  # the ping and its first retry (1 s later)
            time.sleep(0.1)
        time.sleep(0.5)
        if not bouncer.pings:
            failures.append("the allowed receiver was never pinged")
        if stolen.seen:
            failures.append(f"{len(stolen.seen)} connection(s) reached the port the 307 named: {stolen.seen[0][:60]!r}")
        results = _last_results(server)
    finally:
        server.stop()
        bouncer.stop()
        stolen.stop()
    figure = (f"{len(bouncer.pings)} pings to the allowed receiver answered 307; {len(stolen.seen)} reached the port it "
              f"named; recorded: {((results or [None])[0] or {}).get('error', {}).get('message', '-')}")
    return not failures, figure, failures


def _public_looking_own_address():
    """An address of this machine that the old text check took for public (not loopback/private/link-local)."""
    import ipaddress
    candidates = []
    try:
        with open("/proc/net/fib_trie") as handle:
            lines = handle.read().splitlines()
        for index, line in enumerate(lines):
            if "/32 host LOCAL" in line and index > 0:
                candidates.append(lines[index - 1].split()[-1])
    except OSError:
        pass
    for text in candidates:
        address = ipaddress.ip_address(text)
        if not (address.is_loopback or address.is_link_local or address.is_multicast or address.is_unspecified
                or address in ipaddress.ip_network("10.0.0.0/8") or address in ipaddress.ip_network("172.16.0.0/12")
                or address in ipaddress.ip_network("192.168.0.0/16") or address in ipaddress.ip_network("100.64.0.0/10")):
            return text
    return None


def hooks_own_address(ctx):
    own = _public_looking_own_address()
    if own is None:
        return True, "skipped: this machine has no address the text check takes for public (names need DNS)", []
    listener = _Listener("0.0.0.0")
    server = ctx.server("hooks-own-address", tokens={WRITE: "read-write"})
    failures = []
    try:
        status, answer, _ = _hook(server, f"https://{own}:{listener.port}/ping")
        server.request("POST", f"/v0/{server.base_id}/OrderDrink", {"fields": {"orderName": "own"}}, token=WRITE)
        deadline = time.time() + 4
        while time.time() < deadline and not listener.seen:
            time.sleep(0.1)
        if listener.seen:
            failures.append(f"a ping to https://{own}:{listener.port}/ (this machine) connected: {listener.seen[0][:20]!r}")
        results = _last_results(server) if status == 200 else []
    finally:
        server.stop()
        listener.stop()
    said = ((results or [None])[0] or {}).get("error", {}).get("message", "-") if status == 200 else f"{status} at creation"
    figure = f"https://{own}:PORT/ (this machine's own address): {len(listener.seen)} connections; {said}"
    return not failures, figure, failures


def _seed_notes(server, count=10, length=400):
    for start in range(0, count, 10):
        records = [{"fields": {"orderName": f"cpu{n}", "note": ("less ice, half sugar " * 40)[:length]}}
                   for n in range(start, min(count, start + 10))]
        status, answer, _ = server.request("POST", f"/v0/{server.base_id}/OrderDrink", {"records": records}, token=WRITE)
        if status != 200:
            raise RuntimeError(f"seeding notes: {status} {answer}")


def _filtered(server, formula, timeout):
    query = urllib.parse.urlencode({"filterByFormula": formula})
    started = time.monotonic()
    try:
        status, answer, _ = server.request("GET", f"/v0/{server.base_id}/OrderDrink?{query}", token=READ, timeout=timeout)
    except (socket.timeout, TimeoutError, OSError) as error:
        return None, repr(error), time.monotonic() - started
    return status, answer, time.monotonic() - started


# Regexes that together outrun the listing's step budget (linear work, but much of it).
_BUDGET_BURNER = "REGEX_MATCH(REPT({note}, 20), '(.|..){60}z')"


def cpu_regex(ctx):
    server = ctx.server("cpu-regex", tokens={WRITE: "read-write", READ: "read"})
    failures = []
    try:
        _seed_notes(server)
        status, answer, took = _filtered(server, "REGEX_MATCH({note},'(.+)+$$x')", timeout=5)
        ok = status == 200 and answer.get("records") == [] or status == 422
        if not ok or took > 2:
            failures.append(f"(.+)+$$x: {status} after {took:.1f} s: {str(answer)[:120]}")
        burned, burned_answer, burned_took = _filtered(server, _BUDGET_BURNER, timeout=10)
        kind = (burned_answer or {}).get("error", {}).get("type") if isinstance(burned_answer, dict) else None
        if burned != 422 or kind != "INVALID_FILTER_BY_FORMULA" or burned_took > 5:
            failures.append(f"a budget-spending filter: {burned} {kind} after {burned_took:.1f} s")
    finally:
        server.stop(timeout=3)
    figure = (f"(.+)+$$x over 10 notes of 400 chars: {status} in {took:.2f} s; a filter past the step budget: "
              f"{burned} {kind} in {burned_took:.2f} s")
    return not failures, figure, failures


def cpu_sigterm(ctx):
    server = ctx.server("cpu-sigterm", tokens={WRITE: "read-write", READ: "read"})
    failures = []
    stop = threading.Event()

    def keep_busy():
        while not stop.is_set():
            status, _, _ = _filtered(server, _BUDGET_BURNER, timeout=30)
            if status is None:
                return

    workers = [threading.Thread(target=keep_busy, daemon=True) for _ in range(3)]
    try:
        _seed_notes(server)
        for worker in workers:
            worker.start()
        time.sleep(0.7)
        started = time.monotonic()
        server.process.send_signal(15)
        try:
            server.process.wait(timeout=10)
            took = time.monotonic() - started
        except Exception:
            took = None
        if took is None or took > 2:
            failures.append("serve still ran 10 s after SIGTERM" if took is None else f"serve took {took:.2f} s to stop")
    finally:
        stop.set()
        server.stop(timeout=3)
    figure = "SIGTERM while 3 clients ran budget-spending filters: serve ended in " + (f"{took:.2f} s" if took else "> 10 s")
    return not failures, figure, failures


PROBES = [
    ("hooks-redirect", "a 307 from an allowed receiver to a port not allowed delivers nothing there", hooks_redirect),
    ("hooks-own-address", "a public-looking host that is this machine gets no connection", hooks_own_address),
    ("cpu-regex", "catastrophic and budget-spending filterByFormula regexes answer within seconds", cpu_regex),
    ("cpu-sigterm", "SIGTERM ends serve within 2 s while requests compute", cpu_sigterm),
]
