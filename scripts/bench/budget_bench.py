"""Benches 6 and 7: DrinkShop on a rate-limited base, watched by the recording proxy
(scripts/lib/recording_proxy.py) placed between the counters and `drinkshop serve --rate-limit 5`, the
stand-in for Airtable (a bucket of 5 tokens refilled at 5 per second, a 30 s penalty after a refusal).

6. One budget per base on one machine: a shell loop of one-shot `drinkshop order`s running beside two
   REPLs taking orders, every process on the same base; the proxy counts requests over the bucket and 429s,
   and the span of the run is compared with the least time the limit allows for that many requests.
7. Requests per command: what each command costs in requests, against the targets of issue 13.
"""
import os
import statistics
import subprocess
import time

import drinkshop_harness as harness
from recording_proxy import RecordingProxy, summarize
from counter_bench import LineProcess

ORDER_WORDS = ["熟成紅茶 大杯 半糖 少冰", "白玉歐蕾 中杯 微糖 去冰", "春芽綠茶 大杯 少糖 微冰", "冷露歐蕾 中杯 無糖 正常冰"]


def counter_env(server, proxy_url, home, state, rate=None):
    """The environment of a counter on the served base through the proxy; `state` is the folder whose
    pacing files the counters share (XDG_STATE_HOME)."""
    env = dict(os.environ, AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base_id,
               AIRTABLE_ENDPOINT_URL=proxy_url, HOME=home, XDG_STATE_HOME=state, XDG_DATA_HOME=home + "/data",
               NO_COLOR="1", DRINKSHOP_STAFF="bench")
    env.pop("AIRTABLE_API_KEY", None)
    env.pop("AIRTABLE_RATE_LIMIT", None)
    env.pop("DRINKSHOP_OUTBOX", None)
    if rate:
        env["AIRTABLE_RATE_LIMIT"] = str(rate)
    return env


def served_counter(bin_dir, workdir, name):
    """A new base served by `drinkshop serve` in `workdir/name`, behind a recording proxy, and a counter
    home folder: (binary, run_dir, server, proxy, home)."""
    binary = os.path.join(bin_dir, "drinkshop")
    run_dir = os.path.join(workdir, name)
    os.makedirs(run_dir, exist_ok=True)
    server = harness.Server(binary, os.path.join(run_dir, "shop.sqlite")).start()
    proxy = RecordingProxy(server.url, rate=5, burst=5).start()
    home = os.path.join(run_dir, "counter")
    os.makedirs(home, exist_ok=True)
    return binary, run_dir, server, proxy, home


def one_budget(bin_dir, workdir, loop_orders=20, repl_orders=25, shared=True, round=0):
    """With `shared` False, each counter keeps its pacing to itself (its own state folder): the peer, as
    every process paced before the shared pacing file."""
    binary = os.path.join(bin_dir, "drinkshop")
    run_dir = os.path.join(workdir, f"budget-shared-{round}" if shared else "budget-alone")
    os.makedirs(run_dir, exist_ok=True)
    server = harness.Server(binary, os.path.join(run_dir, "shop.sqlite"), extra=["--rate-limit", "5"]).start()
    proxy = RecordingProxy(server.url, rate=5, burst=5).start()
    try:
        states = [os.path.join(run_dir, "state" if shared else f"state{i}") for i in range(3)]
        homes = [os.path.join(run_dir, f"counter{i}") for i in range(3)]
        for home in homes:
            os.makedirs(home, exist_ok=True)
        # Let the server's bucket fill again after start-up.
        time.sleep(1.5)
        proxy.reset()
        start = time.monotonic()
        script = "\n".join(f"order {ORDER_WORDS[i % 4]} for loop{i}" for i in range(repl_orders)) + "\n"
        repls = []
        for index in (1, 2):
            lines = script.replace("for loop", f"for repl{index}-")
            repls.append(subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, env=counter_env(server, proxy.url, homes[index], states[index])))
            repls[-1].stdin.write(lines.encode())
            repls[-1].stdin.close()
        loop = subprocess.run(
            ["bash", "-c", f'for n in $(seq {loop_orders}); do "{binary}" order 熟成紅茶 中杯 半糖 少冰 for shell$n '
                           '|| echo "FAILED $n"; done'],
            capture_output=True, text=True, env=counter_env(server, proxy.url, homes[0], states[0]))
        outputs = [repl.stdout.read().decode(errors="replace") for repl in repls]
        for repl in repls:
            repl.wait(timeout=600)
        wall = time.monotonic() - start
        summary = proxy.stats()
        placed_loop = loop.stdout.count("Order placed")
        placed_repl = sum(output.count("Order placed") for output in outputs)
        status, body, _ = server.request("GET", f"/v0/{server.base_id}/OrderDrink?pageSize=100")
        stored = set()
        while True:
            stored |= {record["fields"].get("orderRef") for record in body["records"]}
            if "offset" not in body:
                break
            status, body, _ = server.request("GET", f"/v0/{server.base_id}/OrderDrink?pageSize=100&offset={body['offset']}")
        summary.update(loop_orders=loop_orders, repl_orders=2 * repl_orders, placed=placed_loop + placed_repl,
                       expected=loop_orders + 2 * repl_orders, stored_orders=len(stored), wall=wall,
                       failures=loop.stdout.count("FAILED"))
        return summary
    finally:
        proxy.stop()
        server.stop()


