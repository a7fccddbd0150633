"""Money under concurrent counters and crashes.

Item 13, paying at once: each round places an order, then starts several `drinkshop pay #N card` processes at
the same instant, on the embedded store file itself and through `drinkshop serve` (the remote path: no
transactions, the ledger's claim rule). Every round must end with exactly one payment in the ledger, one
process told it paid and the others `already paid`.

Item 14, kill -9 at every fdatasync of `pay`: strace kills the paying process at its 1st, 2nd, ... fdatasync
until a run gets through. After each kill the order is paid once or not at all (the payment and the order's
copy are one commit), and paying again does the right thing: pays when nothing was recorded, says `already
paid` when it was. A drawer close and a pass sale are one commit with their audit entry: after every kill
there are as many closed shifts (passes sold) as entries of them.
"""
import json
import os
import shutil
import subprocess
import urllib.parse

import drinkshop_harness as harness


def _run(binary, args, env, timeout=60):
    return subprocess.run([binary] + args, env=env, capture_output=True, text=True, timeout=timeout)


def _place(binary, env, db=None):
    """Places one order; returns its pickup number."""
    args = (["--db", db] if db else []) + ["order", "熟成紅茶", "M", "無糖", "去冰"]
    result = _run(binary, args, env)
    if result.returncode != 0:
        raise RuntimeError(f"order failed: {result.stderr.strip()}")
    for line in result.stdout.splitlines():
        if "取餐號 #" in line:
            return int(line.split("取餐號 #")[1].split()[0])
    raise RuntimeError(f"no pickup number in: {result.stdout!r}")


def _ledger(server, order_ref):
    formula = urllib.parse.quote(f"{{orderRef}}='{order_ref}'")
    status, body, _ = server.request("GET", f"/v0/{server.base_id}/TillPayment?filterByFormula={formula}")
    if status != 200:
        raise RuntimeError(f"reading the ledger: {status} {body}")
    return body["records"]


def _order(server, number):
    formula = urllib.parse.quote(f"AND({{pickupNumber}}={number}, {{line}}=1)")
    status, body, _ = server.request("GET", f"/v0/{server.base_id}/OrderDrink?filterByFormula={formula}")
    if status != 200 or not body["records"]:
        raise RuntimeError(f"reading order #{number}: {status} {body}")
    # Today's order of that number (the newest, should several days be stored).
    return max(body["records"], key=lambda record: record["createdTime"])["fields"]


def _records(server, table, formula):
    status, body, _ = server.request(
        "GET", f"/v0/{server.base_id}/{table}?pageSize=100&filterByFormula={urllib.parse.quote(formula)}")
    if status != 200:
        raise RuntimeError(f"reading {table}: {status} {body}")
    if body.get("offset"):
        raise RuntimeError(f"reading {table}: more than 100 records")
    return body["records"]


def _unaudited(server, name):
    """What a kill left of `name` without its audit entry (the change and the entry are one commit), or None."""
    if name == "close":
        changed = len(_records(server, "Shift", "{closedAt}!=''"))
        entries = len(_records(server, "AuditLog", "AND({action}='closeDay', {subject}='drawer')"))
        what = "closed shifts"
    elif name == "pass sale":
        changed = len(_records(server, "Member", "{passName}!=''"))
        entries = len(_records(server, "AuditLog", "{action}='sellPass'"))
        what = "members with a pass"
    else:
        return None
    return None if changed == entries else f"{changed} {what}, {entries} audit entries of them"


def paying_at_once(binary, workdir, env, rounds, payers):
    db = os.path.join(workdir, "money-race.sqlite")
    server = harness.Server(binary, db, env=env).start()
    failures = []
    try:
        _run(binary, ["--db", db, "seed", os.path.join(harness.ROOT, "Seeds", "menu.json")], env)
        remote = dict(env, AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base_id, AIRTABLE_ENDPOINT_URL=server.url)
        remote.pop("AIRTABLE_API_KEY", None)
        remote["DRINKSHOP_OUTBOX"] = os.path.join(workdir, "money-outbox")
        sides = [("embedded", lambda n: ["--db", db, "pay", f"#{n}", "card"], env),
                 ("served", lambda n: ["pay", f"#{n}", "card"], remote)]
        done = {"embedded": 0, "served": 0}
        for side, command, side_env in sides:
            for round_number in range(rounds):
                number = _place(binary, side_env, db if side == "embedded" else None)
                processes = [subprocess.Popen([binary] + command(number), env=side_env, stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE, text=True) for _ in range(payers)]
                outcomes = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in processes]
                paid = [o for o in outcomes if o[0] == 0]
                told = [o for o in outcomes if o[0] != 0 and "already paid" in o[2]]
                order = _order(server, number)
                ledger = _ledger(server, order["orderRef"])
                if len(paid) != 1 or len(told) != payers - 1 or len(ledger) != 1:
                    other = [o[2].strip() for o in outcomes if o[0] != 0 and "already paid" not in o[2]]
                    failures.append(f"{side} round {round_number + 1} (#{number}): {len(paid)} paid, {len(told)} told "
                                    f"already paid, {len(ledger)} payments in the ledger; other errors: {other[:2]}")
                elif order.get("paid") != ledger[0]["fields"]["amount"]:
                    failures.append(f"{side} round {round_number + 1}: the order's copy says paid {order.get('paid')}, "
                                    f"the ledger {ledger[0]['fields']['amount']}")
                else:
                    done[side] += 1
    finally:
        server.stop()
    figure = (f"{payers} processes paying one order at once, {rounds} rounds each: embedded {done['embedded']}/{rounds}, "
              f"through drinkshop serve {done['served']}/{rounds} rounds with exactly one payment")
    return not failures, figure, failures


