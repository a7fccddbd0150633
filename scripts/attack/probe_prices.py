"""Probes of the prices the customers' pages quote: with a pair promotion running (the seeds' 第二杯半價, or
熟成紅茶買一送一 in its week), the drink page quoted a line without the promotion the group page then took off
the total, so a customer saw one price for a drink, another beside it in the group, and paid a third. Each line
is quoted from the drink page as its script would show it (its table `data-prices`, or before it existed, the
choices' `data-price` sum), added, and then looked for on the group page, whose lines must show the quoted
prices and add up to its total."""
import html
import json
import re
import urllib.parse

from probe_pages import open_shop, start_group


def quoted(form, size, add_ons, cups):
    """What the drink page's script shows for this choice."""
    table = re.search(r'data-prices="([^"]*)"', form)
    if table:
        entry = json.loads(html.unescape(table.group(1)))[size][",".join(add_ons)][cups - 1]
        return entry[0] if isinstance(entry, list) else entry
    # Before the server priced every choice: the script summed the inputs' data-price, times cups.
    cup = int(re.search(r'name="size" value="%s"[^>]*data-price="(\d+)"' % size, form).group(1))
    for add_on in add_ons:
        cup += int(re.search(r'name="addon" value="%s"[^>]*data-price="(\d+)"' % add_on, form).group(1))
    return cup * cups


def shown_lines(page):
    """Each line's price on the group page (after any struck-through price before the promotion), and the total."""
    lines = [int(amount) for amount in
             re.findall(r'<div class="amount">(?:<s class="was">[^<]*</s> )?\$(\d+)</div>', page)]
    total = re.search(r'id="total">\$(\d+)<', page)
    return lines, int(total.group(1)) if total else None


def promoted_line_price(ctx):
    """Three lines of 熟成紅茶 while a pair promotion runs: each quoted by the drink page, then shown by the group page."""
    server = open_shop(ctx, "prices")
    failures, quotes = [], []
    try:
        amy, group = start_group(server)
        drink = group + "/drink?d=" + urllib.parse.quote("熟成紅茶")
        for size, add_ons, cups in [("大杯", [], 1), ("中杯", ["加白玉"], 2), ("中杯", [], 1)]:
            status, form, _ = amy.get(drink)
            if status != 200:
                raise RuntimeError(f"the drink page answered {status}")
            quotes.append(quoted(form, size, add_ons, cups))
            fields = [("drink", "熟成紅茶"), ("size", size), ("ice", "少冰"), ("sugar", "半糖"), ("cups", str(cups))]
            status, _, _ = amy.post(group + "/lines", fields + [("addon", add_on) for add_on in add_ons])
            if status != 303:
                raise RuntimeError(f"adding {size} {add_ons} × {cups} answered {status}")
        _, page, _ = amy.get(group)
        lines, total = shown_lines(page)
        if lines != quotes:
            failures.append(f"the drink page quoted {quotes}, the group page shows the lines at {lines}")
        if total != sum(lines):
            failures.append(f"the group page's lines add up to ${sum(lines)}, its total says ${total}")
    finally:
        server.stop()
    return not failures, f"3 lines quoted {quotes}, {len(failures)} disagreements with the group page", failures


PROBES = [
    ("prices_promoted_line", "a drink quoted without the pair promotion the group page then takes off (第二杯半價)",
     promoted_line_price),
]
