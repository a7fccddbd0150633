"""Probes of the 統一發票 in the day's books (issue 36): `report` shows the day's and the period's invoices, adding
up, as text and JSON; and a counter is told, after the payment that brings the numbers left below a day's sales,
what to import; a shop without a seller sees neither."""
import datetime
import json
import subprocess

QR_KEY = "0123456789ABCDEF0123456789ABCDEF"


def period_code(day):
    return "%03d%02d" % (day.year - 1911, day.month + day.month % 2)


def session(ctx, db, lines, create=False):
    """A piped counter session on store file `db`: what it printed (stdout and stderr together)."""
    args = [ctx.binary, "--db", db] + (["--create"] if create else []) + ["--staff", "Mia"]
    done = subprocess.run(args, input="\n".join(lines) + "\nquit\n", capture_output=True, text=True, env=ctx.env,
                          timeout=300)
    return done.stdout + done.stderr


def probe_report_shows_invoices_and_numbers_run_low(ctx):
    failures = []
    period = period_code(datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=8))))
    db = ctx.path("invoices") + ".sqlite"
    setup = session(ctx, db, ["einvoice seller 12345675 可不可熟成紅茶台北店 --address 台北市中正區忠孝西路一段1號 "
                              f"--qr-key {QR_KEY}", f"einvoice track {period} AB 00000000-00000049"], create=True)
    if "Imported" not in setup:
        return (False, "the shop could not be set up", [setup[-600:]])
    sales = []
    for number in range(1, 27):
        sales += ["order 熟成紅茶 M 無糖 去冰", f"pay #{number} card"]
    paid = session(ctx, db, sales + ["cancel #1 spilled", "report", "report --json"])
    warned = paid.count("invoice numbers left")
    # 50 numbers, 26 issued today: 24 left, below a day's sales after the 26th payment; told once.
    if warned != 1 or f"Only 24 invoice numbers left for {period}" not in paid:
        failures.append(f"the low-numbers warning was told {warned} times (want once, after the 26th payment)")
    if "Invoices (統一發票)" not in paid:
        failures.append("report shows no invoice section")
    data = None
    for line in paid.splitlines():
        if line.startswith("{\"sales\""):
            data = json.loads(line)
    invoices = (data or {}).get("invoices")
    if not invoices:
        failures.append("report --json has no invoices")
    else:
        day = invoices["days"]
        net = day["issued"]["amount"] - day["voided"]["amount"] - day["allowances"]["amount"]
        if day["issued"]["count"] != 26 or day["voided"]["count"] != 1 or net != day["net"]["amount"]:
            failures.append(f"the day's invoices do not add up: {day}")
        if invoices["period"]["numbersLeft"] != 24:
            failures.append(f"numbers left {invoices['period']['numbersLeft']}, want 24")
    plain = session(ctx, ctx.path("plain") + ".sqlite", ["order 熟成紅茶 M 無糖 去冰", "pay #1 card", "report", "report --json"],
                    create=True)
    if "統一發票" in plain or "\"invoices\"" in plain or "invoice numbers left" in plain:
        failures.append("a shop without a seller sees invoice lines in its report")
    figure = f"warned {warned} time(s) over 26 sales of 50 numbers; report invoices: {'yes' if invoices else 'no'}"
    return (not failures, figure, failures)


PROBES = [
    ("invoice_books", "report shows the invoices; the low-numbers warning at the counter", probe_report_shows_invoices_and_numbers_run_low),
]
