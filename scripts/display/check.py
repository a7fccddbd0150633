"""Drives the pickup screen in headless Chromium; see scripts/display-check."""
import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from devtools import DevTools  # noqa: E402
import busy  # noqa: E402

READ_BOARD = """(function () {
  function numbers(id) { return Array.from(document.querySelectorAll('#' + id + ' li')).map(function (e) { return Number(e.textContent); }); }
  return JSON.stringify({preparing: numbers('preparing'), ready: numbers('ready'), state: document.getElementById('state').textContent});
})()"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ShopServer:
    """`drinkshop serve` on a fresh base as a child process: the Airtable API and the pickup screen."""

    def __init__(self, binary, port, workdir, token):
        self.binary, self.port, self.workdir, self.token = binary, port, workdir, token
        env = dict(os.environ, DRINKSHOP_API_TOKEN=token)
        self.log = open(os.path.join(workdir, "serve.log"), "a")
        self.process = subprocess.Popen(
            [binary, "--db", os.path.join(workdir, "shop.sqlite"), "--create", "serve", "--port", str(port)],
            env=env, stdout=subprocess.PIPE, stderr=self.log, text=True, bufsize=1)
        self.base = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("drinkshop serve did not start; see " + self.log.name)
            if line.strip().startswith("base id"):
                self.base = line.split()[2]
            if line.startswith("Press Ctrl-C"):
                return
        raise SystemExit("drinkshop serve did not start within 30 s")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class Counter:
    """A `drinkshop` REPL at a counter, talking to the server as a remote Airtable base
    (AIRTABLE_ENDPOINT_URL), typed into through its standard input."""

    def __init__(self, binary, server, workdir):
        env = {k: v for k, v in os.environ.items() if not k.startswith("AIRTABLE_")}
        env.update(AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base,
                   AIRTABLE_ENDPOINT_URL=f"http://127.0.0.1:{server.port}", NO_COLOR="1",
                   DRINKSHOP_OUTBOX=os.path.join(workdir, "outbox.sqlite"), HOME=workdir)
        self.errors = open(os.path.join(workdir, "counter.err"), "a+")
        self.process = subprocess.Popen([binary, "--staff", "display-check"], env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.errors, text=True, bufsize=1)

    def type(self, line, answer):
        """Types `line` and reads the REPL's output until a line containing `answer`."""
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            out = self.process.stdout.readline()
            if not out:
                break
            if answer in out:
                return
        self.errors.seek(0)
        raise SystemExit(f"the counter did not answer {line!r} with {answer!r}: {self.errors.read()[-500:]}")

    def stop(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def wait_for_board(tools, expected, within):
    """Seconds until the page shows `expected` (preparing, ready), or None after `within` seconds."""
    started = time.monotonic()
    while time.monotonic() - started < within:
        shown = json.loads(tools.evaluate(READ_BOARD) or "{}")
        if (shown.get("preparing"), shown.get("ready")) == expected:
            return time.monotonic() - started
        time.sleep(0.02)
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--drinkshop", required=True)
    parser.add_argument("--screenshot", required=True)
    args = parser.parse_args()

    port = free_port()
    workdir = tempfile.mkdtemp(prefix="display-check-shop-")
    token = "pat" + os.urandom(16).hex()
    server = ShopServer(args.drinkshop, port, workdir, token)
    counter = Counter(args.drinkshop, server, workdir)
    profile = tempfile.mkdtemp(prefix="display-check-")
    browser = subprocess.Popen(
        ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-dev-shm-usage", "--remote-debugging-port=0", f"--user-data-dir={profile}",
         "--window-size=1280,720", f"http://127.0.0.1:{port}/display"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failures = []
    tools = None
    try:
        active = os.path.join(profile, "DevToolsActivePort")
        deadline = time.monotonic() + 30
        while not os.path.exists(active) or not open(active).read().strip():
            if time.monotonic() > deadline or browser.poll() is not None:
                raise SystemExit("chromium did not start its DevTools endpoint")
            time.sleep(0.1)
        devtools_port = int(open(active).read().split()[0])
        deadline = time.monotonic() + 15
        page = None
        while page is None and time.monotonic() < deadline:
            with urllib.request.urlopen(f"http://127.0.0.1:{devtools_port}/json/list") as response:
                pages = [t for t in json.load(response) if t.get("type") == "page" and "/display" in t.get("url", "")]
            page = pages[0] if pages else None
            time.sleep(0.1)
        if page is None:
            raise SystemExit("chromium did not open the page")
        tools = DevTools(page["webSocketDebuggerUrl"])

        if wait_for_board(tools, ([], []), 10) is None:
            failures.append("the page did not show the empty board")
        placed = "Order placed"
        # (what the counter types, how the REPL answers, the board the page must then show)
        steps = [
            ("order 熟成紅茶 大杯 半糖 少冰 for 王小明", placed, ([1], [])),
            ("order 白玉歐蕾 中杯 微糖 去冰 x2 for Amy", placed, ([1, 2], [])),
            ("order 冷露歐蕾 大杯 無糖 正常冰", placed, ([1, 2, 3], [])),
            ("advance #1", "preparing", None),
            ("advance #1", "可取餐", ([2, 3], [1])),
            ("advance #2", "preparing", None),
            ("advance #2", "可取餐", ([3], [1, 2])),
            ("advance #1 --unpaid", "picked up", ([3], [2])),
        ]
        latencies = []
        after_answer = []
        measured = 0
        for line, answer, expected in steps:
            sent = time.monotonic()
            counter.type(line, answer)
            answered = time.monotonic()
            if expected is None:
                continue
            measured += 1
            seconds = wait_for_board(tools, expected, 1.0)
            if seconds is None:
                failures.append(f"after '{line}' the page did not show {expected} within 1 s")
            else:
                latencies.append(time.monotonic() - sent)
                after_answer.append(time.monotonic() - answered)
        if latencies:
            print(f"   {len(latencies)}/{measured} changes shown within 1 s of typing the command; slowest "
                  f"{max(latencies) * 1000:.0f} ms, median {sorted(latencies)[len(latencies) // 2] * 1000:.0f} ms "
                  f"(the counter's own requests included; after its answer: slowest {max(after_answer) * 1000:.0f} ms)")

        # A server restart: the page must reconnect by itself and show the board again, then follow the counter.
        server.stop()
        time.sleep(0.5)
        shown = json.loads(tools.evaluate(READ_BOARD))
        print(f"   server stopped; the page says '{shown['state']}'")
        server = ShopServer(args.drinkshop, port, workdir, token)
        restarted = time.monotonic()
        counter.type("advance #3", "preparing")
        counter.type("advance #3", "可取餐")
        seconds = wait_for_board(tools, ([], [2, 3]), 10)
        if seconds is None:
            failures.append("the page did not reconnect within 10 s of the server restarting")
        else:
            print(f"   reconnected and showed the new board {time.monotonic() - restarted:.1f} s after the restart")

        for line in ["order 熟成紅茶 中杯 半糖 少冰", "order 雪花冷露 大杯 微糖 少冰", "order 白玉歐蕾 大杯 半糖 去冰"]:
            counter.type(line, placed)
        counter.type("advance #4", "preparing")
        wait_for_board(tools, ([4, 5, 6], [2, 3]), 2)
        shot = tools.call("Page.captureScreenshot", format="png")
        with open(args.screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        print(f"   screenshot: {args.screenshot}")

        # A busy evening: an earlier day's uncollected #4 (today's #4 is being made), then 60 + 60 numbers.
        day = busy.add_earlier_days_leftover(server, 4)
        deadline = time.monotonic() + 5
        while busy.read_visible(tools)["earlier"]["numbers"] != [4] and time.monotonic() < deadline:
            time.sleep(0.05)
        shown = busy.read_visible(tools)
        if shown["earlier"]["numbers"] != [4] or 4 in shown["ready"]["numbers"] or shown["preparing"]["numbers"] != [4, 5, 6]:
            failures.append(f"an earlier day's #4 should be only in its strip beside today's #4 being made: {shown}")
        else:
            print(f"   an earlier day's ready #4 ({day}) shows apart as {shown['earlier']['labels']}; today's #4 is being made")
        started = time.monotonic()
        preparing, ready, newest, renamed = busy.fill_the_evening(server, counter, ([4, 5, 6], [2, 3]))
        print(f"   {len(preparing)} being made and {len(ready)} ready ({len(preparing) + len(ready) - 5} orders added, "
              f"the last ready with `advance` at the counter) in {time.monotonic() - started:.1f} s")
        screens = [(1280, 720), (1920, 1080)]
        for index, (width, height) in enumerate(screens):
            label = f"{width}x{height}"
            busy.set_screen(tools, width, height)
            if index > 0:
                # A fresh page at this size: the newest ready stands out again when the screen (re)starts.
                tools.call("Page.reload", ignoreCache=True)
            deadline = time.monotonic() + 10
            while busy.read_visible(tools)["newest"]["number"] != newest and time.monotonic() < deadline:
                time.sleep(0.05)
            busy.check_newest(tools, newest, label, failures, renamed.get(newest))
            busy.screenshot(tools, os.path.join(os.path.dirname(args.screenshot), f"pickup-tv-{label}.png"))
            busy.watch_a_cycle(tools, (preparing, ready), newest, [4], label, failures, renamed)
        # The newest is collected: the one ready before it takes its place, without being called again.
        counter.type(f"advance #{newest} --unpaid", "picked up")
        deadline = time.monotonic() + 5
        while busy.read_visible(tools)["newest"]["number"] == newest and time.monotonic() < deadline:
            time.sleep(0.05)
        shown = busy.read_visible(tools)["newest"]
        if shown["number"] == newest or shown["number"] not in ready or shown["fresh"]:
            failures.append(f"after #{newest} was collected the screen called out {shown}")
        else:
            print(f"   #{newest} collected: #{shown['number']}, ready before it, is shown as newest without a highlight")
    finally:
        if tools:
            tools.close()
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
            browser.wait()
        counter.stop()
        server.stop()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)

    if failures:
        for failure in failures:
            print(f"FAIL: {failure}", file=sys.stderr)
        sys.exit(1)
    print("== display-check passed")


if __name__ == "__main__":
    main()
