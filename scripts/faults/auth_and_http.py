"""Faults 4, 5, 7–10: HTTP fuzzing, slow clients, authentication on every route, a closed output, one address
holding connections, and control characters and protected names."""
import os
import random
import socket
import struct
import threading
import time

ROUTES = [
    ("GET", "/v0/{base}/Drink", None, False), ("POST", "/v0/{base}/Drink/listRecords", {}, False),
    ("GET", "/v0/{base}/Drink/{rec}", None, False), ("GET", "/v0/meta/bases/{base}/tables", None, False),
    ("GET", "/v0/meta/whoami", None, False), ("GET", "/v0/meta/bases", None, False),
    ("POST", "/v0/{base}/Drink", {"fields": {"name": "x"}}, True),
    ("PATCH", "/v0/{base}/Drink", {"records": [{"id": "{rec}", "fields": {"description": "x"}}]}, True),
    ("PUT", "/v0/{base}/Drink", {"records": [{"id": "{rec}", "fields": {"name": "x"}}]}, True),
    ("PATCH", "/v0/{base}/Drink/{rec}", {"fields": {"description": "x"}}, True),
    ("PUT", "/v0/{base}/Drink/{rec}", {"fields": {"name": "x"}}, True),
    ("DELETE", "/v0/{base}/Drink?records%5B%5D={rec}", None, True), ("DELETE", "/v0/{base}/Drink/{rec}", None, True),
    ("POST", "/v0/meta/bases/{base}/tables", {"name": "T", "fields": [{"name": "n", "type": "singleLineText"}]}, True),
    ("POST", "/v0/meta/bases/{base}/tables/Drink/fields", {"name": "n2", "type": "singleLineText"}, True),
]


def auth(server, read_token, write_token, orders_token=None):
    """Every route: no token and a wrong token -> 401; the read-only token writing -> 403; a token with
    Airtable's record scopes only (a delivery integration) never reads the staff table or writes the till's;
    no token logged."""
    status, body, _ = server.request("GET", f"/v0/{server.base_id}/Drink?maxRecords=1", token=write_token)
    rec = body["records"][0]["id"]
    failures = []
    checks = 0
    for method, path, body, writes in ROUTES:
        path = path.replace("{base}", server.base_id).replace("{rec}", rec)
        payload = None
        if body is not None:
            import json
            payload = json.loads(json.dumps(body).replace("{rec}", rec))
        for token, label in [("", "no token"), ("patWRONG" + "0" * 20, "wrong token"), (write_token[:-1], "cut token")]:
            status, _, _ = server.request(method, path, payload, token=token)
            checks += 1
            if status != 401:
                failures.append(f"{method} {path} with {label}: {status}, not 401")
        if writes:
            status, _, _ = server.request(method, path, payload, token=read_token)
            checks += 1
            if status != 403:
                failures.append(f"{method} {path} with the read-only token: {status}, not 403")
    scoped = 0
    if orders_token:
        base = server.base_id
        for method, path, body, expected in [
            ("GET", f"/v0/{base}/User", None, 403), ("GET", f"/v0/{base}/User?fields%5B%5D=pinHash", None, 403),
            ("POST", f"/v0/{base}/User/listRecords", {}, 403),
            ("PATCH", f"/v0/{base}/User", {"records": []}, 403),
            ("POST", f"/v0/{base}/TillPayment", {"records": [{"fields": {"amount": 1}}]}, 403),
            ("GET", f"/v0/{base}/Setting", None, 403), ("GET", f"/v0/meta/bases/{base}/tables", None, 403),
            ("GET", f"/v0/{base}/Drink?maxRecords=1", None, 200),
        ]:
            status, answer, _ = server.request(method, path, body, token=orders_token)
            scoped += 1
            if status != expected or "pbkdf2" in str(answer):
                failures.append(f"{method} {path} with the orders token: {status}, not {expected}")
    logged = [line for line in server.log_lines()
              if read_token in line or write_token in line or "Bearer" in line or (orders_token and orders_token in line)]
    if logged:
        failures.append(f"{len(logged)} log lines show a token")
    return (not failures, f"{checks} unauthorised requests on {len(ROUTES)} routes refused; {scoped} requests of a "
            f"records-only token to the staff, till and schema answered as its scopes allow; tokens in log lines: {len(logged)}",
            failures)


def _templates(base):
    body = b'{"records":[{"fields":{"drinkName":"x","numberOfCups":1}}]}'
    return [
        f"GET /v0/{base}/Drink?maxRecords=2 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\n".encode(),
        (f"POST /v0/{base}/OrderDrink HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
         f"Content-Length: {len(body)}\r\nAuthorization: Bearer t\r\n\r\n").encode() + body,
        (f"PATCH /v0/{base}/OrderDrink HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
         f"{len(body):x}\r\n").encode() + body + b"\r\n0\r\n\r\n",
        f"DELETE /v0/{base}/OrderDrink?records%5B%5D=recAAAAAAAAAAAAAA HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
    ]


