"""scripts/bench: DrinkShop's speed next to what an engineer would use instead, measured side by side in
one run. Prints each figure and writes them to BENCHMARKS.md. `--quick` is the CI-sized run."""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))

import archive_bench  # noqa: E402
import budget_bench  # noqa: E402
import client_bench  # noqa: E402
import counter_bench  # noqa: E402
import day_bench  # noqa: E402
import drinkshop_harness as harness  # noqa: E402
import server_bench  # noqa: E402
import year_bench  # noqa: E402


def _syncs(side):
    """`1.02 (perf: 0.91)`: a side's WAL syncs per commit under strace, and all its syncs per commit counted by perf."""
    untraced = side.get("syncs_untraced")
    return f"{side['syncs']:.2f}" + (f" (perf: {untraced:.2f})" if untraced is not None else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, no BENCHMARKS.md update")
    parser.add_argument("--only", help="comma-separated bench numbers")
    args = parser.parse_args()
    quick = args.quick
    only = set(args.only.split(",")) if args.only else None
    bin_dir = harness.build("release")
    workdir = harness.temp_dir("drinkshop-bench-")
    sections = []
    failed = []

    def bench(number, title, run, verdict, table):
        if only and str(number) not in only:
            return
        started = time.time()
        result = run()
        ok, summary = verdict(result)
        print(f"{'PASS' if ok else 'MISS'} {number}. {title}: {summary} ({time.time() - started:.0f} s)", flush=True)
        if not ok:
            failed.append(number)
        sections.append((number, title, ok, summary, table(result)))

    bench(1, "The Airtable client vs pyairtable",
          lambda: client_bench.crud(bin_dir, workdir, 400 if quick else 2_000, 4),
          lambda r: (r["ratio"] <= 0.5, f"DrinkShop {r['drinkshop_total']:.2f} s vs pyairtable {r['pyairtable_total']:.2f} s "
                                        f"for {r['records']} records: ratio {r['ratio']:.2f} (target <= 0.5)"),
          lambda r: [(f"{phase} ({r['records']} records, batches of 10)",
                      f"DrinkShop {r['drinkshop'][phase]:.2f} s · pyairtable {r['pyairtable'][phase]:.2f} s · "
                      f"ratio {r['drinkshop'][phase] / r['pyairtable'][phase]:.2f}")
                     for phase in ("create", "list", "update", "delete")]
                    + [("total", f"DrinkShop {r['drinkshop_total']:.2f} s · pyairtable {r['pyairtable_total']:.2f} s · "
                                  f"ratio {r['ratio']:.2f}"),
                       ("how", f"DrinkShop: AirtableClient with {r['concurrency']} concurrent tasks for the writes "
                               "(listing pages are sequential); pyairtable 3.5.1 as documented, one request at a time; "
                               f"each side ran {r['rounds']} times in turn, the median run counts (ratios of the "
                               f"rounds: {', '.join(f'{x:.2f}' for x in r['all_ratios'])})")])

    def seed_verdict(r):
        ours = r["drinkshop"]
        # No more writes than batches of ten need: a server that takes bigger batches (WriteBatchLimit) needs fewer.
        ok = ours["refused"] == 0 and ours["ratio"] <= 1.10 and 1 <= ours["writes"] <= r["batches"]
        return ok, (f"DrinkShop {ours['span']:.2f} s, {ours['requests']} requests, {ours['refused']} 429s, "
                    f"{ours['ratio']:.3f} of the least time the limit allows (target <= 1.10, no 429); pyairtable "
                    f"{r['pyairtable']['span']:.2f} s, {r['pyairtable']['requests']} requests, {r['pyairtable']['refused']} 429s")

    bench(2, "Seeding under the rate limit (--rate-limit 5)",
          lambda: client_bench.seed_rate_limited(bin_dir, workdir, 40 if quick else 300, 5),
          seed_verdict,
          lambda r: [(name, f"{f['span']:.2f} s first to last request ({f['wall']:.2f} s whole run); {f['requests']} requests "
                            f"({f['writes']} writes, {f['listings']} listings); {f['refused']} refused with 429; least time "
                            f"the limit allows {f['least']:.2f} s, ratio {f['ratio']:.3f}")
                     for name, f in (("DrinkShop (`drinkshop seed` over the client)", r["drinkshop"]),
                                     ("pyairtable (`all()` then `batch_upsert`)", r["pyairtable"]))]
                    + [("needed", f"at most {r['batches']} writes of 10 for {r['drinks']} drinks (fewer where the server takes "
                                  "bigger batches), plus one listing")])

    bench(3, "Server write path vs the store's limit",
          lambda: server_bench.write_path(bin_dir, workdir, 2_000 if quick else 10_000, 4),
          lambda r: (r["ratio"] >= 0.5, f"HTTP {r['http_records_per_second']:.0f} records/s vs in-process "
                                         f"{r['inprocess_records_per_second']:.0f} records/s: ratio {r['ratio']:.2f} (target >= 0.5)"),
          lambda r: [("records (10 per request / per transaction)", f"{r['records']}"),
                     ("HTTP, 4 concurrent clients", f"{r['http_seconds']:.2f} s, {r['http_records_per_second']:.0f} records/s"),
                     ("in-process LocalBase, same durability", f"{r['inprocess_seconds']:.2f} s, {r['inprocess_records_per_second']:.0f} records/s"),
                     ("ratio HTTP / in-process", f"{r['ratio']:.2f}")])

    bench(4, "The counter: piped orders vs the sqlite3 shell",
          lambda: counter_bench.run(os.path.join(bin_dir, "drinkshop"), 200 if quick else 1000),
          lambda r: (r["median_ratio"] <= 2 and r["drinkshop_p99_ms"] < 10,
                     f"median {r['drinkshop_median_ms']:.2f} ms vs {r['sqlite3_median_ms']:.2f} ms: ratio "
                     f"{r['median_ratio']:.2f} (target <= 2); p99 {r['drinkshop_p99_ms']:.2f} ms (target < 10)"),
          lambda r: [("orders", f"{r['orders']}"),
                     ("drinkshop per order, median / p99", f"{r['drinkshop_median_ms']:.2f} ms / {r['drinkshop_p99_ms']:.2f} ms"),
                     ("sqlite3 per row, median / p99", f"{r['sqlite3_median_ms']:.2f} ms / {r['sqlite3_p99_ms']:.2f} ms"),
                     ("ratio median / p99", f"{r['median_ratio']:.2f} / {r['p99_ratio']:.2f}")])

    bench(5, "Scale: 100,000 orders stored",
          lambda: server_bench.scale(bin_dir, workdir, 20_000 if quick else 100_000, 100, 10 if quick else 30),
          lambda r: (r["today_p50_ms"] < 50 and r["server_peak_rss_mb"] < 100,
                     f"today's {r['today_orders']} orders p50 {r['today_p50_ms']:.1f} ms (target < 50); all "
                     f"{r['all_records']} in {r['all_pages']} pages {r['all_seconds']:.1f} s; peak RSS "
                     f"{r['server_peak_rss_mb']:.0f} MB (target < 100)"),
          lambda r: [("orders stored", f"{r['orders']} over 100 days"),
                     ("today's orders via the shop's filter, p50 / max", f"{r['today_orders']} orders, "
                      f"{r['today_p50_ms']:.1f} ms / {r['today_max_ms']:.1f} ms"),
                     ("every order by pages of 100", f"{r['all_records']} records, {r['all_pages']} pages, {r['all_seconds']:.2f} s"),
                     ("server peak RSS", f"{r['server_peak_rss_mb']:.1f} MB")])

    def budget_run():
        # The full run repeats the shared scenario three times (the machine is shared, so one round can
        # meet someone else's build); the median round by ratio counts, every round is listed.
        rounds = [budget_bench.one_budget(bin_dir, workdir, 5 if quick else 20, 5 if quick else 25, round=n)
                  for n in range(1 if quick else 3)]
        rounds.sort(key=lambda r: r["ratio"] or 0)
        shared = dict(rounds[len(rounds) // 2])
        shared["all_ratios"] = [r["ratio"] for r in rounds]
        shared["all_excess"] = sum(r["excess"] for r in rounds)
        shared["all_429"] = sum(r["status_429"] for r in rounds)
        alone = None if quick else budget_bench.one_budget(bin_dir, workdir, 20, 25, shared=False)
        return {"shared": shared, "alone": alone}

    def budget_verdict(r):
        s = r["shared"]
        ok = (s["all_excess"] == 0 and s["all_429"] == 0 and (s["ratio"] or 0) <= 1.2
              and s["stored_orders"] == s["expected"])
        return ok, (f"{s['requests']} requests from {s['loop_orders']} one-shot orders and two REPLs taking "
                    f"{s['repl_orders']}: {s['excess']} over the bucket, {s['status_429']} 429s, {s['span']:.2f} s against "
                    f"the least {s['least']:.2f} s the limit allows: ratio {s['ratio']:.2f} (target 0 excess, 0 429s, "
                    f"<= 1.2; the median of {len(s['all_ratios'])} rounds: "
                    f"{', '.join(f'{x:.2f}' for x in s['all_ratios'])}, {s['all_excess']} over the bucket and {s['all_429']} "
                    f"429s in all); {s['stored_orders']} of {s['expected']} orders stored")

    def budget_rows(r):
        rows = []
        for name, s in (("one budget per base (shared pacing file)", r["shared"]),
                        ("peer: each process paces itself (as before)", r["alone"])):
            if s is None:
                continue
            rows.append((name, f"{s['requests']} requests, {s['excess']} over the bucket, {s['status_429']} answered 429; "
                               f"{s['span']:.2f} s first to last request ({s['wall']:.2f} s whole run), least {s['least']:.2f} s, "
                               f"ratio {s['ratio']:.2f}; orders the counters reported placed (outbox included) {s['placed']} of "
                               f"{s['expected']}, in the base at the end {s['stored_orders']}; requests by table: "
                               + ", ".join(f"{k} {v}" for k, v in s["by_table"].items())))
        rows.append(("how", "`drinkshop serve --rate-limit 5` (bucket of 5, 5/s, 30 s penalty) behind "
                            "scripts/lib/recording_proxy.py (the same bucket, counting requests that find it empty); "
                            "a bash loop of one-shot `drinkshop order`s beside two piped REPLs, all with "
                            "AIRTABLE_ENDPOINT_URL at the proxy and one XDG_STATE_HOME (the peer: one each)"))
        return rows

    bench(6, "One rate budget per base on one machine", budget_run, budget_verdict, budget_rows)

    def per_command_verdict(r):
        day = r["day"] * 300 / r["day_orders"]
        gateway = r["gateway_day"] * 300 / r["gateway_day_orders"]
        airtable = r["airtable_day"] * 300 / r["airtable_day_orders"]
        spread = r.get("spread_day", 0) * 300 / r.get("spread_day_orders", 300)
        ok = (max(r["order"]) <= 3 and max(r["advance (full day)"] + r["edit (full day)"] + r["cancel (full day)"]) <= 2
              and statistics.mean(r["warm REPL order"]) <= 2 and day <= 2500 and airtable <= 2500 and gateway <= 1500
              and spread <= 1500)
        return ok, (f"one-shot order {budget_bench.median(r['order']):.0f} (target <= 3); advance/edit/cancel on a "
                    f"{r['day_orders']}-order day {r['advance (full day)'][0]}/{r['edit (full day)'][0]}/"
                    f"{r['cancel (full day)'][0]} (target 2); warm REPL order {statistics.mean(r['warm REPL order']):.1f} on average, "
                    f"{max(r['warm REPL order'])} at most (target <= 2); "
                    f"a 300-order paid day {day:,.0f} requests on serve, {airtable:,.0f} on an Airtable-like base "
                    f"(target <= 2,500), through the gateway for three counters {gateway:,.0f} upstream at once"
                    + (f" and {spread:,.0f} spread over a day (scaled)" if "spread_day" in r else "")
                    + " (target <= 1,500)")

    def per_command_rows(r):
        scale = 300 / r["day_orders"]
        day = r["day"] * scale
        rows = [("one-shot `order`", f"{', '.join(map(str, r['order']))} requests (target <= 3): "
                                     + ", ".join(r["order_requests"])),
                ("one-shot `orders`", f"{', '.join(map(str, r['orders']))} on a small day, "
                                      f"{r['orders (full day)'][0]} on a {r['day_orders']}-order day")]
        for command in ("advance", "edit", "cancel"):
            rows.append((f"one-shot `{command} #N`", f"{r[command + ' (small day)'][0]} on a small day, "
                                                     f"{r[command + ' (full day)'][0]} on a {r['day_orders']}-order day (target 2)"))
        for command, label, note in (("pay", "one-shot `pay #N cash`", "the order's read, the open shift's, the till's copy and the payment: on `drinkshop serve`, which keeps payment keys unique and refuses a payment for a cancelled order in its commit, no ledger or status read; over Airtable the claim rule adds the ledger's read-back, which also finds a cancel's mark: no status read"),
                                     ("void", "one-shot `void #N REASON`, unpaid", "the order's read and one write"),
                                     ("void paid", "one-shot `void #N REASON`, paid", "the read, the ledger and the bill, the refund, the order, the ledger again")):
            rows.append((label, f"{r[command + ' (small day)'][0]} on a small day, "
                                f"{r[command + ' (full day)'][0]} on a {r['day_orders']}-order day ({note})"))
        warm = r["warm REPL order"]
        rows.append(("warm REPL order", f"{statistics.mean(warm):.2f} requests on average, {min(warm)} to {max(warm)} "
                                        f"(target <= 2): {warm.count(min(warm))} of {len(warm)} orders took {min(warm)}; "
                                        "on `drinkshop serve` a REPL claims each pickup number by one create (the server "
                                        "keeps ticket keys unique), so an order is that create and its lines"))
        rows.append((f"a {r['day_orders']}-order day from the REPL (each order placed, viewed once with `orders`, "
                     "paid by card, advanced three times: issue 37's day)",
                     f"{r['day']:,} requests" + (f", {day:,.0f} scaled to 300 orders" if scale != 1 else "")
                     + " (target <= 2,500); the bench runs the day in "
                     f"{r['day_seconds']:.0f} s, so the reads that come with time, not orders (the settings and staff, "
                     "the menu) are hardly in this figure: see the month below the table"))
        rows.append(("the day's requests by table", ", ".join(f"{k} {v}" for k, v in r["day_by_table"].items())))
        rows.append(("thirty such days, the orders alone", f"about {day * 30:,.0f} calls (Team plan quota 100,000, Free 1,000)"))
        airtable = r["airtable_day"] * 300 / r["airtable_day_orders"]
        rows.append((f"the same day against `serve --like-airtable` ({r['airtable_day_orders']} orders; the counter "
                     "keeps Airtable's claim rule: what the day costs on an Airtable base)",
                     f"{r['airtable_day']:,} requests" + (f", {airtable:,.0f} scaled to 300 orders"
                                                         if r["airtable_day_orders"] != 300 else "")
                     + " (target <= 2,500); by table: " + ", ".join(f"{k} {v}" for k, v in r["airtable_day_by_table"].items())))
        gateway = r["gateway_day"] * 300 / r["gateway_day_orders"]
        rows.append((f"the same day shared by three counters through the gateway ({r['gateway_day_orders']} orders, "
                     "all three at once; `serve --upstream` in front of `serve --like-airtable`, so the counters keep "
                     "Airtable's claim rule)",
                     f"{r['gateway_day']:,} upstream calls" + (f", {gateway:,.0f} scaled to 300 orders"
                                                             if r["gateway_day_orders"] != 300 else "")
                     + f" (target <= 1,500) in {r['gateway_day_seconds']:.0f} s; by table: "
                     + ", ".join(f"{k} {v}" for k, v in r["gateway_day_by_table"].items())))
        if "spread_day" in r:
            hours = 12
            rows.append((f"the same day spread as a real one: three counters, {r['spread_day_orders']} orders at random moments of a "
                         f"{hours}-hour day, each paid at once and advanced 1, 3 and 5 minutes later, played "
                         f"{r['spread_scale']:.0f} times faster ({r['spread_day_seconds']:.0f} s) with the gateway's hold "
                         f"({r['spread_hold'] * r['spread_scale']:.0f} s), checks (600 s), the cache's refills (3,600 s) "
                         "and the copy's (a day) scaled alike",
                         f"{r['spread_day']:,} upstream calls (target <= 1,500), the reads that come with time included; "
                         "by table: " + ", ".join(f"{k} {v}" for k, v in r["spread_day_by_table"].items())))
        rows.append(("how", "recording proxy in front of `drinkshop serve` (no limit), counters at AIRTABLE_RATE_LIMIT=1000 "
                            "so only the count matters; every gateway day is counted once the gateway has stopped (it "
                            "sends what it holds as it stops) and the base is then read directly: every order there, "
                            "picked up and paid, or the bench fails"))
        return rows

    def requests_and_gateway():
        figures = budget_bench.requests_per_command(bin_dir, workdir, 30 if quick else 300)
        figures.update(budget_bench.airtable_day(bin_dir, workdir, 30 if quick else 300))
        figures.update(budget_bench.gateway_day(bin_dir, workdir, 10 if quick else 100))
        if not quick:
            # A 12-hour day played 120 times faster: 360 s, the gateway's 300-second hold as 2.5 s.
            spread = budget_bench.gateway_day(bin_dir, workdir, 100, spread=360, hold=2.5, name="gateway-spread-day")
            figures.update({"spread_" + key[len("gateway_"):]: value for key, value in spread.items()})
            figures.update(spread_scale=120, spread_hold=2.5)
        return figures

    bench(7, "Requests per command", requests_and_gateway,
          per_command_verdict, per_command_rows)

    bench(8, "A busy day: 1,000 piped orders, then advance/edit/cancel with 1,000 orders today",
          # The quick run keeps the 1,000 orders (about 2 s): with fewer, the process's fixed start and
          # finish (about 25 ms against the shell's 2 ms) weigh more than the measure means.
          lambda: day_bench.run(os.path.join(bin_dir, "drinkshop"), 1000, 30 if quick else 100,
                                rounds=2 if quick else 5),
          # Issue 37's target: 1.5 by the ratio of the medians and by that of the fastest rounds.
          lambda r: (r["ratio"] <= 1.5 and r["fastest_ratio"] <= 1.5
                     and max(r["advance_p50_ms"], r["edit_p50_ms"], r["cancel_p50_ms"]) < 10,
                     f"{r['orders']} piped orders {r['drinkshop_seconds']:.2f} s vs sqlite3 {r['sqlite3_seconds']:.2f} s: "
                     f"ratio of medians {r['ratio']:.2f}, of the fastest rounds {r['fastest_ratio']:.2f} (target <= 1.5 "
                     f"both); p50 advance {r['advance_p50_ms']:.1f} ms, edit "
                     f"{r['edit_p50_ms']:.1f} ms, cancel {r['cancel_p50_ms']:.1f} ms (target < 10)"),
          lambda r: [("whole process, 1 drinkshop vs 1 sqlite3 shell", f"{r['drinkshop_seconds']:.2f} s vs "
                      f"{r['sqlite3_seconds']:.2f} s ({r['orders']} orders / durable single-row transactions), ratio {r['ratio']:.2f}"),
                     ("ratio of the fastest rounds", f"{r['fastest_ratio']:.2f}"),
                     ("WAL pages per commit (one more round of each under strace)",
                      "not measured (no strace)" if not r["pages_per_commit"] else
                      f"drinkshop {r['pages_per_commit']['drinkshop']['pages']:.1f}, sqlite3 {r['pages_per_commit']['sqlite3']['pages']:.1f}"),
                     ("WAL syncs per commit (under strace; then every fdatasync/fsync counted by perf, which slows nothing)",
                      "not measured (no strace)" if not r["pages_per_commit"] else
                      "drinkshop " + _syncs(r["pages_per_commit"]["drinkshop"]) + ", sqlite3 " + _syncs(r["pages_per_commit"]["sqlite3"])
                      + "; a piped REPL acknowledges each order after a WAL sync that began after its commit, made on a thread "
                        "of its own while the next line is worked out (scripts/faults item 23)"),
                     ("rounds (each side one process from a new file made beforehand, untimed; alternating; medians above)",
                      f"{r['rounds']}: drinkshop {r['drinkshop_range'][0]:.2f}–{r['drinkshop_range'][1]:.2f} s, "
                      f"sqlite3 {r['sqlite3_range'][0]:.2f}–{r['sqlite3_range'][1]:.2f} s"),
                     ("advance p50 / p99", f"{r['advance_p50_ms']:.1f} ms / {r['advance_p99_ms']:.1f} ms ({r['each']} orders)"),
                     ("edit p50 / p99", f"{r['edit_p50_ms']:.1f} ms / {r['edit_p99_ms']:.1f} ms"),
                     ("cancel p50 / p99", f"{r['cancel_p50_ms']:.1f} ms / {r['cancel_p99_ms']:.1f} ms (includes the audit entry)"),
                     ("requests on a remote base", "advance, edit, cancel and void 2 each (one filtered read, one write "
                      "carrying the audit entry); held by RequestCountTests and BusinessDayTests.findingOneOrderIsOneFilteredRead…")])

    bench(9, "Archiving a closed day", lambda: archive_bench.run(bin_dir, workdir, 30 if quick else 300),
          archive_bench.verdict, archive_bench.rows)

    # The quick form keeps the same code on 1-, 3- and 10-day stores of 30-order days (well under a minute).
    bench(10, "A year on one machine: 1, 30 and 365 days stored",
          lambda: year_bench.run(bin_dir, workdir, (1, 3, 10) if quick else (1, 30, 365), 30 if quick else 300,
                                 rounds=3 if quick else 5, advances=10 if quick else 20),
          year_bench.verdict, year_bench.table)

    bench(11, "Seeding 2,000 drinks over HTTP vs pyairtable's batch_upsert",
          lambda: client_bench.seed_unlimited(bin_dir, workdir, 300 if quick else 2_000, rounds=1 if quick else 3),
          lambda r: (r["ratio"] <= 0.45, f"DrinkShop {r['drinkshop']:.2f} s vs pyairtable {r['pyairtable']:.2f} s for "
                                         f"{r['drinks']} drinks: ratio {r['ratio']:.2f}, fastest rounds {r['fastest_ratio']:.2f} "
                                         "(target <= 0.45)"),
          lambda r: [("DrinkShop (`drinkshop seed` over the client, to `drinkshop serve`)",
                      f"{r['drinkshop']:.2f} s median ({r['drinkshop_range'][0]:.2f}–{r['drinkshop_range'][1]:.2f} s), "
                      f"{r['requests']['drinkshop']} requests"),
                     ("pyairtable (`all()` then `batch_upsert`, typecast, merged on name)",
                      f"{r['pyairtable']:.2f} s median ({r['pyairtable_range'][0]:.2f}–{r['pyairtable_range'][1]:.2f} s), "
                      f"{r['requests']['pyairtable']} requests"),
                     ("rounds", f"{r['rounds']}, alternating, each side on a new server and store; ratios of the rounds: "
                                + ", ".join(f"{x:.2f}" for x in r["round_ratios"]))])

    if not quick:
        for number, title, ok, summary, rows in sections:
            body = [f"Run on {harness.machine_line()} with `scripts/bench/run --only {number}` (part of `scripts/bench/run`).",
                    "", f"**{'Target met' if ok else 'Target missed'}:** {summary}", ""]
            # A bench may give its own Markdown table (bench 10's columns are the store's sizes).
            if isinstance(rows, str):
                body.append(rows)
            else:
                body += ["| measure | figure |", "|---|---|"] + [f"| {name} | {value} |" for name, value in rows]
            harness.write_section("BENCHMARKS.md", f"{number}. {title}", "\n".join(body))
    print(f"{len(sections) - len(failed)} of {len(sections)} benchmarks met their targets"
          + (" (quick sizes: the targets are judged on the full run)" if quick else ""))
    # A quick run checks that every bench runs end to end; its small sizes do not decide the targets.
    return 1 if failed and not quick else 0


if __name__ == "__main__":
    sys.exit(main())
