"""Item 23: a piped REPL on the embedded store acknowledges an order only once its commit is on the disk.

Piped, the REPL's commits do not wait for the disk themselves (SQLite's synchronous=NORMAL): a thread of its own
syncs the WAL and only then writes the acknowledgements, while the next line is worked out. Checked three ways:
- under strace, every order's acknowledgement (`取餐號 #N` on standard output) is written after an fdatasync of
  the WAL that began after that order's commit frame was written, and ended before the acknowledgement;
- killed with -9 at its Nth fdatasync, the store keeps every order acknowledged, numbered as the input's prefix;
- an fdatasync that fails (EIO) stops the acknowledgements with one error and exit status 1: no order after it
  is acknowledged.
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
from counter_bench import ORDERS  # noqa: E402

TICKET = re.compile(r"取餐號 #(\d+)")


def _lines(count):
    return "".join(f"order {d} {s} {g} {i} for guest{n}\n"
                   for n, (d, s, g, i) in enumerate(ORDERS[k % len(ORDERS)] for k in range(count)))


def _fresh(binary, workdir, env, name):
    db = os.path.join(workdir, name + ".sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    subprocess.run([binary, "--db", db, "--create", "menu"], env=env, check=True, capture_output=True, timeout=60)
    return db


def _stored_numbers(binary, db, env):
    listed = subprocess.run([binary, "--db", db, "orders"], env=env, capture_output=True, text=True, timeout=60)
    if listed.returncode != 0:
        raise RuntimeError("orders failed: " + listed.stderr.strip()[:200])
    return sorted(int(m.group(1)) for m in re.finditer(r"^\s*(\d+)\s+\S+ placed", listed.stdout, re.M))


def _decode(text):
    """strace's -xx string (\\x41\\x42…) as text."""
    return bytes.fromhex(text.replace("\\x", "")).decode("utf-8", errors="replace")


def acknowledged_after_sync(binary, workdir, env, count=60):
    """Returns (ok, figure, failures) for the strace ordering check."""
    db = _fresh(binary, workdir, env, "acks")
    trace = os.path.join(workdir, "acks.strace")
    done = subprocess.run(["strace", "-f", "-xx", "-s", "96", "-y", "-o", trace,
                           "-e", "trace=pwrite64,fdatasync,fsync,write", binary, "--db", db],
                          input=_lines(count).encode(), env=env, capture_output=True, timeout=300)
    if done.returncode != 0:
        return False, "the piped REPL failed: " + done.stderr.decode(errors="replace")[:200], []
    events = []  # (kind, detail) in the trace's order: commit, sync-start, sync-end, ack
    pending = {}  # pid -> the call left unfinished (a sync, or the write of a commit frame)
    for raw in open(trace, encoding="utf-8", errors="replace"):
        pid = raw.split(" ", 1)[0]
        line = _decode_paths(raw)
        if "resumed>" in line:
            kind = pending.pop(pid, None)
            if kind == "sync":
                events.append(("sync-end", None))
            elif kind == "commit":
                events.append(("commit", None))
            continue
        unfinished = "<unfinished" in line
        if re.match(r"^\d+\s+f(data)?sync\(", line) and "-wal>" in line:
            events.append(("sync-start", None))
            if unfinished:
                pending[pid] = "sync"
            else:
                events.append(("sync-end", None))
        elif re.match(r"^\d+\s+pwrite64\(", line) and "-wal>" in line:
            match = re.search(r'pwrite64\(\d+<[^>]*>, "((?:\\x[0-9a-f]{2})+)", 24,', line)
            if match and int.from_bytes(bytes.fromhex(match.group(1).replace("\\x", ""))[4:8], "big") != 0:
                if unfinished:
                    pending[pid] = "commit"
                else:
                    events.append(("commit", None))
        elif re.match(r"^\d+\s+write\(1<", line):
            match = re.search(r'write\(1<[^>]*>, "((?:\\x[0-9a-f]{2})+)"', line)
            ticket = TICKET.search(_decode(match.group(1))) if match else None
            if ticket:
                events.append(("ack", int(ticket.group(1))))
    commits = [i for i, (kind, _) in enumerate(events) if kind == "commit"]
    acks = [(i, number) for i, (kind, number) in enumerate(events) if kind == "ack"]
    syncs = []  # (start index, end index)
    open_start = None
    for i, (kind, _) in enumerate(events):
        if kind == "sync-start":
            open_start = i
        elif kind == "sync-end" and open_start is not None:
            syncs.append((open_start, i))
            open_start = None
    failures = []
    if len(commits) != count or len(acks) != count:
        return False, f"{len(commits)} commits and {len(acks)} acknowledgements for {count} orders: cannot pair them", []
    for k, ((ack_index, number), commit_index) in enumerate(zip(acks, commits)):
        if number != k + 1:
            failures.append(f"acknowledgement {k + 1} names #{number}: out of order")
        if not any(commit_index < start and end < ack_index for start, end in syncs):
            failures.append(f"order #{number} was acknowledged before an fdatasync that began after its commit ended")
    figure = f"{count} orders, {len(syncs)} WAL syncs, every acknowledgement after its commit's sync" if not failures \
        else f"{len(failures)} of {count} acknowledged too early"
    return not failures, figure, failures


