"""Drives the ordering page (/order) in headless Chromium as three people; see scripts/order-check."""
import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "display"))
from devtools import DevTools  # noqa: E402
from check import Counter, ShopServer, free_port  # noqa: E402

WIDTH, HEIGHT = 390, 844


class Person:
    """One person's phone: a page in a browser context of its own (its own cookies), at 390x844."""

    def __init__(self, name, browser, devtools_port):
        self.name = name
        context = browser.call("Target.createBrowserContext", disposeOnDetach=True)["browserContextId"]
        target = browser.call("Target.createTarget", url="about:blank", browserContextId=context)["targetId"]
        self.tools = DevTools(f"ws://127.0.0.1:{devtools_port}/devtools/page/{target}")
        self.tools.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1, mobile=True)

    def js(self, expression):
        return self.tools.evaluate(expression)

    def wait(self, expression, within=10.0):
        """Seconds until `expression` is true in the page, or None after `within` seconds."""
        started = time.monotonic()
        while time.monotonic() - started < within:
            try:
                if self.js(expression):
                    return time.monotonic() - started
            except RuntimeError:
                pass  # the page is between documents
            time.sleep(0.02)
        return None

    def open(self, url):
        self.js("window.__stale = true")
        self.tools.call("Page.navigate", url=url)
        self.settle(f"opening {url}")

    def settle(self, what):
        if self.wait("window.__stale === undefined && document.readyState === 'complete'", 15) is None:
            raise SystemExit(f"{self.name}: the page did not load after {what}")

    def submit(self, fill, what):
        """Runs `fill` (JavaScript that fills the form and returns its submit button), clicks it, and waits
        for the page the server answers with."""
        # The page redraws parts of itself as the group changes (another person's line arriving): a button found
        # missing in the middle of a redraw is looked for again, for up to 5 s.
        expression = f"(function () {{ var button = ({fill})(); if (!button) return false; window.__stale = true; button.click(); return true; }})()"
        started = time.monotonic()
        while True:
            try:
                if self.js(expression):
                    break
            except RuntimeError:
                pass  # the page is between documents
            if time.monotonic() - started > 5:
                raise SystemExit(f"{self.name}: could not {what}: {self.js('location.href')}")
            time.sleep(0.05)
        self.settle(what)

    def text(self, selector="body"):
        return self.js(f"(document.querySelector({json.dumps(selector)}) || {{innerText: ''}}).innerText") or ""

    def screenshot(self, path, full=True):
        self.js("window.scrollTo(0, 0)")
        params = {"format": "png"}
        if full:
            height = self.tools.call("Page.getLayoutMetrics")["cssContentSize"]["height"]
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": WIDTH, "height": min(max(HEIGHT, height), 2600), "scale": 1})
        shot = self.tools.call("Page.captureScreenshot", **params)
        with open(path, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        print(f"   screenshot: {path}")


def fill_drink(size, ice, sugar, add_ons=(), cups=1, note=""):
    """JavaScript choosing a drink form's options, as a person taps them."""
    return f"""function () {{
      var form = document.getElementById("drink-form");
      if (!form) return null;
      function pick(name, value) {{ form.querySelector('input[name="' + name + '"][value="' + value + '"]').checked = true; }}
      pick("size", {json.dumps(size)}); pick("ice", {json.dumps(ice)}); pick("sugar", {json.dumps(sugar)});
      form.querySelectorAll('input[name="addon"]').forEach(function (box) {{ box.checked = {json.dumps(list(add_ons))}.indexOf(box.value) >= 0; }});
      form.elements.cups.value = "{cups}";
      form.elements.note.value = {json.dumps(note)};
      return form.querySelector('button[type="submit"]');
    }}"""


def fill_name(name):
    return f"""function () {{
      var field = document.getElementById("name");
      if (!field) return null;
      field.value = {json.dumps(name)};
      return field.form.querySelector('button[type="submit"]');
    }}"""


def click_link(selector, text=None):
    match = f" && e.innerText.indexOf({json.dumps(text)}) >= 0" if text else ""
    return f"""function () {{
      return Array.from(document.querySelectorAll({json.dumps(selector)})).filter(function (e) {{ return true{match}; }})[0] || null;
    }}"""


def choose_drink(person, drink, fill, what):
    person.submit(click_link("a.button", "加點飲料"), "open the menu")
    person.submit(click_link("a.drink", drink), f"open {drink}")
    person.submit(fill, what)


def one_shot(binary, server, workdir, *words):
    """A one-shot `drinkshop` command at a counter on the served base."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AIRTABLE_")}
    env.update(AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base,
               AIRTABLE_ENDPOINT_URL=f"http://127.0.0.1:{server.port}", NO_COLOR="1",
               DRINKSHOP_OUTBOX=os.path.join(workdir, "outbox-oneshot.sqlite"), HOME=workdir)
    done = subprocess.run([binary, "--staff", "order-check", *words], env=env, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise SystemExit(f"drinkshop {' '.join(words)} failed: {done.stderr[-500:]}")
    return done.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--drinkshop", required=True)
    parser.add_argument("--screenshots", required=True)
    args = parser.parse_args()
    shots = args.screenshots

    port = free_port()
    workdir = tempfile.mkdtemp(prefix="order-check-shop-")
    token = "pat" + os.urandom(16).hex()
    server = ShopServer(args.drinkshop, port, workdir, token)
    counter = Counter(args.drinkshop, server, workdir)
    profile = tempfile.mkdtemp(prefix="order-check-")
    browser_process = subprocess.Popen(
        ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
         "--remote-debugging-port=0", f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failures = []
    people = []
    browser = None
    base = f"http://127.0.0.1:{port}"
    try:
        active = os.path.join(profile, "DevToolsActivePort")
        deadline = time.monotonic() + 30
        while not os.path.exists(active) or len(open(active).read().split()) < 2:
            if time.monotonic() > deadline or browser_process.poll() is not None:
                raise SystemExit("chromium did not start its DevTools endpoint")
            time.sleep(0.1)
        devtools_port, browser_path = open(active).read().split()[:2]
        browser = DevTools(f"ws://127.0.0.1:{devtools_port}{browser_path}")
        amy, ben, cara = (Person(name, browser, devtools_port) for name in ("Amy", "Ben", "Cara"))
        people = [amy, ben, cara]

        # Closed until a manager opens it: a polite refusal, no form.
        amy.open(base + "/order")
        if "目前未開放網路點餐" not in amy.text() or amy.js("!!document.getElementById('name')"):
            failures.append("with online ordering off, /order should say so and offer no form")
        amy.screenshot(os.path.join(shots, "order-closed.png"), full=False)
        counter.type("online on", "Online ordering is open")
        print("   online ordering: off refused politely; `online on` at the counter opened it")

        # Amy starts a group; Ben and Cara join from the link, each in their own browser.
        amy.open(base + "/order")
        amy.js("document.getElementById('name').value = 'Amy'")
        amy.screenshot(os.path.join(shots, "order-start.png"), full=False)
        amy.submit(fill_name("Amy"), "start a group")
        link = amy.js("document.getElementById('share') && document.getElementById('share').value")
        if not link or "/order/g/" not in link or len(link.rsplit("/", 1)[-1]) != 32:
            raise SystemExit(f"no group link with a 128-bit id on Amy's page: {link!r} at {amy.js('location.href')}: {amy.text()[:300]!r}")
        for person in (ben, cara):
            person.open(link)
            if "加入揪團" not in person.text():
                failures.append(f"{person.name} did not get the join form from the link")
            if person is ben:
                ben.js("document.getElementById('name').value = 'Ben'")
                ben.screenshot(os.path.join(shots, "order-join.png"), full=False)
            person.submit(fill_name(person.name), "join")
        if any("dsorder" in (p.js("document.cookie") or "") for p in people):
            failures.append("a page's script can read the browser's key (the cookie must be HttpOnly)")
        print(f"   group {link.rsplit('/', 1)[-1][:8]}… started by Amy; Ben and Cara joined from the link "
              "(three browser contexts, each with its own key cookie, unreadable by scripts)")

        # Amy: 熟成紅茶 熱 with 菓玉 is refused, the choices kept; 少冰 is taken.
        amy.submit(click_link("a.button", "加點飲料"), "open the menu")
        amy.screenshot(os.path.join(shots, "order-menu.png"), full=False)
        if "售完" not in amy.text():
            failures.append("the menu shows no sold-out drink (草莓檸果 is sold out in the seeds)")
        amy.submit(click_link("a.drink", "熟成紅茶"), "open 熟成紅茶")
        amy.submit(fill_drink("大杯", "熱", "半糖", ["加菓玉"]), "add 熟成紅茶 熱 with 菓玉")
        refusal = amy.text(".notice.error")
        if "菓玉無法於溫熱飲中製作" not in refusal:
            failures.append(f"菓玉 in a hot drink was not refused with the shop's words: {refusal!r}")
        elif not amy.js("document.querySelector('input[name=ice][value=\"熱\"]').checked && document.querySelector('input[name=addon][value=\"加菓玉\"]').checked"):
            failures.append("the refused form did not keep the choices made")
        else:
            print(f"   refused: {refusal}")
        amy.screenshot(os.path.join(shots, "order-drink-refused.png"), full=False)
        amy.submit(fill_drink("大杯", "少冰", "半糖", ["加菓玉"]), "add 熟成紅茶 少冰 with 菓玉")
        choose_drink(ben, "白玉歐蕾", fill_drink("中杯", "去冰", "微糖", cups=2, note="少一點奶"), "add 白玉歐蕾")
        # Cara's form: the price its script shows once she has chosen is the one her line then has on the group page
        # (the promotion the counter would give the group taken off, worked out by the server).
        cara.submit(click_link("a.button", "加點飲料"), "open the menu")
        cara.submit(click_link("a.drink", "雪花冷露"), "open 雪花冷露")
        cara_fill = fill_drink("大杯", "正常冰", "無糖", ["加白玉"])
        quoted = cara.js(f"(({cara_fill})(), document.getElementById('drink-form').dispatchEvent(new Event('change')), "
                         "document.getElementById('price').textContent)")
        cara.submit(cara_fill, "add 雪花冷露")

        # Amy's page follows the others' lines by itself.
        seconds = amy.wait("document.querySelectorAll('.person').length === 3", 5)
        if seconds is None:
            failures.append("Amy's page did not show all three people's lines within 5 s")
        else:
            print(f"   Amy's page showed Ben's and Cara's lines by itself ({seconds * 1000:.0f} ms after Cara's)")
        total = amy.text("#total")
        shown = re.findall(r"\$\d+", amy.js("(document.querySelector('.person[data-person=\"Cara\"] .amount') || {}).innerText || ''"))
        if not shown or shown[-1] != quoted:
            failures.append(f"Cara's drink form showed {quoted!r}, her line on the group page {shown[-1:] or 'nothing'}")
        else:
            print(f"   Cara's drink form showed {quoted}, as her line on the group page does")
        amy.screenshot(os.path.join(shots, "order-group.png"))
        if amy.js("document.querySelectorAll('.person').length") == 3:
            mine = amy.js("document.querySelectorAll('form[action$=\"/delete\"]').length")
            if mine != 1:
                failures.append(f"Amy's page offers {mine} delete buttons; only her own line should have one")

        # Amy sends one order; every page shows its pickup number.
        amy.submit("function () { return document.getElementById('send'); }", "send the order")
        # The page the send answers with may be one the group's own update reloaded while the order was still
        # being placed ("訂單送出中，請稍候"): it then shows the number by itself when the counter answers.
        amy.wait("!!document.getElementById('pickup-number')", 10)
        number = amy.js("document.getElementById('pickup-number') && Number(document.getElementById('pickup-number').textContent)")
        if not number:
            raise SystemExit(f"no pickup number after sending: {amy.text('.notice')!r}")
        for person in (ben, cara):
            if person.wait("!!document.getElementById('pickup-number')", 5) is None:
                failures.append(f"{person.name}'s page did not show the pickup number by itself")
        if "付款請至櫃台" not in amy.text():
            failures.append("the sent page does not say payment is at the counter")
        amy.screenshot(os.path.join(shots, "order-sent.png"), full=False)
        print(f"   sent as one order: 取餐號 {number}, total {total} (estimated on the page)")

        # The counter: one order, three lines, each naming its person.
        records = json.loads(one_shot(args.drinkshop, server, workdir, "orders", "--json"))
        refs = {r["fields"].get("orderRef") for r in records}
        notes = [r["fields"].get("note", "") for r in sorted(records, key=lambda r: r["fields"].get("line", 0))]
        table = one_shot(args.drinkshop, server, workdir, "orders")
        if len(refs) != 1 or len(records) != 3 or [n.split(" · ")[0] for n in notes] != ["for Amy", "for Ben", "for Cara"] \
                or not all(r["fields"].get("placedBy") == "網路點單 online" for r in records) or "1 order," not in table:
            failures.append(f"the counter's orders should hold one order with three named lines: {records} / {table}")
        else:
            print(f"   drinkshop orders --json: 1 order, 3 lines, notes {notes}; orders: {table.strip().splitlines()[-1]}")

        # The counter moves it on: each page shows 製作中, then 可取餐, within a second.
        for command, answer, status, label in ((f"advance #{number}", "preparing", "preparing", "製作中"),
                                               (f"advance #{number}", "可取餐", "ready", "可取餐")):
            sent = time.monotonic()
            counter.type(command, answer)
            answered = time.monotonic()
            for person in people:
                remaining = max(0.05, 1.0 - (time.monotonic() - answered))
                seconds = person.wait(f"document.getElementById('status-text').dataset.status === '{status}' && "
                                      f"document.getElementById('status-text').textContent.indexOf('{label}') >= 0", remaining)
                if seconds is None:
                    failures.append(f"{person.name}'s page did not show {label} within 1 s of the counter's `{command}`")
                    continue
                shown = time.monotonic()
                print(f"   {person.name}: {label} shown {(shown - answered) * 1000:.0f} ms after the counter answered "
                      f"({(shown - sent) * 1000:.0f} ms after the command was typed)")
            if status == "ready":
                ben.screenshot(os.path.join(shots, "order-ready.png"), full=False)

        # Closed again: the page refuses new groups at once.
        counter.type("online off", "Online ordering is closed")
        amy.open(base + "/order")
        if "目前未開放網路點餐" not in amy.text():
            failures.append("after `online off` the page still offered to start a group")
        else:
            print("   `online off`: the page refused new groups with its next request")
    finally:
        for person in people:
            person.tools.close()
        if browser:
            browser.close()
        browser_process.terminate()
        try:
            browser_process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser_process.kill()
            browser_process.wait()
        counter.stop()
        server.stop()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)

    if failures:
        for failure in failures:
            print(f"FAIL: {failure}", file=sys.stderr)
        sys.exit(1)
    print("== order-check passed")


if __name__ == "__main__":
    main()
