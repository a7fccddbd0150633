"""Probes of stamps for nothing and of insiders' secrets, through the built binary end to end: a group order from
/order with a member's mobile, cancelled unpaid at the counter, must leave the card empty; a new store must be
its user's alone; a PIN grant forged from the store's readable hash must be refused and counted; a PIN typed on
a login line must be neither echoed nor kept in history."""
import base64
import hashlib
import http.client
import os
import re
import sqlite3
import stat
import subprocess
import time
import urllib.parse

from terminal_session import on_terminal

MOBILE = "0912345678"


def one_shot(ctx, db, *words, env=None):
    merged = dict(ctx.env)
    merged.update(env or {})
    return subprocess.run([ctx.binary, "--db", db, *words], env=merged, capture_output=True, text=True, timeout=120)


class Browser:
    """A customer's browser on /order: a cookie jar, and forms sent with whatever hidden fields the page gives."""

    def __init__(self, port):
        self.port = port
        self.cookies = {}
        self.token = None

    def request(self, method, path, form=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Origin": f"http://127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode(errors="replace")
        # The form token every /order form carries (bound to this browser): kept from the last page that had one.
        token = re.search(r'<input[^>]*name="token"[^>]*value="([^"]*)"', text)
        if token:
            self.token = token.group(1)
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";")[0]
        location = response.getheader("Location")
        connection.close()
        return response.status, text, location

    @staticmethod
    def hidden(page):
        fields = {}
        for tag in re.findall(r"<input[^>]*>", page):
            if 'type="hidden"' not in tag:
                continue
            name = re.search(r'name="([^"]*)"', tag)
            value = re.search(r'value="([^"]*)"', tag)
            if name:
                fields[name.group(1)] = value.group(1) if value else ""
        return fields

    def post(self, page, action, fields):
        _, text, _ = self.request("GET", page)
        form = self.hidden(text)
        if "token" not in form and self.token:
            form["token"] = self.token
        form.update(fields)
        return self.request("POST", action, form)


