"""Probes of what a counter's staff read, through the built binary end to end: every line an 80-column terminal
shows fits it (errors, notes and warnings wrapped at spaces or between CJK characters, never broken mid-word by
the terminal), and the words a cashier reads say one thing each."""
import fcntl
import os
import pty
import re
import select
import struct
import termios
import time
import urllib.parse
import unicodedata

from terminal_session import on_terminal

# Control sequences and keypad-mode switches (ESC = / ESC >): what a terminal draws, not printed text.
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")


def columns(line):
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 0 if unicodedata.combining(c) else 1 for c in line)


def wide_lines(text, width):
    lines = []
    for raw in text.replace("\r\n", "\n").split("\n"):
        # What the line editor redraws in place (a carriage return, a line cleared) is not a printed line.
        line = ESCAPE.sub("", raw.split("\r")[-1])
        if columns(line) > width:
            lines.append(line)
    return lines


def probe_messages_fit_80_columns(ctx):
    env = dict(ctx.env)
    env.update({"TERM": "xterm", "AIRTABLE_TOKEN": "pat" + "x" * 20, "AIRTABLE_BASE_ID": "appAAAAAAAAAAAAAA",
                "AIRTABLE_ENDPOINT_URL": "http://127.0.0.1:9", "DRINKSHOP_OUTBOX": ctx.path("outbox") + ".sqlite"})
    failures = []
    one_shot = on_terminal(ctx, ["orders"], env)
    repl = on_terminal(ctx, [], env, typed=["orders", "pay #7 cash 500", "quit"])
    for name, text in (("one-shot orders", one_shot), ("the prompt", repl)):
        if "is the server running?" not in text.replace("\r\n  ", " ").replace("\r\n", " "):
            failures.append(f"{name}: the error about the store is not shown whole: {text[:300]!r}")
        for line in wide_lines(text, 80):
            failures.append(f"{name}: a line of {columns(line)} columns, which the terminal breaks mid-word: {line[:120]!r}")
    figure = f"{len(failures)} lines or messages not fitted to 80 columns"
    return (not failures, figure, failures)


class Counter:
    """A running counter at a pseudo-terminal (80 columns): what it drew so far, read as it comes."""

    def __init__(self, ctx, arguments, env, width=80):
        self.pid, self.terminal = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, width, 0, 0))
            os.execve(ctx.binary, [ctx.binary, *arguments], env)
        self.output = b""

    def read_for(self, seconds, until=None):
        end = time.time() + seconds
        while time.time() < end:
            if until and until in self.output.decode(errors="replace"):
                return True
            ready, _, _ = select.select([self.terminal], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.terminal, 65536)
                except OSError:
                    return False
                if not chunk:
                    return False
                self.output += chunk
        return bool(until) and until in self.output.decode(errors="replace")

    def type(self, line):
        os.write(self.terminal, line.encode() + b"\r")

    def stop(self):
        try:
            os.kill(self.pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)