def _books(binary, db, env):
    """`drinkshop check --books` on the store: (clean, what it said)."""
    result = _run(binary, ["--db", db, "check", "--books"], env)
    if result.returncode not in (0, 1):
        raise RuntimeError(f"check --books could not check: {result.stderr.strip()[:200]}")
    return result.returncode == 0, (result.stdout + result.stderr).strip()


def _seed_program(binary, db, env, workdir):
    path = os.path.join(workdir, "members.json")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write('{"stampCard": {"stampsPerReward": 5, "rewardSize": "中杯"}, '
                     '"passes": [{"name": "月卡", "days": 30, "price": 299, "percentOff": 10}]}')
    result = _run(binary, ["--db", db, "seed", path], env)
    if result.returncode != 0:
        raise RuntimeError(f"seeding the member program: {result.stderr.strip()}")


def _commands(binary, db, env):
    """Each money command with what it needs first: (name, prepare() -> words to run)."""
    def shell(*words):
        result = _run(binary, ["--db", db] + list(words), env)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(words)}: {result.stderr.strip()[:200]}")
        return result

    def placed(name=None):
        words = ["order", "熟成紅茶", "M", "無糖", "去冰", "x2"] + (["for", name] if name else [])
        result = shell(*words)
        return int(result.stdout.split("取餐號 #")[1].split()[0])

    def part_pay():
        return ["pay", f"#{placed()}", "card", "20"]

    def void():
        number = placed()
        shell("pay", f"#{number}", "card")
        shell("advance", f"#{number}")
        return ["void", f"#{number}", "spilled"]

    def refund():
        number = placed()
        shell("pay", f"#{number}", "linepay")
        return ["cancel", f"#{number}", "customer left"]

    def close():
        # A close killed before its commit leaves the shift open: it is counted again.
        opened = _run(binary, ["--db", db, "shift", "open", "500"], env)
        if opened.returncode != 0 and "already open" not in opened.stderr:
            raise RuntimeError(f"shift open 500: {opened.stderr.strip()[:200]}")
        shell("pay", f"#{placed()}", "cash", "100")
        return ["close", "535"]

    def redeem():
        number = placed("0912345678")
        return ["redeem", f"#{number}", "1"]

    buyers = iter(range(100, 1000))

    def pass_sale():
        # A new member each time (a pass sold before the kill is still active).
        return ["pass", f"0922333{next(buyers)}", "月卡"]

    return [("pay (full)", lambda: ["pay", f"#{placed()}", "card"]), ("part payment", part_pay), ("void", void),
            ("cancel with refund", refund), ("close", close), ("redeem", redeem), ("pass sale", pass_sale)]


