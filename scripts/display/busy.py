"""A busy evening on the pickup screen (issue 22): an earlier day's uncollected order, 60 numbers being made and
60 ready, at 1280x720 and 1920x1080. Every number must be seen within one paging cycle, in numeric order, never
cut off; the newest ready must be on screen and stand out; the earlier day's number only in its own strip."""
import base64
import datetime
import json
import random
import time
import urllib.request

# What a customer can see of each list right now: numbers whose box lies wholly inside the window and its own
# panel and is not covered (elementFromPoint at its centre), so a number clipped or pushed off counts as unseen.
READ_VISIBLE = """(function () {
  function seen(item) {
    var r = item.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) { return false; }
    if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) { return false; }
    var p = item.closest('section, footer').getBoundingClientRect();
    if (r.left < p.left - 0.5 || r.top < p.top - 0.5 || r.right > p.right + 0.5 || r.bottom > p.bottom + 0.5) { return false; }
    var hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return hit === item || item.contains(hit);
  }
  function list(id) {
    var items = Array.from(document.querySelectorAll('#' + id + ' li'));
    return {numbers: items.filter(seen).map(function (e) { return Number(e.getAttribute('data-number')); }),
            labels: items.filter(seen).map(function (e) { return Array.from(e.childNodes).map(function (n) { return n.textContent; }).join(' '); }),
            unseen: items.filter(function (e) { return !seen(e); }).length,
            fresh: items.filter(function (e) { return seen(e) && e.classList.contains('fresh'); })
                        .map(function (e) { return Number(e.getAttribute('data-number')); }),
            pages: Number(document.getElementById(id).getAttribute('data-pages') || 0),
            mark: (document.getElementById(id + '-page') || {}).textContent || '',
            font: items.length ? getComputedStyle(items[0]).fontSize : ''};
  }
  var box = document.getElementById('newest');
  var number = document.getElementById('newest-number');
  return JSON.stringify({preparing: list('preparing'), ready: list('ready'), earlier: list('earlier'), renamed: list('renamed'),
    newest: {number: Number(number.textContent), shown: !box.hidden && seen(number), fresh: box.classList.contains('fresh'),
             was: document.getElementById('newest-was').textContent},
    pageSeconds: Number(document.body.getAttribute('data-page-seconds'))});
})()"""


def read_visible(tools):
    """What READ_VISIBLE sees; waits (up to 5 s) while a reloading page has no board yet."""
    deadline = time.monotonic() + 5
    while True:
        try:
            shown = json.loads(tools.evaluate(READ_VISIBLE) or "{}")
        except RuntimeError:  # the page is between documents
            shown = {}
        if "newest" in shown or time.monotonic() > deadline:
            return shown
        time.sleep(0.05)


class ServedOrders:
    """Writes order records through the served Airtable API, as copies of one of today's line records: quicker
    than typing a hundred orders at a counter (a shared two-core CI machine took 75 s for that), and the screen
    is fed from the server's store either way."""

    def __init__(self, server):
        self.api = f"http://127.0.0.1:{server.port}/v0/{server.base}/OrderDrink"
        self.headers = {"Authorization": f"Bearer {server.token}", "Content-Type": "application/json"}
        with urllib.request.urlopen(urllib.request.Request(self.api + "?maxRecords=1", headers=self.headers)) as answer:
            self.template = json.load(answer)["records"][0]["fields"]
        for gone in ("preparingAt", "readyAt", "pickedUpAt", "audit"):
            self.template.pop(gone, None)
        self.today = datetime.date.fromisoformat(self.template["businessDay"])

    def create(self, orders, provisional=None):
        """`orders`: (number, business day, status, readyAt or None), written ten records a request;
        `provisional`: {number: n} for orders a counter kept as `Pn` while the store was away, then sent."""
        records = []
        for number, day, status, ready_at in orders:
            ref = f"ordCheck{day.replace('-', '')}{number:05d}"
            fields = dict(self.template, businessDay=day, pickupNumber=number, status=status, orderRef=ref,
                          ref=ref + "-1")
            if ready_at:
                fields["readyAt"] = ready_at
            if provisional and number in provisional:
                fields["provisionalNumber"] = provisional[number]
            records.append({"fields": fields})
        for start in range(0, len(records), 10):
            body = json.dumps({"records": records[start:start + 10]}).encode()
            request = urllib.request.Request(self.api, data=body, headers=self.headers, method="POST")
            with urllib.request.urlopen(request) as answer:
                answer.read()


def add_earlier_days_leftover(server, number):
    """Yesterday's uncollected cup: a ready order with pickup number `number` two business days back.
    Returns its day."""
    orders = ServedOrders(server)
    day = (orders.today - datetime.timedelta(days=2)).isoformat()
    orders.create([(number, day, "ready", f"{day}T20:00:00.000Z")])
    return day