def _mutate(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        choice = rng.random()
        if choice < 0.25 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif choice < 0.4 and data:
            del data[rng.randrange(len(data)):][: rng.randint(1, 40)]
        elif choice < 0.55:
            position = rng.randrange(len(data) + 1)
            data[position:position] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 30)))
        elif choice < 0.65:
            position = rng.randrange(len(data) + 1)
            data[position:position] = rng.choice([b"\r\n", b"\r\n\r\n", b":", b" ", b"\x00", b"%", b"\n"])
        elif choice < 0.72:
            data = data[: rng.randrange(len(data) + 1)]
        elif choice < 0.78:
            data[0:0] = rng.choice([b"GETT ", b"\xff\xfe", b"PRI * HTTP/2.0\r\n", b" "])
        elif choice < 0.84:
            data = data.replace(b"HTTP/1.1", rng.choice([b"HTTP/9.9", b"HTTP/1.", b"HTTX/1.1", b""]), 1)
        elif choice < 0.9:
            data = data.replace(b"\r\n\r\n", b"\r\nX-Big: " + b"a" * rng.choice([100, 9000, 70000]) + b"\r\n\r\n", 1)
        elif choice < 0.95:
            data = data.replace(b"Content-Length: ", rng.choice([b"Content-Length: -", b"Content-Length: 99999999999",
                                                                 b"Content-Length: 1, 2\r\nContent-Length: ",
                                                                 b"Transfer-Encoding: chunked\r\nContent-Length: "]), 1)
        else:
            data = data * rng.randint(2, 4)
    return bytes(data)


def fuzz(server, count, seed=2026, threads=4, deadline=15.0):
    """Sends `count` malformed or mutated requests; every one must be answered or closed within the deadline."""
    templates = _templates(server.base_id)
    results = {"answered": 0, "closed": 0, "hung": 0, "slowest": 0.0}
    lock = threading.Lock()

    def worker(index):
        rng = random.Random(seed + index)
        local = {"answered": 0, "closed": 0, "hung": 0, "slowest": 0.0}
        for _ in range(count // threads):
            data = _mutate(rng.choice(templates), rng)
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=deadline)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            start = time.perf_counter()
            try:
                sock.sendall(data)
                sock.shutdown(socket.SHUT_WR)
                got = b""
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    got += chunk
                local["answered" if got.startswith(b"HTTP/1.1 ") else "closed"] += 1
            except socket.timeout:
                local["hung"] += 1
            except OSError:
                local["closed"] += 1
            finally:
                local["slowest"] = max(local["slowest"], time.perf_counter() - start)
                sock.close()
        with lock:
            for key in ("answered", "closed", "hung"):
                results[key] += local[key]
            results["slowest"] = max(results["slowest"], local["slowest"])

    started = time.perf_counter()
    workers = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    elapsed = time.perf_counter() - started
    status, _, _ = server.request("GET", f"/v0/{server.base_id}/Drink?maxRecords=1")
    alive = server.process.poll() is None
    sent = results["answered"] + results["closed"] + results["hung"]
    ok = results["hung"] == 0 and alive and status == 200 and sent == count // threads * threads
    figure = (f"{sent} malformed/mutated requests in {elapsed:.0f} s: {results['answered']} answered, "
              f"{results['closed']} closed, {results['hung']} hung (slowest {results['slowest'] * 1000:.0f} ms); "
              f"server alive: {'yes' if alive else 'NO'}; a valid request afterwards: {status}")
    return ok, figure, [] if ok else [figure]


def slow_clients(server, connections=200, seconds=30):
    """`connections` sockets trickle a byte per second from 127.0.0.1; a normal request from 127.1.0.2 (another /24) must still
    be served in under 100 ms (127.0.0.1 itself is at its per-address cap: that is the point of the cap)."""
    stop = threading.Event()
    request = f"GET /v0/{server.base_id}/Drink HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n".encode()
    opened = [0]

    def trickler():
        sock = None
        position = 0
        while not stop.is_set():
            try:
                if sock is None:
                    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
                    opened[0] += 1
                    position = 0
                sock.send(request[position % len(request): position % len(request) + 1])
                position += 1
            except OSError:
                if sock:
                    sock.close()
                sock = None  # closed by the server's deadline: come back, as an attacker would
            stop.wait(1.0)
        if sock:
            sock.close()

    threads = [threading.Thread(target=trickler, daemon=True) for _ in range(connections)]
    for thread in threads:
        thread.start()
    time.sleep(2)
    latencies = []
    failures = []
    end = time.time() + seconds
    while time.time() < end:
        start = time.perf_counter()
        try:
            status, _, _ = server.request("GET", f"/v0/{server.base_id}/Drink?maxRecords=3", timeout=5,
                                          source="127.1.0.2")
        except OSError as error:
            status = str(error)
        latencies.append(time.perf_counter() - start)
        if status != 200:
            failures.append(f"a normal request got {status}")
        time.sleep(0.25)
    stop.set()
    for thread in threads:
        thread.join(timeout=5)
    worst = max(latencies) * 1000
    ok = not failures and worst < 100
    figure = (f"{connections} trickling connections ({opened[0]} opened over {seconds} s); {len(latencies)} normal "
              f"requests, slowest {worst:.1f} ms, median {sorted(latencies)[len(latencies) // 2] * 1000:.1f} ms")
    return ok, figure, failures