def _decode_paths(line):
    """The line with strace's hex-escaped <path> annotations decoded (-y with -xx writes them in hex)."""
    return re.sub(r"<((?:\\x[0-9a-f]{2})+)>", lambda m: "<" + _decode(m.group(1)) + ">", line)


def killed_mid_pipe(binary, workdir, env, kills, count=40):
    """kill -9 at the Nth fdatasync of a piped session: every acknowledged order is stored; the stored orders are
    the input's first ones, numbered 1..M."""
    failures = []
    for when in range(1, kills + 1):
        db = _fresh(binary, workdir, env, "acks-kill")
        done = subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=fdatasync",
                               "-e", f"inject=fdatasync:signal=SIGKILL:when={when * 3}", binary, "--db", db],
                              input=_lines(count).encode(), env=env, capture_output=True, timeout=300)
        acked = [int(n) for n in TICKET.findall(done.stdout.decode(errors="replace"))]
        stored = _stored_numbers(binary, db, env)
        if stored != list(range(1, len(stored) + 1)):
            failures.append(f"killed at fdatasync {when * 3}: stored numbers {stored[:8]}… are not 1..{len(stored)}")
        missing = sorted(set(acked) - set(stored))
        if missing:
            failures.append(f"killed at fdatasync {when * 3}: acknowledged but not stored: {missing[:8]}")
    return failures


def failed_sync(binary, workdir, env, count=30, when=10):
    """An fdatasync that fails with EIO: one error, exit status 1, no acknowledgement written after the error."""
    db = _fresh(binary, workdir, env, "acks-eio")
    done = subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=fdatasync",
                           "-e", f"inject=fdatasync:error=EIO:when={when}", binary, "--db", db],
                          input=_lines(count).encode(), env=env, capture_output=True, timeout=300)
    out, err = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
    acked = TICKET.findall(out)
    failures = []
    if done.returncode != 1:
        failures.append(f"a failed fdatasync: exit status {done.returncode}, not 1")
    if "could not be made durable" not in err:
        failures.append(f"a failed fdatasync said {err.strip()[:160]!r}")
    if len(acked) >= count:
        failures.append("every order was acknowledged though a sync failed")
    return failures, len(acked)


def run(binary, workdir, env, kills):
    if not shutil.which("strace"):
        return False, "strace is not installed (apt-get install strace)", []
    ok, figure, failures = acknowledged_after_sync(binary, workdir, env)
    failures += killed_mid_pipe(binary, workdir, env, kills)
    more, acked = failed_sync(binary, workdir, env)
    failures += more
    figure += f"; {kills} kill -9 mid-pipe, every acknowledged order stored; a failed fdatasync stopped at {acked} of 30"
    return not failures, figure, failures