def count(proxy, action):
    """Runs `action` and returns the requests the proxy saw meanwhile."""
    proxy.reset()
    action()
    return proxy.stats()["requests"]


def requests_per_command(bin_dir, workdir, day_orders=300, rounds=3):
    """Requests each command costs. The pacing is lifted (AIRTABLE_RATE_LIMIT=1000, no server limit):
    only the count matters here, and the day runs in seconds rather than hours."""
    binary, run_dir, server, proxy, home = served_counter(bin_dir, workdir, "per-command")
    env = counter_env(server, proxy.url, home, os.path.join(run_dir, "state"), rate=1000)

    def one_shot(*words):
        out = subprocess.run([binary, *words], capture_output=True, text=True, env=env)
        if out.returncode != 0:
            raise RuntimeError(f"drinkshop {' '.join(words)} failed: {out.stdout}{out.stderr}")
        return out.stdout

    global count_requests
    count_requests = lambda action: count(proxy, action)  # noqa: E731
    try:
        figures = {}
        one_shot("shift", "open", "1000")  # cash goes into an open shift only
        one_shot("order", "熟成紅茶", "大杯", "半糖", "少冰", "for", "shape")
        proxy.reset()
        one_shot("order", "熟成紅茶", "大杯", "半糖", "少冰", "for", "shape")
        with proxy.lock:
            figures["order_requests"] = [f"{r['method']} {r['path']}" for r in proxy.records]
        one_shot("order", "熟成紅茶", "大杯", "半糖", "少冰", "for", "warmup")
        figures["order"] = [count(proxy, lambda i=i: one_shot("order", *ORDER_WORDS[i % 4].split(), "for", f"o{i}"))
                            for i in range(rounds)]
        figures["orders"] = [count(proxy, lambda: one_shot("orders")) for _ in range(rounds)]
        # advance/edit/cancel on a small day (4 orders so far) ...
        edit_advance_cancel(figures, "small day", one_shot)
        # The day at the counter: one REPL, each order placed, advanced three times and viewed once.
        day = paid_day(binary, env, proxy, day_orders)
        figures["warm REPL order"] = day["warm"][1:]
        figures["day"] = day["requests"]
        figures["day_by_table"] = day["by_table"]
        figures["day_seconds"] = day["seconds"]
        figures["day_orders"] = day_orders
        # ... and the same commands once the day is full.
        edit_advance_cancel(figures, "full day", one_shot)
        figures["orders (full day)"] = [count(proxy, lambda: one_shot("orders"))]
        return figures
    finally:
        proxy.stop()
        server.stop()


def paid_day(binary, env, proxy, orders):
    """Issue 37's day at one REPL: each order placed, listed with `orders`, paid by card and advanced three times;
    the requests the proxy saw (and per order placed), by table, and the seconds it took."""
    repl = LineProcess([binary], env=env)
    repl.ask("help\n", "Chinese or English options both work.")  # the end of the help
    proxy.reset()
    started = time.monotonic()
    warm = []
    for i in range(orders):
        before = len(proxy.records)
        repl.ask(f"order {ORDER_WORDS[i % 4]} for day{i}\n", "cup")
        warm.append(len(proxy.records) - before)
        number = repl_last_number(repl)
        repl.ask("orders\n", "order")
        # Paid by card, then made, ready and handed over (issue 37's day).
        repl.ask(f"pay #{number} card\n", "aid")
        for step in ("", "", ""):
            repl.ask(f"advance #{number}{step}\n", f"#{number} ")
    requests = len(proxy.records)
    by_table = proxy.stats()["by_table"]
    seconds = time.monotonic() - started
    repl.close()
    return {"requests": requests, "by_table": by_table, "seconds": seconds, "warm": warm}