def probe_online_orders_are_told(ctx):
    """`drinkshop serve` with online ordering on, two counters waiting at their prompts (one on the server's store
    file, one over the API); a customer sends a group from /order: each counter must write the new order above its
    prompt with the bell, once, and `orders` at 80 columns must mark it online."""
    from probe_money_and_secrets import Browser, one_shot
    failures = []
    token = "pat" + "C" * 20
    labels, online_labels = ctx.path("server-labels.tspl"), ctx.path("online-labels.tspl")
    server = ctx.server("told", tokens={token: "read-write"}, env={"DRINKSHOP_LABEL_PRINTER": labels})
    counters = []
    try:
        done = one_shot(ctx, server.db, "online", "on")
        if done.returncode != 0:
            return False, "set-up failed", [done.stderr[-300:]]
        env = dict(ctx.env, TERM="xterm", NO_COLOR="1")
        remote = dict(env, AIRTABLE_TOKEN=token, AIRTABLE_BASE_ID=server.base_id, AIRTABLE_ENDPOINT_URL=server.url,
                      DRINKSHOP_OUTBOX=ctx.path("outbox") + ".sqlite")
        counters = [("the server's counter", Counter(ctx, ["--db", server.db], env)),
                    ("a counter over the API", Counter(ctx, [], remote))]
        for _, counter in counters:
            counter.read_for(4, until="> ")
            counter.output = b""
        def send_group(name):
            browser = Browser(server.port)
            browser.request("GET", "/order")
            status, _, group = browser.post("/order", "/order/start", {"name": name})
            if not group or "/order/g/" not in group:
                return f"POST /order/start answered {status}"
            added, _, _ = browser.post(group + "/drink?d=" + urllib.parse.quote("熟成紅茶"), group + "/lines",
                                       {"drink": "熟成紅茶", "size": "中杯", "ice": "去冰", "sugar": "無糖", "cups": "2", "note": ""})
            status, page, _ = browser.post(group, group + "/send", {})
            if status not in (200, 303):
                return f"line answered {added}, send answered {status}: {re.findall(r'class=.notice[^>]*>([^<]*)', page)}"
            return None

        def stickers(path, seconds=5):
            end = time.time() + seconds
            while time.time() < end:
                if os.path.exists(path) and open(path, "rb").read().count(b"PRINT") >= 2:
                    break
                time.sleep(0.1)
            return open(path, "rb").read().count(b"PRINT") if os.path.exists(path) else 0

        problem = send_group("Amy")
        if problem:
            return False, "the group was not sent", [problem]
        status = 303
        sent = time.time()
        latency = []
        for name, counter in counters:
            told = counter.read_for(15, until="網路新單")
            latency.append(time.time() - sent)
            text = counter.output.decode(errors="replace")
            if not told:
                failures.append(f"{name}: said nothing of the new online order in 15 s (send answered {status}): {text[-200:]!r}")
                continue
            if "\x07" not in text:
                failures.append(f"{name}: told the order without the bell")
        for name, counter in counters:
            counter.read_for(4)
            count = counter.output.decode(errors="replace").count("網路新單")
            if count > 1:
                failures.append(f"{name}: told the order {count} times")
        _, counter = counters[0]
        counter.output = b""
        counter.type("orders")
        counter.read_for(8, until=" cups")
        listed = counter.output.decode(errors="replace")
        rows = [ESCAPE.sub("", line) for line in listed.replace("\r\n", "\n").split("\n") if "Amy" in line or "熟成紅茶" in line]
        if not any("網" in row for row in rows):
            failures.append(f"orders at 80 columns does not mark the online order: {rows!r}")
        # Its stickers: on the server's label printer (2 cups), once.
        printed = stickers(labels)
        if printed != 2:
            failures.append(f"the server's label printer got {printed} stickers for the 2 cups of the online order")
        # A counter set to take them (`printer online ADDRESS`): the next order's stickers go there, not to the server's.
        done = one_shot(ctx, server.db, "printer", "online", online_labels)
        if done.returncode != 0:
            failures.append(f"printer online: {done.stderr[-200:]}")
        problem = send_group("Ben")
        if problem:
            failures.append("the second group was not sent: " + problem)
        there, here = stickers(online_labels), stickers(labels, seconds=1)
        if there != 2 or here != 2:
            failures.append(f"with printer online set, the counter's printer got {there} stickers and the server's {here - 2} more")
        figure = f"stickers: {printed} on the server's label printer, then {there} on the counter's set to take them; {2 - sum(1 for f in failures if 'said nothing' in f)} of 2 counters told the order (the first after {latency[0]:.1f} s, the last {max(latency):.1f} s)"
        return not failures, figure, failures
    finally:
        for _, counter in counters:
            counter.stop()
        server.stop()


def sent_group(server, name):
    """A group with 2 cups from /order, sent: (its page's path, the browser), or (None, why)."""
    from probe_money_and_secrets import Browser
    browser = Browser(server.port)
    browser.request("GET", "/order")
    status, _, group = browser.post("/order", "/order/start", {"name": name})
    if not group or "/order/g/" not in group:
        return None, f"POST /order/start answered {status}"
    browser.post(group + "/drink?d=" + urllib.parse.quote("熟成紅茶"), group + "/lines",
                 {"drink": "熟成紅茶", "size": "中杯", "ice": "去冰", "sugar": "無糖", "cups": "2", "note": ""})
    status, _, _ = browser.post(group, group + "/send", {})
    if status not in (200, 303):
        return None, f"send answered {status}"
    return (group, browser), None