def kill_at_every_fdatasync(binary, workdir, env, limit):
    """Each money command killed at its 1st, 2nd, ... fdatasync until a run gets through. After every kill
    `check --books` is clean, or names the half-done step and running the command again completes it (the
    books are then clean). For `pay` also: paid once or not at all, and paying again right."""
    if not shutil.which("strace"):
        return False, "strace is not installed (apt-get install strace)", []
    db = os.path.join(workdir, "money-kill.sqlite")
    server = harness.Server(binary, db, env=env).start()
    failures, kills, kept, named = [], 0, 0, []
    per_command = {}
    try:
        _run(binary, ["--db", db, "seed", os.path.join(harness.ROOT, "Seeds", "menu.json")], env)
        _seed_program(binary, db, env, workdir)
        # Stamps for the member who redeems: 30 cups, paid (stamps are earned when an order is paid).
        for _ in range(15):
            placed = _run(binary, ["--db", db, "order", "熟成紅茶", "M", "無糖", "去冰", "x2", "for", "0912345678"], env)
            number = placed.stdout.split("取餐號 #")[1].split()[0] if "取餐號 #" in placed.stdout else None
            if number:
                _run(binary, ["--db", db, "pay", f"#{number}", "card"], env)
        for name, prepare in _commands(binary, db, env):
            finished = False
            per_command[name] = 0
            for when in range(1, limit + 1):
                words = prepare()
                traced = subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=fdatasync",
                                         "-e", f"inject=fdatasync:signal=SIGKILL:when={when}",
                                         binary, "--db", db] + words, env=env, capture_output=True, text=True, timeout=120)
                killed = traced.returncode != 0 and "error:" not in traced.stderr
                if traced.returncode != 0 and not killed:
                    failures.append(f"{name} at fdatasync {when}: refused rather than killed: {traced.stderr.strip()[:160]}")
                    break
                kills += killed
                per_command[name] += killed
                clean, said = _books(binary, db, env)
                unaudited = _unaudited(server, name)
                if unaudited:
                    failures.append(f"{name} killed at fdatasync {when}: {unaudited}")
                if not clean:
                    named.append(f"{name} at {when}")
                    again = _run(binary, ["--db", db] + words, env)
                    clean_after, said_after = _books(binary, db, env)
                    if not clean_after:
                        failures.append(f"{name} killed at fdatasync {when}: check --books said {said[:200]!r}; running "
                                        f"it again ({(again.stdout + again.stderr).strip()[:100]!r}) left {said_after[:200]!r}")
                if not killed:
                    finished = True
                    break
            if not finished and not any(f.startswith(name) for f in failures):
                failures.append(f"{name} was still being killed after {limit} fdatasyncs")
        # pay, as before: paid once or not at all after a kill, and paying again right.
        for when in range(1, limit + 1):
            number = _place(binary, env, db)
            traced = subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=fdatasync",
                                     "-e", f"inject=fdatasync:signal=SIGKILL:when={when}",
                                     binary, "--db", db, "pay", f"#{number}", "card"],
                                    env=env, capture_output=True, text=True, timeout=120)
            order = _order(server, number)
            ledger = _ledger(server, order["orderRef"])
            killed = traced.returncode != 0
            kept += killed and len(ledger) == 1
            if len(ledger) > 1 or (len(ledger) == 1) != (order.get("paid", 0) > 0):
                failures.append(f"pay killed at fdatasync {when}: {len(ledger)} payments in the ledger, the copy says "
                                f"paid {order.get('paid', 0)}")
            again = _run(binary, ["--db", db, "pay", f"#{number}", "card"], env)
            if ledger and (again.returncode == 0 or "already paid" not in again.stderr):
                failures.append(f"pay killed at fdatasync {when}: recorded, yet paying again said {(again.stdout + again.stderr).strip()[:120]!r}")
            if not ledger and again.returncode != 0:
                failures.append(f"pay killed at fdatasync {when}: nothing recorded, yet paying again was refused: {again.stderr.strip()[:120]!r}")
            if not killed:
                break
    finally:
        server.stop()
    counts = ", ".join(f"{name} {count}" for name, count in per_command.items())
    figure = (f"{kills} kills at each fdatasync of {len(per_command)} money commands ({counts}): check --books clean after "
              f"each, or naming the half-done step that running the command again completed ({len(named)}: "
              f"{', '.join(named) or 'none'}); pay: "
              f"paid once or not at all ({kept} kills after its commit)")
    return not failures, figure, failures