def airtable_day(bin_dir, workdir, orders=300):
    """The same day with the REPL talking to `drinkshop serve --like-airtable` (no kept keys, no create guard, ten
    records a write), where it keeps Airtable's claim rule: what the day costs on an Airtable base itself."""
    binary = os.path.join(bin_dir, "drinkshop")
    run_dir = os.path.join(workdir, "airtable-day")
    os.makedirs(run_dir, exist_ok=True)
    server = harness.Server(binary, os.path.join(run_dir, "shop.sqlite"), extra=["--like-airtable"]).start()
    proxy = RecordingProxy(server.url, rate=1000, burst=1000).start()
    home = os.path.join(run_dir, "counter")
    os.makedirs(home, exist_ok=True)
    try:
        env = counter_env(server, proxy.url, home, os.path.join(run_dir, "state"), rate=1000)
        day = paid_day(binary, env, proxy, orders)
        return {"airtable_day": day["requests"], "airtable_day_by_table": day["by_table"], "airtable_day_orders": orders}
    finally:
        proxy.stop()
        server.stop()


def edit_advance_cancel(figures, day, one_shot):
    """`edit`, `advance` and `cancel` (one-shot) on orders placed for the purpose."""
    def place(name):
        return number_in(one_shot("order", "熟成紅茶", "中杯", "半糖", "少冰", "for", name))
    first = place("edited")
    figures[f"edit ({day})"] = [count_requests(lambda: one_shot("edit", f"#{first}", "少糖"))]
    figures[f"advance ({day})"] = [count_requests(lambda: one_shot("advance", f"#{first}"))]
    second = place("cancelled")
    figures[f"cancel ({day})"] = [count_requests(lambda: one_shot("cancel", f"#{second}"))]
    # The till: a payment, a void of a paid order (with its refund) and of an unpaid one.
    third = place("paid")
    figures[f"pay ({day})"] = [count_requests(lambda: one_shot("pay", f"#{third}", "cash"))]
    one_shot("advance", f"#{third}")
    figures[f"void paid ({day})"] = [count_requests(lambda: one_shot("void", f"#{third}", "spilled"))]
    fourth = place("voided")
    one_shot("advance", f"#{fourth}")
    figures[f"void ({day})"] = [count_requests(lambda: one_shot("void", f"#{fourth}", "spilled"))]


def number_in(text):
    mark = text.rfind("取餐號 #")
    digits = ""
    for character in text[mark + len("取餐號 #"):]:
        if not character.isdigit():
            break
        digits += character
    if mark < 0 or not digits:
        raise RuntimeError("no pickup number in: " + text)
    return int(digits)


def repl_last_number(repl):
    """The pickup number of the order the REPL just placed, from the text read so far."""
    return number_in(repl.last_text)


def median(values):
    return statistics.median(values) if values else 0