def probe_cancelled_page_owes_nothing(ctx):
    """An order from /order cancelled at a counter: its page must say it is cancelled and owes nothing."""
    from probe_money_and_secrets import one_shot
    server = ctx.server("cancelled-page")
    try:
        one_shot(ctx, server.db, "online", "on")
        sent, problem = sent_group(server, "Amy")
        if not sent:
            return False, "nothing sent", [problem]
        group, browser = sent
        before = browser.request("GET", group)[1]
        done = one_shot(ctx, server.db, "cancel", "#1", "客人沒來")
        if done.returncode != 0:
            return False, "cancel failed", [done.stderr[-300:]]
        page = browser.request("GET", group)[1]
        failures = []
        if "應付" not in before:
            failures.append("the page before the cancel did not say what is due (the probe's premise)")
        if "已取消" not in page:
            failures.append("the cancelled order's page does not say 已取消")
        for owed in ("應付", "Due:"):
            if owed in page:
                failures.append(f"the cancelled order's page still says {owed!r}: {re.findall(r'<p class=.notice.>[^<]*', page)}")
        if "不需付款" not in page:
            failures.append("the cancelled order's page does not say nothing is due (不需付款)")
        return not failures, f"{len(failures)} wrong words on the cancelled order's page", failures
    finally:
        server.stop()


def probe_closed_day_takes_no_groups(ctx):
    """After `close` at a counter, /order must refuse a new group and a send until the next business day."""
    from probe_money_and_secrets import Browser, one_shot
    server = ctx.server("closed-day")
    try:
        for words in (["online", "on"], ["shift", "open", "0"]):
            one_shot(ctx, server.db, *words)
        browser = Browser(server.port)
        browser.request("GET", "/order")
        status, _, group = browser.post("/order", "/order/start", {"name": "Early"})
        browser.post(group + "/drink?d=" + urllib.parse.quote("熟成紅茶"), group + "/lines",
                     {"drink": "熟成紅茶", "size": "中杯", "ice": "去冰", "sugar": "無糖", "cups": "1", "note": ""})
        # The pages as they were open before the close, their forms (and tokens) in hand.
        late = Browser(server.port)
        start_form = Browser.hidden(late.request("GET", "/order")[1])
        send_form = Browser.hidden(browser.request("GET", group)[1])
        done = one_shot(ctx, server.db, "close", "0")
        if done.returncode != 0:
            return False, "close failed", [done.stderr[-300:]]
        failures = []
        landing = late.request("GET", "/order")
        started = late.request("POST", "/order/start", dict(start_form, name="Late"))
        sent = browser.request("POST", group + "/send", send_form)
        for what, (status, page, _) in (("GET /order", landing), ("a new group", started), ("the open group's send", sent)):
            if status != 503 or "今日已打烊" not in page:
                failures.append(f"after close, {what} answered {status} without saying the shop has closed for today")
        orders = one_shot(ctx, server.db, "orders", "all").stdout
        if "Early" in orders:
            failures.append("the open group's order was placed after close")
        return not failures, f"{3 - len([f for f in failures if 'answered' in f])} of 3 refused after close", failures
    finally:
        server.stop()


PROBES = [
    ("page-cancelled-owes-nothing", "a cancelled order's page says it is cancelled and nothing is due", probe_cancelled_page_owes_nothing),
    ("page-closed-day", "after close, /order takes no new group or send until the next business day", probe_closed_day_takes_no_groups),
    ("online-told", "a new order from /order is told once, with the bell, at every running counter, and marked in orders",
     probe_online_orders_are_told),
    ("words-fit-80", "errors, notes and questions fit an 80-column terminal, wrapped at spaces or between CJK characters",
     probe_messages_fit_80_columns),
]
