"""scripts/attack: probes of an attacker who reads the code. Every `probe_*.py` beside this file lists its probes
in PROBES: (name, title, function(ctx) -> (ok, figure, failures)). Each prints PASS or FAIL with what it tried;
the table goes to RELIABILITY.md; the exit status is non-zero if any probe failed."""
import argparse
import glob
import importlib
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, HERE)

import drinkshop_harness as harness  # noqa: E402


class Context:
    """What a probe needs: the binary, a scratch folder, the environment, and servers with token files."""

    def __init__(self, binary, workdir, env):
        self.binary = binary
        self.workdir = workdir
        self.env = env
        self.count = 0

    def path(self, name):
        self.count += 1
        return os.path.join(self.workdir, f"{self.count:03d}-{name}")

    def server(self, name, tokens=None, extra=(), env=None):
        """A started `drinkshop serve` on a new store. `tokens` maps each token to its grants (a token file's
        words, e.g. "read" or "data.records:read data.records:write"); the first is the server's own token."""
        db = self.path(name) + ".sqlite"
        arguments = list(extra)
        merged = dict(self.env)
        merged.update(env or {})
        if tokens:
            token_file = db + ".tokens"
            with open(token_file, "w") as handle:
                for token, grants in tokens.items():
                    handle.write(f"{token} {grants}\n")
            arguments += ["--tokens", token_file]
            first = next(iter(tokens))
            running = harness.Server(self.binary, db, token=first, extra=arguments, env=merged)
            running.env.pop("DRINKSHOP_API_TOKEN", None)
        else:
            running = harness.Server(self.binary, db, extra=arguments, env=merged)
        return running.start()


def load_probes():
    probes = []
    for path in sorted(glob.glob(os.path.join(HERE, "probe_*.py"))):
        module = importlib.import_module(os.path.splitext(os.path.basename(path))[0])
        probes.extend(module.PROBES)
    return probes


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", help="comma-separated probe names (or prefixes) to run")
    parser.add_argument("--no-report", action="store_true", help="do not rewrite RELIABILITY.md")
    parser.add_argument("--debug", action="store_true", help="use the debug build (quicker to build; no report)")
    args = parser.parse_args()
    only = args.only.split(",") if args.only else None

    bin_dir = harness.build("debug" if args.debug else "release")
    workdir = harness.temp_dir("drinkshop-attack-")
    env = dict(os.environ, HOME=workdir, XDG_STATE_HOME=workdir + "/state", NO_COLOR="1", DRINKSHOP_STAFF="attack",
               DRINKSHOP_SEEDS=os.path.join(harness.ROOT, "Seeds"))
    ctx = Context(os.path.join(bin_dir, "drinkshop"), workdir, env)
    results = []
    for name, title, run in load_probes():
        if only and not any(name.startswith(prefix) for prefix in only):
            continue
        started = time.time()
        try:
            ok, figure, failures = run(ctx)
        except Exception as error:  # a crashed probe is a failed probe, with its reason
            ok, figure, failures = False, f"the probe itself failed: {error!r}", []
        status = "PASS" if ok else "FAIL"
        print(f"{status} {name}: {title}: {figure} ({time.time() - started:.1f} s)", flush=True)
        for failure in failures[:10]:
            print(f"     - {failure}", flush=True)
        results.append((name, title, status, figure))
    shutil.rmtree(workdir, ignore_errors=True)
    failed = [r for r in results if r[2] != "PASS"]
    if not args.no_report and not only and not args.debug:
        lines = ["| probe | what the attacker tries | result | tries and figure |", "|---|---|---|---|"]
        lines += [f"| {n} | {t} | {s} | {f} |" for n, t, s, f in results]
        harness.write_section("RELIABILITY.md", "scripts/attack (the hostile suite)",
                              f"Run on {harness.machine_line()} with `scripts/attack/run`.\n\n" + "\n".join(lines))
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