def stamps_for_nothing(ctx):
    """A group order from /order with a member's mobile, 4 lines of 20 cups (within what one network may have open:
    its fair share of the 200 cups online orders may hold), sent, then cancelled unpaid at the
    counter by a one-shot `drinkshop cancel`: the member must show 0 stamps and redeem nothing."""
    failures = []
    server = ctx.server("stamps-group")
    try:
        db = server.db
        card = ctx.path("stamp-card.json")
        with open(card, "w") as handle:
            handle.write('{"stampCard": {"stampsPerReward": 5, "rewardSize": "中杯"}}')
        for words in (["seed", card], ["online", "on"]):
            done = one_shot(ctx, db, *words)
            if done.returncode != 0:
                return False, "set-up failed", [f"{' '.join(words)}: {done.stderr[-300:]}"]
        browser = Browser(server.port)
        browser.request("GET", "/order")
        status, _, group = browser.post("/order", "/order/start", {"name": "Group", "mobile": MOBILE})
        if not group or "/order/g/" not in group:
            return False, "no group started", [f"POST /order/start answered {status} without a group"]
        lines = 0
        for _ in range(4):
            status, _, _ = browser.post(group + "/menu", group + "/lines", {
                "drink": "熟成紅茶", "size": "中杯", "ice": "去冰", "sugar": "無糖", "cups": "20", "note": ""})
            lines += status in (200, 303)
        status, page, _ = browser.post(group, group + "/send", {})
        orders = one_shot(ctx, db, "orders")
        number = re.search(r"^\s*(\d+)\s", orders.stdout, re.M)
        if not number:
            return False, "nothing sent", [f"the group's order was not placed (send answered {status}): {orders.stdout[-300:]}"]
        cancel = one_shot(ctx, db, "cancel", "#" + number.group(1), "never came")
        if cancel.returncode != 0:
            failures.append(f"cancel failed: {cancel.stderr[-300:]}")
        member = one_shot(ctx, db, "member", MOBILE)
        held = re.search(r"集點 (-?\d+)/", member.stdout)
        stamps = int(held.group(1)) if held else None
        if stamps != 0:
            failures.append(f"after the unpaid group was cancelled the member holds {stamps} stamps: {member.stdout.strip()}")
        one_shot(ctx, db, "order", "熟成紅茶", "M", "無糖", "去冰", "for", MOBILE)
        later = one_shot(ctx, db, "orders").stdout
        numbers = re.findall(r"^\s*(\d+)\s", later, re.M)
        redeem = one_shot(ctx, db, "redeem", "#" + max(numbers, key=int)) if numbers else None
        if redeem is None or redeem.returncode == 0:
            failures.append("a free cup was redeemed with stamps the member never paid for")
        elif "點數不足" not in redeem.stderr:
            failures.append(f"redeem refused, but not for want of stamps: {redeem.stderr.strip()[-200:]}")
        figure = f"{lines} lines of 20 cups sent, cancelled unpaid: card {stamps} stamps, redeem refused={redeem is not None and redeem.returncode != 0}"
        return not failures, figure, failures
    finally:
        server.stop()


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def private_store(ctx):
    """`drinkshop init --db new/folder/shop.sqlite`, then an order: the store (and its -wal/-shm) 0600, the folders 0700."""
    root = ctx.path("private")
    db = os.path.join(root, "counter", "shop.sqlite")
    done = subprocess.run([ctx.binary, "init", "--db", db], env=ctx.env, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        return False, "init failed", [done.stderr[-300:]]
    one_shot(ctx, db, "order", "熟成紅茶", "M", "無糖", "去冰")
    failures = []
    seen = []
    for path, wanted in [(db, 0o600), (db + "-wal", 0o600), (db + "-shm", 0o600), (os.path.dirname(db), 0o700), (root, 0o700)]:
        if not os.path.exists(path):
            continue
        seen.append(f"{os.path.basename(path) or path} {oct(mode(path))[2:]}")
        if mode(path) != wanted:
            failures.append(f"{path} is {oct(mode(path))}, not {oct(wanted)}")
    return not failures, ", ".join(seen), failures


def quick_hash(pin):
    salt = os.urandom(16)
    derived = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, 1000, 32)
    b64 = lambda raw: base64.b64encode(raw).decode().rstrip("=")
    return f"$pbkdf2-sha256$i=1000${b64(salt)}${b64(derived)}"