def randomized_day(binary, workdir, env, steps, seed=11):
    """A day of random counter work from three processes at once (place, edit, pay in full or in part, cash
    with change, cancel, advance, void, redeem, sell a pass, close and reopen the drawer), one process in three
    steps killed with SIGKILL at a random moment. After every step `check --books` is clean, or names what a
    killed command left half done and running that command again completes it."""
    import random
    import signal
    import threading
    rng = random.Random(seed)
    db = os.path.join(workdir, "money-day.sqlite")
    _run(binary, ["init", "--db", db], env)
    _run(binary, ["--db", db, "seed", os.path.join(harness.ROOT, "Seeds", "menu.json")], env)
    _seed_program(binary, db, env, workdir)
    _run(binary, ["--db", db, "shift", "open", "1000"], env)
    drinks = [["熟成紅茶", "M", "無糖", "去冰"], ["白玉歐蕾", "L", "半糖", "少冰"], ["冷露歐蕾", "M", "微糖", "去冰", "加白玉"]]
    members = ["0912345678", "0933222111"]
    placed = [0]

    def action():
        number = f"#{rng.randint(1, max(1, placed[0]))}"
        kind = rng.choices(["order", "edit", "pay", "part", "cash", "cancel", "advance", "void", "redeem", "pass", "close"],
                           [6, 1, 4, 2, 2, 1, 3, 1, 1, 1, 0.4])[0]
        if kind == "order" or placed[0] == 0:
            placed[0] += 1
            words = ["order"] + rng.choice(drinks) + [f"x{rng.randint(1, 3)}"]
            return words + (["for", rng.choice(members)] if rng.random() < 0.3 else [])
        return {"edit": ["edit", number, "少糖"], "pay": ["pay", number, rng.choice(["card", "linepay", "easycard"])],
                "part": ["pay", number, "card", str(rng.randint(5, 30))], "cash": ["pay", number, "cash", "500"],
                "cancel": ["cancel", number, "customer left"], "advance": ["advance", number, "--unpaid"],
                "void": ["void", number, "spilled"], "redeem": ["redeem", number, "1"],
                "pass": ["pass", f"09{rng.randint(10000000, 99999999)}", "月卡"], "close": ["close", str(rng.randint(900, 3000))],
                }[kind]

    failures, killed_steps, repaired, refused, done = [], 0, [], 0, 0
    for step in range(steps):
        batch = [action() for _ in range(3)]
        victim = rng.randrange(3) if rng.random() < 1 / 3 else None
        results = [None] * 3

        def run(index, words):
            process = subprocess.Popen([binary, "--db", db] + words, env=env, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
            if index == victim:
                timer = threading.Timer(rng.uniform(0.0, 0.25), lambda: process.poll() is None and process.send_signal(signal.SIGKILL))
                timer.start()
            out, err = process.communicate(timeout=120)
            results[index] = (process.returncode, out, err)

        threads = [threading.Thread(target=run, args=(index, words)) for index, words in enumerate(batch)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for index, (status, _, err) in enumerate(results):
            if status == -signal.SIGKILL:
                killed_steps += 1
            elif status != 0:
                refused += 1
            else:
                done += 1
        if any(words[0] == "close" and results[i][0] == 0 for i, words in enumerate(batch)):
            _run(binary, ["--db", db, "shift", "open", "1000"], env)  # the next shift
        clean, said = _books(binary, db, env)
        if not clean:
            killed = [batch[i] for i in range(3) if results[i][0] == -signal.SIGKILL]
            for words in killed:
                _run(binary, ["--db", db] + words, env)
            clean, said_after = _books(binary, db, env)
            if clean and killed:
                repaired.append(" ".join(killed[0][:2]))
            else:
                failures.append(f"step {step + 1} ({[' '.join(w) for w in batch]}, killed: {[' '.join(w) for w in killed]}): "
                                f"check --books said {said[:300]!r}")
                break
    figure = (f"{steps} steps of 3 processes at once ({done} commands done, {refused} refused as the rules say, "
              f"{killed_steps} killed): the books balanced after every step; {len(repaired)} half-done commands named "
              f"by check --books and completed by running them again ({', '.join(repaired) or 'none'})")
    return not failures, figure, failures


def paying_and_voiding_at_once(binary, workdir, env, rounds):
    """A payment and a void of one order at the same instant, from two processes, over a base like Airtable
    (`serve --like-airtable`: no kept keys, no guard in the payment's commit), so the payer reads no status after its
    payment and the void marks the order's ledger before reading it; in the second half of the rounds two counters pay
    (card and LINE Pay) while a third voids, so a payment that loses its claim is taken back while the void settles.
    Every round the order ends cancelled with all that stands paid given back (never more), and `check --books` is
    clean at the end."""
    db = os.path.join(workdir, "pay-void.sqlite")
    server = harness.Server(binary, db, extra=["--like-airtable"], env=env).start()
    failures, kept, marks = [], 0, 0
    try:
        remote = dict(env, AIRTABLE_TOKEN=server.token, AIRTABLE_BASE_ID=server.base_id, AIRTABLE_ENDPOINT_URL=server.url)
        remote.pop("AIRTABLE_API_KEY", None)
        remote["DRINKSHOP_OUTBOX"] = os.path.join(workdir, "pay-void-outbox")
        for round_number in range(rounds):
            number = _place(binary, remote)
            advanced = _run(binary, ["advance", f"#{number}"], remote)
            if advanced.returncode != 0:
                raise RuntimeError(f"advance #{number}: {advanced.stderr.strip()}")
            processes = [subprocess.Popen([binary] + words, env=remote, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          text=True)
                         for words in (["pay", f"#{number}", "card"], ["void", f"#{number}", "spilled"])
                         + ((["pay", f"#{number}", "linepay"],) if round_number >= rounds // 2 else ())]
            outcomes = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in processes]
            order = _order(server, number)
            ledger = [r["fields"] for r in _ledger(server, order["orderRef"])]
            paid = sum(f.get("amount", 0) for f in ledger if f.get("kind") == "payment")
            refunded = sum(f.get("amount", 0) for f in ledger if f.get("kind") == "refund")
            marks += sum(1 for f in ledger if f.get("kind") == "refund" and f.get("amount") == 0)
            kept += 1 if paid > 0 else 0
            if order.get("status") != "cancelled" or paid != refunded:
                failures.append(f"round {round_number + 1} (#{number}): status {order.get('status')}, paid {paid}, "
                                f"refunded {refunded}; pay said {outcomes[0][1].strip()[-120:]!r} "
                                f"{outcomes[0][2].strip()[-160:]!r}; void said {outcomes[1][2].strip()[-120:]!r}")
        clean, said = _books(binary, db, env)
        if not clean:
            failures.append("check --books: " + said[-400:])
    finally:
        server.stop()
    figure = (f"{rounds} rounds over serve --like-airtable ({rounds - rounds // 2} one payer and a void, {rounds // 2} two "
              f"payers and a void): every order cancelled with all that stood paid given back, never more; a payment "
              f"landed in {kept} rounds (given back by the void or by a payer), cancel marks written in {marks}")
    return not failures, figure, failures


def pin_burst(binary, workdir, env, tries=20):
    """Twenty one-shot commands with wrong PINs for one manager, started at the same instant from twenty
    processes: five are compared (4, 3, 2, 1 tries left, then the lock), the rest told the account is
    locked, and the right PIN is then refused until the lock ends; no PIN in any output."""
    db = os.path.join(workdir, "pins.sqlite")
    _run(binary, ["init", "--db", db], env)
    _run(binary, ["--db", db, "seed", os.path.join(harness.ROOT, "Seeds", "menu.json")], env)
    _run(binary, ["--db", db, "staff", "add", "Amy", "manager"], env)
    made = _run(binary, ["--db", db, "staff", "pin", "Amy"], dict(env, DRINKSHOP_NEW_PIN="13579"))
    if made.returncode != 0:
        raise RuntimeError(f"staff pin Amy: {made.stderr.strip()}")
    wrong = [f"{24680 + i:05d}" for i in range(tries)]
    processes = [subprocess.Popen([binary, "--db", db, "price", "熟成紅茶", "M", "40"],
                                  env=dict(env, DRINKSHOP_STAFF="Amy", DRINKSHOP_PIN=pin),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for pin in wrong]
    answers = [(p.wait(timeout=120), p.stdout.read() + p.stderr.read()) for p in processes]
    failures = []
    left = sorted(text for _, text in answers if "left" in text.lower() and "locked" not in text.lower())
    locked = [text for _, text in answers if "locked" in text.lower()]
    accepted = [text for status, text in answers if status == 0]
    # Tries left 4, 3, 2, 1, then the fifth wrong PIN locks: every later one is refused before any compare.
    compared = len(left) + (1 if locked else 0)
    if len(left) != 4 or len(set(left)) != 4:
        failures.append(f"tries left were said {len(left)} times: {[t.strip()[:60] for t in left]}")
    if accepted:
        failures.append(f"{len(accepted)} wrong PINs were accepted")
    if compared > 5:
        failures.append(f"{compared} PINs were compared (at most 5 before the lock)")
    right = _run(binary, ["--db", db, "price", "熟成紅茶", "M", "40"], dict(env, DRINKSHOP_STAFF="Amy", DRINKSHOP_PIN="13579"))
    if right.returncode == 0 or "locked" not in right.stderr.lower():
        failures.append(f"the right PIN was not refused during the lock: {right.stderr.strip()[:120]!r}")
    shown = [pin for pin in wrong + ["13579"] if any(pin in text for _, text in answers) or pin in right.stdout + right.stderr]
    if shown:
        failures.append(f"{len(shown)} PINs appear in the output")
    figure = (f"{tries} wrong PINs from {tries} processes at once: {compared} compared ({len(left)} told tries left), "
              f"{len(locked)} told locked (the fifth by its compare), {len(accepted)} accepted; the right PIN then refused while locked: "
              f"{'yes' if not any('right PIN' in f for f in failures) else 'no'}; PINs in output: {len(shown)}")
    return not failures, figure, failures
