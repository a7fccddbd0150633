"""Faults 2 and 3: answers lost after the write committed, and the backend down in the middle of a run.
Both drive a real `drinkshop` counter (the REPL, fed through a pipe) on the remote-base client."""
import os
import random
import socket
import subprocess
import threading
import time


class DroppingProxy:
    """An HTTP proxy in front of `drinkshop serve` that, for a share of write requests, lets the server
    commit the write and then drops the connection instead of passing the answer on."""

    def __init__(self, upstream_port, drop_rate=0.2, seed=11):
        self.upstream = upstream_port
        self.drop_rate = drop_rate
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.dropped = 0
        self.forwarded = 0
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    @staticmethod
    def _read_message(sock, buffer):
        """One HTTP message (head plus Content-Length body) from `sock`; returns (message, leftover)."""
        while b"\r\n\r\n" not in buffer:
            chunk = sock.recv(65536)
            if not chunk:
                return None, buffer
            buffer += chunk
        head, _, rest = buffer.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                return None, buffer
            rest += chunk
        return head + b"\r\n\r\n" + rest[:length], rest[length:]

    def _serve(self, client):
        upstream = socket.create_connection(("127.0.0.1", self.upstream))
        pending = b""
        answers = b""
        try:
            while True:
                request, pending = self._read_message(client, pending)
                if request is None:
                    return
                upstream.sendall(request)
                response, answers = self._read_message(upstream, answers)
                if response is None:
                    return
                method = request.split(b" ", 1)[0]
                with self.lock:
                    drop = method in (b"POST", b"PATCH", b"PUT", b"DELETE") and self.rng.random() < self.drop_rate \
                        and not request.split(b" ", 2)[1].endswith(b"/listRecords")
                    if drop:
                        self.dropped += 1
                    else:
                        self.forwarded += 1
                if drop:
                    return  # the write is done; the client never hears of it
                client.sendall(response)
        except OSError:
            return
        finally:
            client.close()
            upstream.close()

    def close(self):
        self.listener.close()


ORDERS = ["熟成紅茶 M 半糖 少冰", "白玉歐蕾 L 微糖 去冰", "冷露歐蕾 M 無糖 正常冰", "春芽綠茶 L 少糖 微冰", "胭脂紅茶 M 半糖 熱"]


def _counter_env(env, server, port, workdir, name):
    counter = dict(env)
    counter.update(AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base_id,
                   AIRTABLE_ENDPOINT_URL=f"http://127.0.0.1:{port}", AIRTABLE_RATE_LIMIT="2000",
                   DRINKSHOP_OUTBOX=os.path.join(workdir, f"{name}-outbox.sqlite"))
    return counter


def _order_lines(server):
    """Every OrderDrink record's (ref, pickupNumber), read straight from the server."""
    found = []
    offset = None
    while True:
        path = (f"/v0/{server.base_id}/OrderDrink?fields%5B%5D=ref&fields%5B%5D=pickupNumber&fields%5B%5D=businessDay"
                + (f"&offset={offset}" if offset else ""))
        status, body, _ = server.request("GET", path, timeout=30)
        if status != 200:
            raise RuntimeError(f"listing answered {status}")
        found += [(r["fields"].get("ref"), r["fields"].get("pickupNumber"), r["fields"].get("businessDay"))
                  for r in body["records"]]
        offset = body.get("offset")
        if not offset:
            return found


def _verdict(lines, expected):
    refs = [ref for ref, _, _ in lines]
    numbers = [(day, number) for _, number, day in lines]
    problems = []
    if len(lines) != expected:
        problems.append(f"{len(lines)} order lines, not {expected}")
    if len(set(refs)) != len(refs):
        problems.append(f"{len(refs) - len(set(refs))} duplicated lines")
    if len(set(numbers)) != len(numbers):
        problems.append(f"{len(numbers) - len(set(numbers))} shared pickup numbers")
    return problems


def lost_answers(binary, make_server, workdir, env, orders=1000, drop_rate=0.2):
    server = make_server().start()
    proxy = DroppingProxy(server.port, drop_rate)
    try:
        script = "".join(f"order {ORDERS[i % len(ORDERS)]} for guest{i}\n" for i in range(orders))
        started = time.time()
        result = subprocess.run([binary], input=script, capture_output=True, text=True,
                                env=_counter_env(env, server, proxy.port, workdir, "lost"), timeout=3600)
        seconds = time.time() - started
        lines = _order_lines(server)
    finally:
        proxy.close()
        server.stop()
    problems = _verdict(lines, orders)
    if result.returncode != 0:
        problems.append(f"the counter exited with {result.returncode}: {result.stderr.strip()[-300:]}")
    figure = (f"{orders} orders through the client with {proxy.dropped} of {proxy.dropped + proxy.forwarded} answers "
              f"dropped after the write ({proxy.dropped / max(1, proxy.dropped + proxy.forwarded):.0%} of all, writes "
              f"at {drop_rate:.0%}): {len(lines)} order lines, {len(set(r for r, _, _ in lines))} distinct, "
              f"pickup numbers unique: {'yes' if not any('shared' in p for p in problems) else 'NO'}")
    return not problems, figure, problems


def backend_down(binary, make_server, workdir, env, orders=500, down_seconds=30, rate=10.0):
    """Feeds `orders` orders at `rate` per second; the server is killed a third of the way in and comes
    back `down_seconds` later. Every order must arrive exactly once."""
    server = make_server().start()
    port = server.port
    counter = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=_counter_env(env, server, port, workdir, "down"), text=True, bufsize=1)
    output = {"out": "", "err": ""}
    readers = [threading.Thread(target=lambda: output.__setitem__("out", counter.stdout.read()), daemon=True),
               threading.Thread(target=lambda: output.__setitem__("err", counter.stderr.read()), daemon=True)]
    for reader in readers:
        reader.start()
    kill_at = orders // 3
    restart_at = None
    kept = 0
    started = time.time()
    for i in range(orders):
        if i == kill_at:
            server.stop(timeout=5)
            restart_at = time.time() + down_seconds
        if restart_at and time.time() >= restart_at:
            server = make_server().start(port)
            restart_at = None
        counter.stdin.write(f"order {ORDERS[i % len(ORDERS)]} for guest{i}\n")
        counter.stdin.flush()
        time.sleep(1 / rate)
    while restart_at:
        if time.time() >= restart_at:
            server = make_server().start(port)
            restart_at = None
        time.sleep(0.2)
    counter.stdin.close()
    counter.wait(timeout=600)
    for reader in readers:
        reader.join(timeout=10)
    seconds = time.time() - started
    kept = output["out"].count("kept on this counter")
    sent = output["out"].count("Sent order")
    try:
        lines = _order_lines(server)
    finally:
        server.stop()
    problems = _verdict(lines, orders)
    if kept == 0:
        problems.append("no order went to the outbox: the outage was not noticed")
    if counter.returncode != 0:
        problems.append(f"the counter exited with {counter.returncode}: {output['err'].strip()[-300:]}")
    figure = (f"{orders} piped orders, backend down {down_seconds} s in the middle: {kept} kept in the outbox, "
              f"{sent} sent from it; {len(lines)} order lines at the end, {len(set(r for r, _, _ in lines))} distinct "
              "")
    return not problems, figure, problems
