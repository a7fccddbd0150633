"""scripts/faults: what DrinkShop survives. Each item prints PASS or FAIL with its figure; the figures go to
RELIABILITY.md; the exit status is non-zero if any item failed. `--quick` is the CI-sized run."""
import argparse
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))

import auth_and_http  # noqa: E402
import backups  # noqa: E402
import bad_input  # noqa: E402
import crash  # noqa: E402
import durable_acks  # noqa: E402
import held_writes  # noqa: E402
import drinkshop_harness as harness  # noqa: E402
import groups  # noqa: E402
import hooks_and_printers  # noqa: E402
import lost_answers  # noqa: E402
import money  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="the small run CI does")
    parser.add_argument("--only", help="comma-separated item numbers to run")
    parser.add_argument("--no-report", action="store_true", help="do not rewrite RELIABILITY.md")
    parser.add_argument("--debug", action="store_true", help="use the debug build (quicker to build; no report)")
    args = parser.parse_args()
    quick = args.quick
    only = set(args.only.split(",")) if args.only else None

    bin_dir = harness.build("debug" if args.debug else "release")
    binary = os.path.join(bin_dir, "drinkshop")
    workdir = harness.temp_dir("drinkshop-faults-")
    env = dict(os.environ, HOME=workdir, XDG_STATE_HOME=workdir + "/state", NO_COLOR="1", DRINKSHOP_STAFF="faults",
               DRINKSHOP_SEEDS=os.path.join(harness.ROOT, "Seeds"))
    results = []

    def item(number, title, run):
        if only and str(number) not in only:
            return
        started = time.time()
        try:
            ok, figure, failures = run()
        except Exception as error:  # a crashed check is a failed check, with its reason
            ok, figure, failures = False, f"the check itself failed: {error!r}", []
        status = "PASS" if ok else "FAIL"
        print(f"{status} {number}. {title}: {figure} ({time.time() - started:.0f} s)", flush=True)
        for failure in failures[:10]:
            print(f"     - {failure}", flush=True)
        results.append((number, title, status, figure))

    def server(name, extra=(), tokens=None):
        db = os.path.join(workdir, name + ".sqlite")
        return lambda: harness.Server(binary, db, extra=extra, env=env)

    # 1. Crash
    item(1, "Crash: kill -9 under load", lambda: crash.run(server("crash"), kills=3 if quick else 20))

    # 2. Lost responses
    item(2, "Lost responses", lambda: lost_answers.lost_answers(binary, server("lost"), workdir, env,
                                                                  200 if quick else 1000))

    # 3. Backend down
    item(3, "Backend down", lambda: lost_answers.backend_down(binary, server("down"), workdir, env,
                                                                60 if quick else 500, 5 if quick else 30))

    # 4. HTTP fuzz
    def fuzz():
        running = server("fuzz")().start()
        try:
            return auth_and_http.fuzz(running, 4_000 if quick else 100_000)
        finally:
            running.stop()
    item(4, "HTTP fuzz", fuzz)

    # 5. Slow clients
    def slow():
        running = server("slow")().start()
        try:
            return auth_and_http.slow_clients(running, 200, 10 if quick else 60)
        finally:
            running.stop()
    item(5, "Slow clients", slow)

    # 6. Bad input
    item(6, "Bad input", lambda: bad_input.run(binary, workdir, env))

    # 7. Auth
    def auth():
        write_token, read_token = "patFAULTSWRITE000000001", "patFAULTSREAD0000000002"
        orders_token = "patFAULTSORDERS00000003"
        token_file = os.path.join(workdir, "tokens")
        with open(token_file, "w") as handle:
            handle.write(f"{write_token} read-write\n{read_token} read\n{orders_token} data.records:read data.records:write\n")
        running = harness.Server(binary, os.path.join(workdir, "auth.sqlite"), token=write_token,
                                 extra=["--tokens", token_file], env={k: v for k, v in env.items()})
        running.env.pop("DRINKSHOP_API_TOKEN", None)
        running.start()
        try:
            return auth_and_http.auth(running, read_token, write_token, orders_token)
        finally:
            running.stop()
    item(7, "Auth", auth)

    # 8. A closed output and log
    item(8, "Closed output", lambda: auth_and_http.closed_output(binary, os.path.join(workdir, "closed.sqlite"), env))

    # 9. One address holding connections
    def screen():
        running = server("screen")().start()
        try:
            return auth_and_http.screen_beside_idle(running, 100 if quick else 500)
        finally:
            running.stop()
    item(9, "Screen beside idle connections", screen)

    # 10. Names
    def names():
        running = server("names")().start()
        try:
            return auth_and_http.names(running)
        finally:
            running.stop()
    item(10, "Names", names)

    # 11. Webhooks as Airtable allows them, and a write's cost beside 10 of the largest
    def hooks():
        db = os.path.join(workdir, "hooks.sqlite")
        return hooks_and_printers.webhooks(lambda extra: harness.Server(binary, db, extra=extra, env=env), binary, db,
                                           env, 5 if quick else 15)
    item(11, "Webhooks", hooks)

    # 12. A label printer that is a FIFO nobody reads
    item(12, "Printer FIFO without a reader", lambda: hooks_and_printers.printer_fifo(binary, workdir, env))

    # 13. Counters paying one order at the same instant, on the store file and through drinkshop serve
    item(13, "Paying at once", lambda: money.paying_at_once(binary, workdir, env, 5 if quick else 20, 4 if quick else 8))

    # 14. kill -9 at every fdatasync of each money command, judged by check --books
    item(14, "Money commands killed at every fdatasync", lambda: money.kill_at_every_fdatasync(binary, workdir, env, 40))

    # 15. A randomized day from three processes, with kills, the books checked after every step
    item(15, "A randomized day with kills", lambda: money.randomized_day(binary, workdir, env, 20 if quick else 120))

    # 16. A burst of wrong PINs from many processes at once
    item(16, "PIN burst", lambda: money.pin_burst(binary, workdir, env))

    # 17-20. Backups that restore
    item(17, "Backup killed at every fsync", lambda: backups.killed_at_every_fsync(binary, workdir, env))
    item(18, "Backup onto a full disk", lambda: backups.full_disk(binary, workdir, env))
    item(19, "Restore on another machine's folder, the next day there",
         lambda: backups.restore_elsewhere_next_day(binary, workdir, env))
    item(20, "Backup while three counters place orders",
         lambda: backups.during_three_counters(binary, workdir, env, 4 if quick else 15))

    # 21. A group order (揪團) open or being sent when drinkshop serve is killed
    item(21, "Groups through kill -9", lambda: groups.killed_mid_send(binary, workdir, env, 4 if quick else 8))

    # 22. A payment and a void at the same instant over a base like Airtable (the cancel mark)
    item(22, "Paying and voiding at once over an Airtable-like base",
         lambda: money.paying_and_voiding_at_once(binary, workdir, env, 6 if quick else 20))

    # 23. A piped REPL acknowledges an order only once its commit is on the disk (its syncs are its own)
    item(23, "Piped acknowledgements wait for the disk", lambda: durable_acks.run(binary, workdir, env, 3 if quick else 10))

    # 24. A gateway holding order updates, killed: nothing a counter was told of is lost
    item(24, "A gateway killed while it holds writes", lambda: held_writes.run(binary, workdir, env, 2 if quick else 6))

    shutil.rmtree(workdir, ignore_errors=True)
    failed = [r for r in results if r[2] != "PASS"]
    if not args.no_report and not quick and not only and not args.debug:
        lines = ["| # | item | result | figure |", "|---|---|---|---|"]
        lines += [f"| {n} | {t} | {s} | {f} |" for n, t, s, f in results]
        harness.write_section("RELIABILITY.md", "scripts/faults (full run)",
                              f"Run on {harness.machine_line()} with `scripts/faults/run`.\n\n" + "\n".join(lines))
    print(f"{len(results) - len(failed)} of {len(results)} fault items passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
