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

READ_BOARD = """(function () {
  function numbers(id) { return Array.from(document.querySelectorAll('#' + id + ' li')).map(function (e) { return Number(e.textContent); }); }
  return JSON.stringify({preparing: numbers('preparing'), ready: numbers('ready'), state: document.getElementById('state').textContent});
})()"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DisplayServer:
    """The display server as a child process, told board moves on its standard input."""

    def __init__(self, binary, port):
        self.process = subprocess.Popen([binary, "--port", str(port)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        line = self.process.stdout.readline()
        if not line.startswith("listening on"):
            raise SystemExit(f"display server did not start: {line!r}")

    def tell(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().strip()
        if not answer.startswith("ok"):
            raise SystemExit(f"display server refused {command!r}: {answer}")

    def stop(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
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
    parser.add_argument("--server", required=True)
    parser.add_argument("--screenshot", required=True)
    args = parser.parse_args()

    port = free_port()
    server = DisplayServer(args.server, port)
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
        steps = [
            ("place 101", ([101], [])),
            ("place 102", ([101, 102], [])),
            ("place 103", ([101, 102, 103], [])),
            ("advance 101", ([102, 103], [101])),
            ("advance 102", ([103], [101, 102])),
            ("collect 101", ([103], [102])),
        ]
        latencies = []
        for command, expected in steps:
            sent = time.monotonic()
            server.tell(command)
            seconds = wait_for_board(tools, expected, 1.0)
            if seconds is None:
                failures.append(f"after '{command}' the page did not show {expected} within 1 s")
            else:
                latencies.append(time.monotonic() - sent)
        if latencies:
            print(f"   {len(latencies)}/{len(steps)} changes shown within 1 s; slowest "
                  f"{max(latencies) * 1000:.0f} ms, median {sorted(latencies)[len(latencies) // 2] * 1000:.0f} ms")

        # A server restart: the page must reconnect by itself and show the new server's board.
        server.stop()
        time.sleep(0.5)
        shown = json.loads(tools.evaluate(READ_BOARD))
        print(f"   server stopped; the page says '{shown['state']}'")
        server = DisplayServer(args.server, port)
        restarted = time.monotonic()
        server.tell("board 201,202;199")
        seconds = wait_for_board(tools, ([201, 202], [199]), 10)
        if seconds is None:
            failures.append("the page did not reconnect within 10 s of the server restarting")
        else:
            print(f"   reconnected and showed the new board {time.monotonic() - restarted:.1f} s after the restart")

        server.tell("board 203,204,205;198,199,200")
        wait_for_board(tools, ([203, 204, 205], [198, 199, 200]), 2)
        shot = tools.call("Page.captureScreenshot", format="png")
        with open(args.screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        print(f"   screenshot: {args.screenshot}")
    finally:
        if tools:
            tools.close()
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
            browser.wait()
        server.stop()
        shutil.rmtree(profile, ignore_errors=True)

    if failures:
        for failure in failures:
            print(f"FAIL: {failure}", file=sys.stderr)
        sys.exit(1)
    print("== display-check passed")


if __name__ == "__main__":
    main()
