"""Fault 6: malformed seed files and malformed REPL commands each get a clear error, and the store file
is byte-identical before and after."""
import hashlib
import json
import os
import subprocess

GOOD = {"name": "新品紅茶", "category": "單品茶", "medium": 40, "large": 45, "description": "x", "hotAvailable": True}


def seed_files():
    """(name, contents, text the error must contain) for at least 50 bad files."""
    files = []

    def record(**changes):
        fields = dict(GOOD)
        for key, value in changes.items():
            if value is None:
                fields.pop(key, None)
            else:
                fields[key] = value
        return json.dumps({"records": [{"fields": fields}]}, ensure_ascii=False)

    good = json.dumps({"records": [{"fields": GOOD}]}, ensure_ascii=False)
    # Broken JSON, cut at many places: the error names a line and column.
    for cut in range(3, len(good) - 1, max(1, len(good) // 14)):
        files.append((f"truncated-{cut}", good[:cut], "line 1, column"))
    for bad in ["{", "[", "{\"records\": [", "{\"records\": [{\"fields\": {\"name\": \"a\",}}]}", "nul", "{'records': []}",
                "{\"records\": [1, 2,]}", "\"just text", "{\"records\"  []}", "\ufeff{\"records\": ["]:
        # A byte-order mark alone is accepted (Windows editors write one); one before broken JSON is not.
        files.append(("syntax", bad, "invalid JSON"))
    files += [
        ("no-name", record(name=None), "records[0].fields.name"),
        ("empty-name", record(name="  "), "name"),
        ("name-number", record(name=5), "records[0].fields.name"),
        ("no-category", record(category=None), "records[0].fields.category"),
        ("bad-category", record(category="咖啡"), "unknown category"),
        ("category-number", record(category=3), "records[0].fields.category"),
        ("no-medium", record(medium=None), "records[0].fields.medium"),
        ("zero-medium", record(medium=0), "records[0].fields.medium"),
        ("negative-medium", record(medium=-40), "records[0].fields.medium"),
        ("text-medium", record(medium="40"), "records[0].fields.medium"),
        ("fraction-medium", record(medium=40.5), "records[0].fields.medium"),
        ("zero-large", record(large=0), "records[0].fields.large"),
        ("large-below", record(large=30), "records[0].fields.large"),
        ("text-large", record(large="45"), "records[0].fields.large"),
        ("unknown-field", record(colour="red"), "records[0].fields.colour"),
        ("unknown-option", record(sweetness="half"), "records[0].fields.sweetness"),
        ("hot-text", record(hotAvailable="yes"), "records[0].fields.hotAvailable"),
        ("available-number", record(available=1), "records[0].fields.available"),
        ("image-text", record(image="pic.jpg"), "records[0].fields.image"),
        ("image-no-url", record(image=[{"href": "x"}]), "records[0].fields.image[0]"),
        ("description-number", record(description=5), "records[0].fields.description"),
        ("contradiction", record(available=True, soldOut=True), "records[0].fields.soldOut"),
        ("duplicate", json.dumps({"records": [{"fields": GOOD}, {"fields": GOOD}]}, ensure_ascii=False), "records[1].fields.name"),
        ("records-object", json.dumps({"records": {"fields": GOOD}}), "records"),
        ("record-not-object", json.dumps({"records": ["熟成紅茶"]}, ensure_ascii=False), "records[0]"),
        ("fields-not-object", json.dumps({"records": [{"fields": [1]}]}), "records[0].fields"),
        ("unknown-top", json.dumps({"drinks": []}), "drinks"),
        ("number-top", "42", "top level"),
        ("extra-key", json.dumps({"records": [{"fields": GOOD, "color": 1}]}, ensure_ascii=False), "records[0].color"),
        ("promo-no-kind", json.dumps({"promotions": [{"fields": {"name": "P"}}]}), "promotions[0].fields.kind"),
        ("promo-bad-kind", json.dumps({"promotions": [{"fields": {"name": "P", "kind": "halfOff"}}]}), "promotions[0].fields.kind"),
        ("promo-percent", json.dumps({"promotions": [{"fields": {"name": "P", "kind": "percentOff", "percent": 0}}]}), "percent"),
        ("promo-drink", json.dumps({"promotions": [{"fields": {"name": "P", "kind": "buyOneGetOne", "drink": "咖啡"}}]},
                                   ensure_ascii=False), "promotions[0].fields.drink"),
        ("promo-date", json.dumps({"promotions": [{"fields": {"name": "P", "kind": "buyOneGetOne", "endsAt": "never"}}]}),
         "promotions[0].fields.endsAt"),
        ("promo-window", json.dumps({"promotions": [{"fields": {"name": "P", "kind": "buyOneGetOne",
                                                                "startsAt": "2026-12-02", "endsAt": "2026-12-01"}}]}),
         "promotions[0].fields"),
        ("promo-both-scopes", json.dumps({"promotions": [{"fields": {"name": "P", "kind": "buyOneGetOne",
                                                                     "category": "歐蕾", "drink": "熟成紅茶"}}]},
                                         ensure_ascii=False), "promotions[0].fields.drink"),
        ("promo-unknown-field", json.dumps({"promotions": [{"fields": {"name": "P", "kind": "buyOneGetOne", "x": 1}}]}),
         "promotions[0].fields.x"),
        ("second-record-bad", json.dumps({"records": [{"fields": GOOD}, {"fields": dict(GOOD, name="B", medium=-1)}]},
                                         ensure_ascii=False), "records[1].fields.medium"),
    ]
    return files


BAD_COMMANDS = [
    "brew tea", "ordr 熟成紅茶 M 半糖 少冰", "order", "order M half less ice", "order 咖啡 M 半糖 少冰", "order 熟成 M 半糖 少冰",
    "order 熟成紅茶 半糖 少冰", "order 熟成紅茶 M 少冰", "order 熟成紅茶 M 半糖", "order 熟成紅茶 M L 半糖 少冰",
    "order 熟成紅茶 M 半糖 微糖 少冰", "order 熟成紅茶 M 半糖 少冰 熱", "order 雲蓋熟成 M 半糖 熱", "order 白玉歐蕾 M 半糖 熱 菓玉",
    "order 白玉歐蕾 M 半糖 少冰 白玉 水玉 菓玉", "order 白玉歐蕾 M 半糖 少冰 白玉 白玉", "order 熟成紅茶 XL 半糖 少冰",
    "order 草莓檸果 M 半糖 少冰", "order 熟成紅茶 M 半糖 少冰 x0", "order 熟成紅茶 M 半糖 少冰 x100",
    "order 熟成紅茶 M 半糖 少冰 x2 x3", "order 熟成紅茶 M 半糖 少冰 for", "order 熟成紅茶 M 半糖 少冰 note",
    'order 熟成紅茶 M 半糖 少冰 note "' + "長" * 101 + '"', 'order 熟成紅茶 M 半糖 少冰 note "unclosed',
    "order 熟成紅茶 M 半糖 少冰 for " + "A" * 60, "order 熟成紅茶 M 半糖 少冰 for A, 冷露歐蕾 L 半糖 少冰 for B",
    "order , , ,", "edit", "edit #x L", "edit #1", "edit #1 L", "edit #1 冷露歐蕾", "edit #0 L", "edit #-3 L",
    "advance", "advance #99", "advance #1 now", "cancel", "cancel #42", "delete", "delete #7", "delete #7 --yes",
    "orders someday", "seed", "seed a.json b.json", "seed /nonexistent/menu.json", "banner sideways", "promos please",
    "login", "login " + "B" * 60, "help brew", "logout now", "report someday", "menu 咖啡拿鐵",
]


def sha256(path):
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def run(binary, workdir, env):
    db = os.path.join(workdir, "bad-input.sqlite")
    subprocess.run([binary, "--db", db, "--create", "menu"], env=env, check=True, capture_output=True)
    before = sha256(db)
    failures = []
    files = seed_files()
    for index, (name, contents, expected) in enumerate(files):
        path = os.path.join(workdir, f"bad-{index}-{name}.json")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(contents)
        result = subprocess.run([binary, "--db", db, "seed", path], env=env, capture_output=True, text=True)
        if result.returncode == 0 or expected not in result.stderr or path not in result.stderr:
            failures.append(f"seed {name}: status {result.returncode}, stderr {result.stderr.strip()[:200]!r}")
    script = "\n".join(BAD_COMMANDS) + "\n"
    result = subprocess.run([binary, "--db", db], input=script, env=env, capture_output=True, text=True)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    if result.returncode == 0 or len(errors) != len(BAD_COMMANDS):
        failures.append(f"{len(errors)} errors for {len(BAD_COMMANDS)} bad commands (status {result.returncode})")
    clear = len(files) + len(errors) - sum(1 for failure in failures if failure.startswith("seed "))
    unchanged = sha256(db) == before
    if not unchanged:
        failures.append("the store file changed")
    figure = (f"{len(files)} malformed seed files and {len(BAD_COMMANDS)} malformed commands: {clear} clear errors, "
              f"store byte-identical: {'yes' if unchanged else 'NO'}")
    return not failures, figure, failures