def gateway_day(bin_dir, workdir, per_counter=100, spread=0.0, hold=None, name="gateway-day"):
    """Issue 37's day shared by three counters through one gateway (`drinkshop serve --upstream`): each counter
    places `per_counter` orders, lists them with `orders`, pays each by card and advances it three times, all three
    at once. The upstream is `drinkshop serve` (no rate limit) behind the recording proxy, which counts what
    reaches it; it runs `--like-airtable`: the calls a gateway in front of Airtable spends. Pacing is lifted (1,000 requests/s) so only the count matters.

    `spread` > 0 spreads each counter's orders over that many seconds, as a real day spreads them over 12 hours
    (scaled: 720 s is a 12-hour day at 60 times the speed), each order placed, listed and paid at its moment and
    advanced 1, 3 and 5 (scaled) minutes later; `hold` is the gateway's `--hold-writes` and its `--cache-check`,
    `--cache-max-age` and `--hold-refill` are scaled the same way. The count is taken once the gateway has stopped (it sends
    what it holds on the way out), and the base is then read directly: every order must be there, picked up and
    paid, or the run fails."""
    import heapq
    import random
    import threading

    binary = os.path.join(bin_dir, "drinkshop")
    run_dir = os.path.join(workdir, name)
    os.makedirs(run_dir, exist_ok=True)
    # The stand-in serves Airtable's API and nothing more (no key kept unique, no create guard, batches of ten), so
    # the counters keep the claim rule they keep on Airtable.
    upstream = harness.Server(binary, os.path.join(run_dir, "upstream.sqlite"), token="patUPSTREAMBENCH000000000",
                              extra=["--like-airtable"]).start()
    proxy = RecordingProxy(upstream.url, rate=1000, burst=1000).start()
    gateway_token = "patGATEWAYBENCH0000000000"
    gateway_home = os.path.join(run_dir, "gateway")
    gateway_env = dict(os.environ, AIRTABLE_TOKEN=upstream.token, DRINKSHOP_API_TOKEN=gateway_token, HOME=gateway_home,
                       XDG_STATE_HOME=os.path.join(gateway_home, "state"), AIRTABLE_RATE_LIMIT="1000")
    gateway_env.pop("AIRTABLE_BASE_ID", None)
    options = []
    if hold is not None:
        options += ["--hold-writes", str(hold)]
    if spread:
        scale = 43200 / spread  # a 12-hour day
        options += ["--cache-check", f"{600 / scale:.3f}", "--cache-max-age", f"{3600 / scale:.3f}",
                    "--hold-refill", f"{86400 / scale:.3f}"]
    gateway = subprocess.Popen([binary, "serve", "--port", "0", "--upstream", proxy.url, "--base", upstream.base_id] + options,
                               stdout=subprocess.PIPE, stderr=open(os.path.join(run_dir, "gateway.log"), "wb"),
                               env=gateway_env)
    repls = []
    try:
        port = None
        while port is None:
            line = gateway.stdout.readline().decode()
            if not line:
                raise RuntimeError("the gateway did not start")
            if "endpoint" in line:
                port = int(line.split("http://127.0.0.1:")[1].split()[0])
        for n in (1, 2, 3):
            home = os.path.join(run_dir, f"counter{n}")
            os.makedirs(home, exist_ok=True)
            env = dict(os.environ, AIRTABLE_TOKEN=gateway_token, AIRTABLE_BASE_ID=upstream.base_id,
                       AIRTABLE_ENDPOINT_URL=f"http://127.0.0.1:{port}", HOME=home, XDG_STATE_HOME=home + "/state",
                       XDG_DATA_HOME=home + "/data", NO_COLOR="1", DRINKSHOP_STAFF=f"counter{n}", AIRTABLE_RATE_LIMIT="1000")
            for name in ("AIRTABLE_API_KEY", "DRINKSHOP_OUTBOX"):
                env.pop(name, None)
            repl = LineProcess([binary], env=env)
            repl.ask("help\n", "Chinese or English options both work.")
            repls.append(repl)
        proxy.reset()
        errors = []

        def day_at(repl, n):
            try:
                if not spread:
                    for i in range(per_counter):
                        repl.ask(f"order {ORDER_WORDS[i % 4]} for c{n}-{i}\n", "cup")
                        number = repl_last_number(repl)
                        repl.ask("orders\n", "order")
                        repl.ask(f"pay #{number} card\n", "aid")
                        for _ in range(3):
                            repl.ask(f"advance #{number}\n", f"#{number} ")
                    return
                # The counter's day on a timeline: orders at random moments, each advanced 1, 3 and 5 minutes on.
                minute = spread / 720
                rng = random.Random(n)
                events = [(rng.uniform(0, spread - 6 * minute), 0, i) for i in range(per_counter)]
                heapq.heapify(events)
                numbers = {}
                start = time.monotonic()
                while events:
                    at, step, i = heapq.heappop(events)
                    delay = start + at - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                    if step == 0:
                        repl.ask(f"order {ORDER_WORDS[i % 4]} for c{n}-{i}\n", "cup")
                        numbers[i] = repl_last_number(repl)
                        repl.ask("orders\n", "order")
                        repl.ask(f"pay #{numbers[i]} card\n", "aid")
                        for later, offset in ((1, 1), (2, 3), (3, 5)):
                            heapq.heappush(events, (at + offset * minute, later, i))
                    else:
                        repl.ask(f"advance #{numbers[i]}\n", f"#{numbers[i]} ")
            except Exception as error:  # noqa: BLE001 (reported below)
                errors.append(f"counter {n}: {error}")

        started = time.monotonic()
        threads = [threading.Thread(target=day_at, args=(repl, n)) for n, repl in zip((1, 2, 3), repls)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.monotonic() - started
        if errors:
            raise RuntimeError("; ".join(errors))
        for repl in repls:
            repl.close()
        repls = []
        # The gateway sends what it still holds as it stops; only then is the day's count complete.
        gateway.terminate()
        gateway.wait(timeout=60)
        stats = proxy.stats()
        # Read the base itself (not through the proxy): every order there, picked up, paid.
        orders = {}
        for record in upstream.all_records("OrderDrink"):
            fields = record["fields"]
            orders.setdefault(fields.get("orderRef"), []).append(fields)
        wrong = [ref for ref, lines in orders.items()
                 if any(line.get("status") != "picked up" or not line.get("paid") for line in lines)]
        if len(orders) != 3 * per_counter or wrong:
            raise RuntimeError(f"the base holds {len(orders)} orders of {3 * per_counter}, {len(wrong)} not picked up "
                               f"and paid (e.g. {wrong[:3]})")
        return {"gateway_day": stats["requests"], "gateway_day_by_table": stats["by_table"],
                "gateway_day_orders": 3 * per_counter, "gateway_day_seconds": seconds}
    finally:
        for repl in repls:
            try:
                repl.close()
            except Exception:  # noqa: BLE001
                repl.process.kill()
        if gateway.poll() is None:
            gateway.terminate()
            try:
                gateway.wait(timeout=30)
            except subprocess.TimeoutExpired:
                gateway.kill()
        proxy.stop()
        upstream.stop()
