"""Probes of the customers' pages and the text every front shows: markup hidden in a grapheme cluster (a `"`
followed by U+0301, a `<` after U+0600) in a name, a note and a link; inline script; a cross-origin post
without the page's form token; a name of 20 "characters" and 2.5 KB; and a name written through the API with
terminal escape sequences, then `drinkshop orders` at the counter."""
import http.client
import re
import subprocess
import urllib.parse

DRINK = [("drink", "熟成紅茶"), ("size", "中杯"), ("ice", "少冰"), ("sugar", "半糖"), ("cups", "1")]


class Page:
    """One browser on the ordering page: its cookie, and the form token of the last page it read."""

    def __init__(self, server, origin=True):
        self.server = server
        self.cookie = None
        self.token = None
        self.origin = f"http://127.0.0.1:{server.port}" if origin else None

    def exchange(self, method, path, fields=None, origin=None, send_token=True):
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=15)
        headers = {"Host": f"127.0.0.1:{self.server.port}"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = None
        if fields is not None:
            sent = ([("token", self.token)] if send_token and self.token else []) + list(fields)
            body = urllib.parse.urlencode(sent).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = origin if origin is not None else (self.origin or "")
            if not headers["Origin"]:
                del headers["Origin"]
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode("utf-8", errors="replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                self.cookie = value.split(";")[0]
        found = re.search(r'name="token" value="([0-9a-f]+)"', text)
        if found:
            self.token = found.group(1)
        result = (response.status, text, dict(response.getheaders()))
        connection.close()
        return result

    def get(self, path):
        return self.exchange("GET", path)

    def post(self, path, fields=(), **options):
        return self.exchange("POST", path, list(fields), **options)


def counter(ctx, server, *words):
    """A one-shot `drinkshop` command at a counter on the served base (through its API)."""
    env = {k: v for k, v in ctx.env.items() if not k.startswith("AIRTABLE_")}
    env.update(AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base_id,
               AIRTABLE_ENDPOINT_URL=f"http://127.0.0.1:{server.port}", NO_COLOR="1",
               DRINKSHOP_OUTBOX=ctx.path("outbox") + ".sqlite")
    return subprocess.run([ctx.binary, "--staff", "attack", *words], env=env, capture_output=True, timeout=60)


def open_shop(ctx, name):
    server = ctx.server(name)
    done = counter(ctx, server, "online", "on")
    if done.returncode != 0:
        server.stop()
        raise RuntimeError("online on failed: " + done.stderr.decode(errors="replace")[-300:])
    return server


def start_group(server, name="Amy"):
    amy = Page(server)
    amy.get("/order")
    status, _, headers = amy.post("/order/start", [("name", name)])
    if status != 303:
        raise RuntimeError(f"starting a group answered {status}")
    return amy, headers["Location"]


def grapheme_markup(ctx):
    """A quote behind U+0301 in a name, a `<` behind U+0301 in a note, and a `<` after U+0600 in a note and a
    link: none may reach the page as markup."""
    server = open_shop(ctx, "grapheme")
    failures, tries = [], 0
    try:
        amy, group = start_group(server)
        ben = Page(server)
        ben.get(group)
        tries += 1
        status, _, _ = ben.post(group + "/join", [("name", 'x"\u0301 onclick=alert(1)')])
        if status != 303:
            raise RuntimeError(f"joining with a 19-character name answered {status}")
        for note in ["<\u0301svg onload=alert(2)>", "\u0600<svg onload=alert(3)>"]:
            tries += 1
            ben.post(group + "/lines", DRINK + [("note", note)])
        _, page, _ = amy.get(group)
        if re.search(r'"\u0301 onclick', page):
            failures.append("a name's quote with U+0301 closed an attribute: onclick on a card")
        if re.search(r"<\u0301?svg", page):
            failures.append("a note's <svg reached the group page as markup")
        tries += 1
        _, linked, _ = ben.get(group + "/drink?d=%D8%80%3Csvg%20onload%3Dalert(4)%3E")
        if "<svg" in linked:
            failures.append("a drink link's <svg after U+0600 reached the refusal page as markup")
    finally:
        server.stop()
    return not failures, f"{tries} hostile texts, {len(failures)} reached the page as markup", failures


def no_inline_script(ctx):
    """The pages' policies allow no inline script, and no page carries one."""
    server = open_shop(ctx, "inline")
    failures = []
    try:
        amy, group = start_group(server)
        pages = {"/order": amy.get("/order"), group: amy.get(group), "/display": amy.get("/display")}
        _, menu, _ = amy.get(group + "/menu")
        link = re.search(r'href="(/order/g/[0-9a-f]+/drink\?d=[^"]+)"', menu)
        if link:
            path = link.group(1).replace("&amp;", "&")
            pages[path] = amy.get(path)
        for path, (status, body, headers) in pages.items():
            policy = headers.get("Content-Security-Policy", "")
            script = re.search(r"script-src ([^;]*)", policy)
            if not script or "'unsafe-inline'" in script.group(1) or "'self'" not in script.group(1):
                failures.append(f"{path}: script-src is {script.group(1) if script else 'missing'}")
            if re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body):
                failures.append(f"{path}: an inline <script>")
            for src in re.findall(r'<script[^>]*\bsrc="([^"]+)"', body):
                status, _, script_headers = amy.get(src)
                if status != 200 or not script_headers.get("Content-Type", "").startswith("text/javascript"):
                    failures.append(f"{path}: its script {src} answered {status}")
    finally:
        server.stop()
    return not failures, f"{len(pages)} pages, {len(failures)} with inline script allowed or present", failures


def cross_origin_send(ctx):
    """A page on another port of the same site posts the organiser's send through a 307: `Origin: null` and her
    Lax cookie, but not her page's form token."""
    server = open_shop(ctx, "csrf")
    failures = []
    try:
        amy, group = start_group(server)
        status, _, _ = amy.post(group + "/lines", DRINK)
        if status != 303:
            raise RuntimeError(f"adding a line answered {status}")
        tries = 0
        for origin, token in [("null", None), ("null", "0" * 64), (f"http://127.0.0.1:{server.port}", None)]:
            tries += 1
            fields = [("token", token)] if token else []
            status, _, _ = amy.post(group + "/send", fields, origin=origin, send_token=False)
            if status == 303:
                failures.append(f"a send with Origin {origin} and {'a forged' if token else 'no'} token was taken")
        _, page, _ = amy.get(group)
        if "pickup-number" in page:
            failures.append("the group was sent by a post that did not come from its page")
        # Her own page's form still sends.
        status, _, _ = amy.post(group + "/send")
        if status != 303:
            failures.append(f"the page's own send answered {status}")
    finally:
        server.stop()
    return not failures, f"{tries} foreign posts, {len(failures)} changed something", failures


def byte_limits(ctx):
    """A name of 20 Characters that is 2.5 KB (each letter with 60 combining marks), and hidden or look-alike
    names (U+202E, a zero-width space, an escape sequence, a Cyrillic А in a Latin word)."""
    server = open_shop(ctx, "bytes")
    failures = []
    tried = [("a" + "\u0301" * 60) * 20, "Amy\u202e", "A\u200bmy", "A\x1b[2Kmy", "\u0410my"]
    try:
        page = Page(server)
        page.get("/order")
        for name in tried:
            status, _, _ = page.post("/order/start", [("name", name)])
            if status == 303:
                failures.append(f"the name {name[:12]!r}… ({len(name.encode())} bytes) started a group")
    finally:
        server.stop()
    return not failures, f"{len(tried)} names, {len(failures)} taken", failures


def terminal_escapes(ctx):
    """A name written through the API with cursor moves, an erase, a carriage return, U+202E and U+2028;
    then `drinkshop orders` at the counter: nothing of it may reach the terminal raw."""
    server = open_shop(ctx, "terminal")
    failures = []
    try:
        amy, group = start_group(server)
        amy.post(group + "/lines", DRINK)
        status, _, _ = amy.post(group + "/send")
        if status != 303:
            raise RuntimeError(f"sending answered {status}")
        status, listing, _ = server.request("GET", f"/v0/{server.base_id}/OrderDrink?pageSize=100")
        records = listing.get("records", []) if isinstance(listing, dict) else []
        if status != 200 or not records:
            raise RuntimeError(f"listing the order's lines answered {status}")
        hostile = "Amy\x1b[2K\x1b[1A\rPAID in full\x1b]0;owned\x07\u202e\u2028\x9b2J"
        body = {"records": [{"id": r["id"], "fields": {"orderName": hostile}} for r in records]}
        status, answer, _ = server.request("PATCH", f"/v0/{server.base_id}/OrderDrink", body)
        if status != 200:
            raise RuntimeError(f"writing the name answered {status}: {str(answer)[:200]}")
        done = counter(ctx, server, "orders")
        out = done.stdout + done.stderr
        raw = {"ESC": b"\x1b", "CR": b"\r", "BEL": b"\x07", "U+202E": "\u202e".encode(), "U+2028": "\u2028".encode(),
               "C1 CSI": "\x9b".encode()}
        for what, needle in raw.items():
            if needle in out:
                failures.append(f"`drinkshop orders` wrote {what} from a name raw")
        if b"Amy" not in out:
            failures.append("`drinkshop orders` did not list the order: " + out.decode(errors="replace")[-200:])
    finally:
        server.stop()
    return not failures, f"{len(raw)} kinds of hidden text in a name, {len(failures)} reached the terminal raw", failures


PROBES = [
    ("pages_grapheme_markup", "markup hidden behind U+0301 / U+0600 in a name, a note and a link", grapheme_markup),
    ("pages_no_inline_script", "inline script allowed or present on /order and /display", no_inline_script),
    ("pages_cross_origin_send", "a same-site page on another port sends a victim's group (Origin: null, Lax cookie, no token)",
     cross_origin_send),
    ("pages_byte_limits", "a 20-character 2.5 KB name, bidi, zero-width, escape and look-alike names", byte_limits),
    ("pages_terminal_escapes", "escape sequences, CR, U+202E, U+2028 in a name through the API, then `drinkshop orders`",
     terminal_escapes),
]