def fill_the_evening(server, counter, board):
    """Adds orders until 60 are being made and 60 are ready. `board` is what the screen shows now (preparing,
    ready); numbers go on from the highest. The ready ones became ready in a shuffled order (so numeric and
    readiness order differ), and the last of them is readied at the counter, `advance` twice, so the newest
    ready is a middle number made newest by a real command. Three of them (one ready, one being made, the newest)
    were kept at a counter as P1, P2, P3 while the store was away. Returns (preparing, ready, newest ready,
    {number: "Pn"})."""
    preparing, ready = list(board[0]), list(board[1])
    first = max(preparing + ready) + 1
    new_numbers = list(range(first, first + (60 - len(ready)) + (60 - len(preparing))))
    to_ready = new_numbers[:60 - len(ready)]
    random.Random(22).shuffle(to_ready)
    newest = to_ready.pop(len(to_ready) // 2)
    earlier = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=30)
    ready_at = {n: (earlier + datetime.timedelta(seconds=i * 10)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
                for i, n in enumerate(to_ready)}
    orders = ServedOrders(server)
    day = orders.today.isoformat()
    made = [n for n in new_numbers if n not in ready_at and n != newest]
    provisional = {to_ready[0]: 1, made[len(made) // 2]: 2, newest: 3}
    orders.create([(n, day, "ready" if n in ready_at else "placed" if n % 3 else "preparing", ready_at.get(n))
                   for n in new_numbers if n != newest] + [(newest, day, "placed", None)], provisional)
    counter.type(f"advance #{newest}", "is now preparing")
    counter.type(f"advance #{newest}", "可取餐")
    preparing += made
    ready += list(ready_at) + [newest]
    return sorted(preparing), sorted(ready), newest, {n: f"P{p}" for n, p in provisional.items()}


def watch_a_cycle(tools, expected, newest, earlier, label, failures, renamed=None):
    """Samples the screen for one full paging cycle (the most pages any list has, times the page time, plus a
    margin) and checks everything expected was seen, in numeric order, and nothing was cut; and that each number
    of `renamed` ({number: "P1"}) was shown as `P1 → number` in the P numbers strip."""
    renamed = renamed or {}
    renamed_seen = {}
    first = read_visible(tools)
    pages = max(1, first["preparing"]["pages"], first["ready"]["pages"], first["earlier"]["pages"], first["renamed"]["pages"])
    cycle = pages * first["pageSeconds"]
    seen = {"preparing": set(), "ready": set(), "earlier": set()}
    unseen_in_page = 0
    newest_always = True
    out_of_order = []
    started = time.monotonic()
    shown = first
    while True:
        for name in seen:
            numbers = shown[name]["numbers"]
            seen[name].update(numbers)
            unseen_in_page = max(unseen_in_page, shown[name]["unseen"])
            if name != "earlier" and numbers != sorted(numbers):
                out_of_order.append((name, numbers))
        for number, text in zip(shown["renamed"]["numbers"], shown["renamed"]["labels"]):
            renamed_seen[number] = text
        unseen_in_page = max(unseen_in_page, shown["renamed"]["unseen"])
        if not (shown["newest"]["shown"] and shown["newest"]["number"] == newest):
            newest_always = False
        if time.monotonic() - started > cycle + 1.0:
            break
        time.sleep(0.25)
        shown = read_visible(tools)
    wanted = {"preparing": set(expected[0]), "ready": set(expected[1]), "earlier": set(earlier)}
    for name in seen:
        missing = sorted(wanted[name] - seen[name])
        extra = sorted(seen[name] - wanted[name])
        if missing:
            failures.append(f"{label}: {name} never showed {missing} in a {cycle} s cycle")
        if extra:
            failures.append(f"{label}: {name} showed {extra}, which do not belong there")
    if unseen_in_page:
        failures.append(f"{label}: {unseen_in_page} numbers of a page were cut off or covered")
    if out_of_order:
        failures.append(f"{label}: a page was not in numeric order: {out_of_order[0]}")
    if not newest_always:
        failures.append(f"{label}: the newest ready #{newest} was not on screen the whole cycle")
    for number, was in renamed.items():
        text = " ".join(renamed_seen.get(number, "").split())
        if text != f"{was} → {number}":
            failures.append(f"{label}: #{number}, first {was}, showed as {text!r}, not '{was} → {number}'")
    marks = ", ".join(f"{name} {first[name]['pages']} page(s) at {first[name]['font']}" for name in ("preparing", "ready"))
    print(f"   {label}: seen in one cycle ({pages} page(s) x {first['pageSeconds']} s = {cycle} s): "
          f"preparing {len(seen['preparing'] & wanted['preparing'])}/{len(wanted['preparing'])}, "
          f"ready {len(seen['ready'] & wanted['ready'])}/{len(wanted['ready'])}, "
          f"earlier {len(seen['earlier'] & wanted['earlier'])}/{len(wanted['earlier'])}; {marks}"
          + (f"; P numbers strip: {', '.join(' '.join(t.split()) for t in sorted(renamed_seen.values()))}" if renamed_seen else ""))


def set_screen(tools, width, height):
    tools.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
    time.sleep(0.5)


def check_newest(tools, newest, label, failures, was=None):
    shown = read_visible(tools)
    if was and " ".join(shown["newest"]["was"].split()) != f"{was} →":
        failures.append(f"{label}: the newest ready #{newest}, first {was}, does not show it (shows {shown['newest']})")
    if not shown["newest"]["shown"] or shown["newest"]["number"] != newest:
        failures.append(f"{label}: the newest ready #{newest} is not on screen (shows {shown['newest']})")
    elif not shown["newest"]["fresh"]:
        failures.append(f"{label}: the newest ready #{newest} does not stand out")
    else:
        print(f"   {label}: the newest ready #{newest} is on screen and highlighted"
              + (f" (and in the list: {shown['ready']['fresh']})" if shown["ready"]["fresh"] else ""))


def screenshot(tools, path):
    shot = tools.call("Page.captureScreenshot", format="png")
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))
    print(f"   screenshot: {path}")