def closed_output(binary, db, env, requests=20):
    """`drinkshop serve | head -1` with its log closed too: it must go on answering and exit 0 on SIGTERM."""
    import signal
    import subprocess
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    process = subprocess.Popen([binary, "serve", "--db", db, "--create", "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=dict(env, DRINKSHOP_API_TOKEN="patFAULTSCLOSED00000001"))
    process.stderr.close()
    first = process.stdout.readline().decode(errors="replace")
    process.stdout.close()
    answered = 0
    deadline = time.time() + 60
    while time.time() < deadline and answered < requests and process.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(b"GET /display HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if sock.recv(12).startswith(b"HTTP/1.1 200"):
                    answered += 1
        except OSError:
            time.sleep(0.1)
    alive = process.poll() is None
    process.send_signal(signal.SIGTERM)
    try:
        status = process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        status = "hung"
    ok = first.startswith("DrinkShop is serving") and answered == requests and alive and status == 0
    figure = (f"standard output closed after its first line, standard error closed at once: {answered} of {requests} "
              f"requests answered (each logged to the closed stderr), alive: {'yes' if alive else 'NO'}, "
              f"exit status on SIGTERM: {status}")
    return ok, figure, [] if ok else [figure]


def screen_beside_idle(server, idle=500, bound=5.0):
    """`idle` connections from 127.0.0.1 that send nothing; the pickup screen's event stream from 127.1.0.2 (another /24)
    must get its first board within `bound` seconds."""
    held = []
    for _ in range(idle):
        try:
            held.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
        except OSError:
            break
    time.sleep(0.5)
    started = time.perf_counter()
    got = b""
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=bound,
                                      source_address=("127.1.0.2", 0)) as screen:
            screen.sendall(b"GET /display/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
            while b"event: board" not in got and time.perf_counter() - started < bound:
                chunk = screen.recv(4096)
                if not chunk:
                    break
                got += chunk
    except OSError as error:
        got += f" ({error})".encode()
    elapsed = time.perf_counter() - started
    try:
        status, _, _ = server.request("GET", "/display", timeout=5, source="127.0.0.1")
    except OSError as error:
        status = str(error)
    for sock in held:
        sock.close()
    ok = got.startswith(b"HTTP/1.1 200") and b"event: board" in got and elapsed < bound
    figure = (f"{len(held)} idle connections held from 127.0.0.1; the screen from 127.1.0.2 got its first board in "
              f"{elapsed * 1000:.0f} ms ({'yes' if ok else 'NO'}); one more from 127.0.0.1 meanwhile: {status}")
    return ok, figure, [] if ok else [figure, got[:200].decode(errors="replace")]


def names(server):
    """Control characters in names, descriptions and comments get 422; the shop's tables are not renamed."""
    meta = f"/v0/meta/bases/{server.base_id}/tables"
    _, listing, _ = server.request("GET", f"/v0/{server.base_id}/Drink?maxRecords=1")
    rec = listing["records"][0]["id"]
    cases = [
        ("PATCH", f"{meta}/Drink", {"name": "Drink\u0000x"}, 422),
        ("PATCH", f"{meta}/Drink", {"name": "Drink\u001b[2J"}, 422),
        ("PATCH", f"{meta}/Drink", {"description": "menu\u0007"}, 422),
        ("PATCH", f"{meta}/Drink/fields/name", {"name": "na\u0000me"}, 422),
        ("POST", meta, {"name": "T\u0001", "fields": [{"name": "n", "type": "singleLineText"}]}, 422),
        ("POST", f"{meta}/Drink/fields", {"name": "n\u007f", "type": "singleLineText"}, 422),
        ("POST", f"/v0/{server.base_id}/Drink/{rec}/comments", {"text": "hi\u001b]0;x\u0007"}, 422),
        ("PATCH", f"{meta}/Drink", {"name": "Menu"}, 403),
        ("PATCH", f"{meta}/OrderDrink/fields/drinkName", {"name": "drink"}, 403),
        ("PATCH", f"{meta}/Drink", {"description": "the menu\nsecond line"}, 200),
        ("POST", f"/v0/{server.base_id}/Drink/{rec}/comments", {"text": "no ice\nplease"}, 200),
    ]
    failures = []
    for method, path, body, expected in cases:
        status, answer, _ = server.request(method, path, body)
        if status != expected:
            failures.append(f"{method} {path} {body}: {status}, not {expected}: {answer}")
    _, schema, _ = server.request("GET", meta)
    names_now = sorted(table["name"] for table in schema["tables"])
    kept = "Drink" in names_now and "OrderDrink" in names_now and not any("\u0000" in n for n in names_now)
    if not kept:
        failures.append(f"tables now: {names_now}")
    ok = not failures
    refused = sum(1 for case in cases if case[3] != 200)
    figure = (f"{refused} bad names, descriptions, comments and renames of the shop's tables refused, "
              f"{len(cases) - refused} good ones accepted; Drink and OrderDrink intact: {'yes' if kept else 'NO'}")
    return ok, figure, failures