def forged_grant(ctx):
    """Boss (manager, PIN 4321) ran a one-shot command; an insider reads Boss's hash from the store file and writes
    a grant for PIN 0000 of their own choosing: `DRINKSHOP_STAFF=Boss DRINKSHOP_PIN=0000 drinkshop online on`
    must be refused as a wrong PIN, and counted."""
    db = ctx.path("grants") + ".sqlite"
    state = ctx.path("grant-state")
    env = {"XDG_STATE_HOME": state}
    steps = [(["init", "--db", db], {}), (["staff", "add", "Boss", "manager"], {}),
             (["staff", "pin", "Boss"], {"DRINKSHOP_NEW_PIN": "4321"}),
             (["online", "off"], {"DRINKSHOP_STAFF": "Boss", "DRINKSHOP_PIN": "4321"})]
    for words, extra in steps:
        merged = dict(env, **extra)
        done = subprocess.run([ctx.binary, *words], env=dict(ctx.env, **merged), capture_output=True, text=True,
                              timeout=120) if words[0] == "init" else one_shot(ctx, db, *words, env=merged)
        if done.returncode != 0:
            return False, "set-up failed", [f"{' '.join(words)}: {done.stderr[-300:]}"]
    grants = os.path.join(state, "drinkshop", "grants")
    files = [name for name in os.listdir(grants) if name.endswith(".grant")] if os.path.isdir(grants) else []
    if len(files) != 1:
        return False, "no grant", [f"expected Boss's one grant file in {grants}, found {files}"]
    # The insider's reading of the store: every PIN hash in it.
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    text = " ".join(str(value) for row in connection.execute("SELECT * FROM sqlite_master") for value in row)
    hashes = set()
    for (table,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'"):
        for row in connection.execute(f'SELECT * FROM "{table}"'):
            for value in row:
                hashes.update(re.findall(r"\$pbkdf2-sha256\$i=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+", str(value)))
    connection.close()
    if len(hashes) != 1 or not text:
        return False, "no hash read", [f"expected Boss's one PIN hash in the store, found {len(hashes)}"]
    stored = hashes.pop()
    forged = f"{time.time() + 200}\t{stored}\t{quick_hash('0000')}\n"
    with open(os.path.join(grants, files[0]), "w") as handle:
        handle.write(forged)
    attempt = one_shot(ctx, db, "online", "on", env=dict(env, DRINKSHOP_STAFF="Boss", DRINKSHOP_PIN="0000"))
    failures = []
    if attempt.returncode == 0:
        failures.append("a manager's command ran with PIN 0000 on a grant forged from the store's hash")
    elif "wrong PIN" not in attempt.stderr:
        failures.append(f"refused, but not counted as a wrong PIN: {attempt.stderr.strip()[-200:]}")
    listed = one_shot(ctx, db, "online", env=env).stdout
    figure = f"forged grant for 0000: exit {attempt.returncode}, {attempt.stderr.strip().splitlines()[-1][:80] if attempt.stderr.strip() else 'no refusal'}"
    if "open" in listed.lower() and "closed" not in listed.lower():
        failures.append("online ordering was opened by the forged grant")
    return not failures, figure, failures


def pin_in_history(ctx):
    """`login Boss 4321` typed at the counter's terminal (a pseudo-terminal) and as a one-shot command: the line is
    never in the history file, and no error message says the PIN."""
    db = ctx.path("history") + ".sqlite"
    state = ctx.path("history-state")
    env = dict(ctx.env, XDG_STATE_HOME=state, TERM="xterm", DRINKSHOP_STAFF="Ken")
    subprocess.run([ctx.binary, "init", "--db", db], env=env, capture_output=True, timeout=120)
    for words, extra in [(["staff", "add", "Boss", "manager"], {}), (["staff", "pin", "Boss"], {"DRINKSHOP_NEW_PIN": "4321"})]:
        one_shot(ctx, db, *words, env=dict(extra, XDG_STATE_HOME=state))
    failures = []
    shot = one_shot(ctx, db, "login", "Boss", "4321", env={"XDG_STATE_HOME": state})
    if "4321" in shot.stdout + shot.stderr:
        failures.append(f"the one-shot command said the PIN back: {(shot.stdout + shot.stderr).strip()[-200:]}")
    on_terminal(ctx, ["--db", db], env, typed=["logout", "login Boss 4321", "quit"], pause=2)
    history = os.path.join(state, "drinkshop", "history")
    kept = open(history, encoding="utf-8").read() if os.path.exists(history) else ""
    if "4321" in kept:
        failures.append(f"the history file keeps the PIN: {kept.strip()!r}")
    if "logout" not in kept:
        failures.append(f"the history file was not written at all ({history}): the probe proves nothing")
    figure = f"history {len(kept.splitlines())} lines, PIN kept={'4321' in kept}; one-shot echo={'4321' in shot.stdout + shot.stderr}"
    return not failures, figure, failures


PROBES = [
    ("stamps-unpaid-group", "a group from /order with a member's mobile, cancelled unpaid, leaves 0 stamps", stamps_for_nothing),
    ("secrets-store-mode", "a new store and its folders are their user's alone (0600 / 0700)", private_store),
    ("secrets-forged-grant", "a PIN grant forged from the store's hash is refused as a wrong PIN", forged_grant),
    ("secrets-pin-history", "a PIN typed on a login line is never echoed or kept in history", pin_in_history),
]
