"""Quotas per network, not per address: one machine has all of 127/8 (and every address of its IPv6 /64), so the
attacker here speaks from many loopback addresses of ONE /24 (127.0.0.2, .3, ...) and tries to fill each of the
server's global caps; a client on another /24 (127.1.0.1) must still get in. And many live streams must not
grow the server's memory without bound."""
import http.client
import re
import selectors
import socket
import subprocess
import threading
import time
import urllib.parse

OTHER = "127.1.0.1"  # another /24: someone else


def attacker(index):
    """The attacker's index-th address, all in 127.0.0.0/24."""
    return f"127.0.0.{2 + index % 250}"


class Browser:
    """A browser from one loopback address: keeps its cookies, and sends back a form's hidden fields (a page that
    adds a token to its forms gets it back)."""

    def __init__(self, server, source):
        self.server = server
        self.source = source
        self.cookies = {}
        self.hidden = {}

    def request(self, method, path, form=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30,
                                                source_address=(self.source, 0))
        headers = {"Host": f"127.0.0.1:{self.server.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            fields = dict(self.hidden)
            fields.update(form)
            body = urllib.parse.urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"http://127.0.0.1:{self.server.port}"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")
        except OSError as error:
            return 0, str(error), None
        finally:
            connection.close()
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        for tag in re.findall(r"<input[^>]*type=\"hidden\"[^>]*>", text):
            name = re.search(r"name=\"([^\"]+)\"", tag)
            value = re.search(r"value=\"([^\"]*)\"", tag)
            if name:
                self.hidden[name.group(1)] = value.group(1) if value else ""
        return response.status, text, response.headers.get("Location")

    def start_group(self, name="Bot"):
        """Starts a group; returns (status, the group's path or None)."""
        if not self.cookies:
            self.request("GET", "/order")
        status, _, location = self.request("POST", "/order/start", {"name": name})
        if status == 303 and location and "/order/g/" in location:
            path = location if location.startswith("/") else urllib.parse.urlparse(location).path
            self.request("GET", path)  # the group page (and whatever its forms carry)
            return status, path
        return status, None

    def add_line(self, group, cups):
        status, _, _ = self.request("POST", group + "/lines", {"drink": "熟成紅茶", "size": "中杯", "ice": "少冰",
                                                                "sugar": "半糖", "cups": str(cups)})
        return status

    def send(self, group):
        status, text, _ = self.request("POST", group + "/send", {})
        return status, text


def online_on(ctx, server):
    """`online on` at a counter on the served base (a one-shot command over the API)."""
    env = {k: v for k, v in ctx.env.items() if not k.startswith("AIRTABLE_")}
    env.update(AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base_id,
               AIRTABLE_ENDPOINT_URL=server.url, NO_COLOR="1", DRINKSHOP_OUTBOX=ctx.path("outbox") + ".sqlite")
    done = subprocess.run([ctx.binary, "--staff", "attack", "online", "on"], env=env, capture_output=True,
                          text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError("online on failed: " + done.stderr[-300:])


def groups_cap(ctx):
    """The 1,000-group cap: one /24 starts groups from address after address (a new browser each time) until it
    is refused 30 times running or has 1,000; then 127.1.0.1 starts one."""
    server = ctx.server("groups")
    try:
        online_on(ctx, server)
        started = attempts = refused_running = 0
        lock = threading.Lock()
        stop = threading.Event()

        def worker(first):
            nonlocal started, attempts, refused_running
            index = first
            while not stop.is_set():
                status, group = Browser(server, attacker(index)).start_group()
                index += 4
                with lock:
                    attempts += 1
                    if group:
                        started += 1
                        refused_running = 0
                    else:
                        refused_running += 1
                    if refused_running >= 30 or started >= 1000 or attempts >= 1300:
                        stop.set()

        threads = [threading.Thread(target=worker, args=(n,), daemon=True) for n in range(4)]
        began = time.time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        elapsed = time.time() - began
        status, group = Browser(server, OTHER).start_group("Cara")
        ok = group is not None and started < 500
        figure = (f"one /24 from {min(attempts, 250)} addresses: {started} groups of {attempts} tries in {elapsed:.0f} s "
                  f"(cap 1,000); 127.1.0.1 then starts one: {status}")
        return ok, figure, [] if ok else [figure]
    finally:
        server.stop()


def online_orders_cap(ctx):
    """Open online orders (20 in all, 200 cups, NT$12,000 unpaid): one /24 sends big orders (5 lines of 20 cups)
    and then small ones from address after address; 127.1.0.1 then sends one cup."""
    server = ctx.server("online")
    try:
        online_on(ctx, server)
        placed_orders = placed_cups = tries = 0
        refusals = {}
        for cups, lines, rounds in ((20, 5, 4), (1, 1, 20)):
            for _ in range(rounds):
                browser = Browser(server, attacker(tries))
                tries += 1
                _, group = browser.start_group()
                if not group:
                    refusals["start"] = refusals.get("start", 0) + 1
                    continue
                added = sum(1 for _ in range(lines) if browser.add_line(group, cups) == 303)
                status, _ = browser.send(group)
                if status == 303:
                    placed_orders += 1
                    placed_cups += added * cups
                else:
                    refusals[status] = refusals.get(status, 0) + 1
        other = Browser(server, OTHER)
        _, group = other.start_group("Cara")
        other_status = other.add_line(group, 1) if group else None
        other_sent, _ = other.send(group) if group else (None, None)
        ok = other_sent == 303 and placed_cups <= 100 and placed_orders <= 10
        figure = (f"one /24 from {tries} addresses placed {placed_orders} orders, {placed_cups} cups, "
                  f"~NT${placed_cups * 35:,} unpaid (refused: {refusals or 'none'}); 127.1.0.1's one cup: "
                  f"line {other_status}, send {other_sent}")
        return ok, figure, [] if ok else [figure]
    finally:
        server.stop()


def connections_cap(ctx):
    """512 connection slots: 8 addresses of one /24 open 64 silent connections each; 127.1.0.1 then asks."""
    server = ctx.server("connections")
    held = []
    try:
        for index in range(8):
            for _ in range(64):
                try:
                    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                                    source_address=(attacker(index), 0))
                    held.append(sock)
                except OSError:
                    break
        time.sleep(1.0)
        try:
            status, _, _ = server.request("GET", "/display", timeout=10, source=OTHER)
        except OSError as error:
            status = str(error)
        # How many of the attacker's are still open (the server answers the rest 503 and closes them).
        alive = 0
        for sock in held:
            sock.setblocking(False)
            try:
                sock.recv(1)  # answered (503) or closed: not held
            except BlockingIOError:
                alive += 1
            except OSError:
                pass
        ok = status == 200 and alive <= 64
        figure = (f"one /24 opened {len(held)} connections from 8 addresses, {alive} kept by the server; "
                  f"127.1.0.1 then: {status}")
        return ok, figure, [] if ok else [figure]
    finally:
        for sock in held:
            sock.close()
        server.stop()


def open_stream(port, source):
    sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    sock.sendall(b"GET /display/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    return sock


def first_board(sock, bound=5.0):
    sock.settimeout(bound)
    got = b""
    started = time.time()
    try:
        while b"event: board" not in got and time.time() - started < bound:
            chunk = sock.recv(4096)
            if not chunk:
                break
            got += chunk
            if got.startswith(b"HTTP/1.1 503"):
                break
    except OSError:
        pass
    return got


def streams_cap(ctx):
    """128 live streams: 16 addresses of one /24 open 8 `/display/events` each; the TV on 127.1.0.1 then asks."""
    server = ctx.server("streams")
    held = []
    try:
        served = 0
        for index in range(16):
            for _ in range(8):
                try:
                    sock = open_stream(server.port, attacker(index))
                except OSError:
                    continue
                held.append(sock)
                if first_board(sock, 2.0).startswith(b"HTTP/1.1 200"):
                    served += 1
        tv = open_stream(server.port, OTHER)
        got = first_board(tv)
        tv.close()
        ok = got.startswith(b"HTTP/1.1 200") and b"event: board" in got and served <= 8
        answer = got.split(b"\r\n", 1)[0].decode(errors="replace") or "nothing"
        figure = f"one /24 asked for {len(held)} streams from 16 addresses, {served} served; the TV on 127.1.0.1: {answer}"
        return ok, figure, [] if ok else [figure]
    finally:
        for sock in held:
            sock.close()
        server.stop()


def memory(pid):
    values = {}
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) // 1024
    return values


def streams_memory(ctx):
    """Memory with many streams: 20 big orders (40 lines each) on today's board, 128 `/display/events` streams from
    16 networks (reading), then 40 writes, each of which tells every screen the board may have changed. The
    server's peak resident memory must stay within 150 MB of where it started."""
    server = ctx.server("memory")
    streams = []
    try:
        online_on(ctx, server)
        # Today's business day, as the shop counts it: from one order placed through the page.
        browser = Browser(server, OTHER)
        _, group = browser.start_group("Day")
        browser.add_line(group, 1)
        browser.send(group)
        status, data, _ = server.request("GET", f"/v0/{server.base_id}/OrderDrink?maxRecords=1")
        day = data["records"][0]["fields"]["businessDay"]
        for order in range(20):
            ref = f"ordProbe{order:04d}xx"
            records = [{"fields": {"drinkName": "熟成紅茶", "size": "中杯", "ice": "少冰", "sugar": "半糖", "price": 700,
                                   "unitPrice": 35, "numberOfCups": 20, "orderName": f"Bot {order}", "status": "placed",
                                   "pickupNumber": 500 + order, "businessDay": day, "orderRef": ref,
                                   "ref": f"{ref}-{line}", "line": line, "placedBy": "attack",
                                   "note": "x" * 40}} for line in range(1, 41)]
            for batch in range(0, 40, 10):
                status, _, _ = server.request("POST", f"/v0/{server.base_id}/OrderDrink",
                                              {"records": records[batch:batch + 10], "typecast": True})
                if status != 200:
                    raise RuntimeError(f"could not add the big orders: {status}")
        time.sleep(1)
        pid = server.process.pid
        before = memory(pid)
        selector = selectors.DefaultSelector()
        for network in range(16):
            for host in range(8):
                try:
                    sock = open_stream(server.port, f"127.{network + 2}.0.{host + 2}")
                except OSError:
                    continue
                sock.setblocking(False)
                selector.register(sock, selectors.EVENT_READ)
                streams.append(sock)
        stop = threading.Event()
        received = [0]

        def drain():
            while not stop.is_set():
                for key, _ in selector.select(timeout=0.2):
                    try:
                        received[0] += len(key.fileobj.recv(65536))
                    except OSError:
                        pass

        reader = threading.Thread(target=drain, daemon=True)
        reader.start()
        time.sleep(2)
        started = time.time()
        for index in range(40):
            server.request("POST", f"/v0/{server.base_id}/Drink", {"fields": {"name": f"probe {index}"}})
            time.sleep(0.1)
        time.sleep(3)
        elapsed = time.time() - started
        after = memory(pid)
        stop.set()
        reader.join(timeout=5)
        growth = after["VmHWM"] - before["VmRSS"]
        ok = growth < 150
        figure = (f"{len(streams)} streams, 20 orders of 40 lines, 40 writes in {elapsed:.0f} s: VmRSS {before['VmRSS']} MB "
                  f"-> {after['VmRSS']} MB, peak {after['VmHWM']} MB (+{growth} MB; bound +150); "
                  f"{received[0] // 1024} KiB relayed")
        return ok, figure, [] if ok else [figure]
    finally:
        for sock in streams:
            sock.close()
        server.stop()


PROBES = [
    ("quota-groups", "fill the 1,000 groups from many addresses of one /24", groups_cap),
    ("quota-online", "fill the open online orders (count, cups, unpaid NT$) from one /24", online_orders_cap),
    ("quota-connections", "hold all 512 connection slots from 8 addresses of one /24", connections_cap),
    ("quota-streams", "hold all 128 live streams from 16 addresses of one /24, locking the TV out", streams_cap),
    ("quota-stream-memory", "grow serve's memory with 128 live streams over a day of big orders", streams_memory),
]
