"""Drives other Airtable clients from PyPI against `drinkshop serve`, each unchanged but for its
endpoint (none of them has an endpoint option, so the module's URL constant is pointed at the server):
aioairtable, airtable-python-wrapper (module `airtable`) and airtable-api-cli (module `airtable_cli`);
airtable-db-export (over pyairtable, whose default endpoint is pointed at the server) exports two
tables, computed fields included, into a DuckDB file.

    python other_clients.py ENDPOINT BASE_ID TOKEN

Prints one line per client and check, and exits non-zero if any check failed.
"""

import asyncio
import contextlib
import io
import json
import os
import sys
import traceback

endpoint, base_id, token = sys.argv[1:4]
results = []


def check(client, name, fn):
    try:
        fn()
        results.append((client, name, True, ""))
    except Exception as exc:  # noqa: BLE001 - every failure is reported, none hidden
        results.append((client, name, False, f"{type(exc).__name__}: {exc}"))
        traceback.print_exc(file=sys.stderr)


# ---- the base: a table made through the metadata API (pyairtable is the set-up tool) -------------
from pyairtable import Api  # noqa: E402

base = Api(token, endpoint_url=endpoint).base(base_id)
table = base.create_table("Clients", [{"name": "Name", "type": "singleLineText"},
                                      {"name": "Qty", "type": "number", "options": {"precision": 0}}])

# ---- airtable-python-wrapper ---------------------------------------------------------------------
try:
    import airtable.airtable as wrapper

    wrapper.Airtable.API_BASE_URL = endpoint + "/"
    wrapper.Airtable.API_URL = endpoint + "/v0"
    client = wrapper.Airtable(base_id, "Clients", api_key=token)

    def wrapper_crud():
        made = client.insert({"Name": "Amy", "Qty": 2})
        assert client.get(made["id"])["fields"]["Name"] == "Amy"
        client.update(made["id"], {"Qty": 3})
        assert client.match("Name", "Amy")["fields"]["Qty"] == 3
        many = client.batch_insert([{"Name": f"n{i}", "Qty": i} for i in range(15)])
        assert len(client.get_all()) == 16
        assert len(client.get_all(formula="{Qty} >= 10")) == 5
        assert [r["fields"]["Name"] for r in client.get_all(sort=[("Qty", "desc")], max_records=2)] == ["n14", "n13"]
        client.batch_delete([r["id"] for r in many] + [made["id"]])
        assert client.get_all() == []

    check("airtable-python-wrapper", "insert/get/update/match/batch/get_all/delete", wrapper_crud)
except ImportError as exc:
    results.append(("airtable-python-wrapper", "import", False, str(exc)))

# ---- aioairtable -----------------------------------------------------------------------------------
try:
    import aioairtable.aioairtable as aio
    from yarl import URL

    aio.API_URL = URL(endpoint + "/v0")

    class ClientFields(aio.Fields, kw_only=True):
        Name: str | None = None
        Qty: int | None = None

    async def aio_crud():
        async with aio.Airtable(api_key=token) as at:
            t = at.base(base_id).table("Clients", ClientFields)
            made = await t.create_record(ClientFields(Name="Bo", Qty=1))
            got = await t.retrieve_record(made.id)
            assert got.fields.Name == "Bo"
            records = [r async for r in t.iter_records()]
            assert [r.id for r in records] == [made.id]
            await got.update(ClientFields(Qty=5))
            assert (await t.retrieve_record(made.id)).fields.Qty == 5
            await got.delete()
            assert [r async for r in t.iter_records()] == []

    check("aioairtable", "create/retrieve/iterate/update/delete", lambda: asyncio.run(aio_crud()))
except ImportError as exc:
    results.append(("aioairtable", "import", False, str(exc)))

# ---- airtable-api-cli (update-field included) -------------------------------------------------------
try:
    import airtable_cli.cli as cli

    cli.BASE_URL = endpoint + "/v0"
    cli.META_URL = endpoint + "/v0/meta"
    os.environ["AIRTABLE_PAT"] = token

    def run_cli(*args):
        out = io.StringIO()
        sys.argv = ["airtable", "-o", "json", *args]
        with contextlib.redirect_stdout(out):
            try:
                cli.main()
            except SystemExit as stop:
                if stop.code not in (0, None):
                    raise RuntimeError(f"airtable {' '.join(args)} exited {stop.code}: {out.getvalue()}")
        return out.getvalue()

    def cli_calls():
        run_cli("create-records", base_id, "Clients", json.dumps([{"fields": {"Name": "Cy", "Qty": 7}}]))
        listed = run_cli("list-records", base_id, "Clients", "--all")
        assert "Cy" in listed, listed
        assert "Clients" in run_cli("list-tables", base_id)
        field_id = table.schema().field("Qty").id
        renamed = run_cli("update-field", base_id, table.id, field_id,
                          json.dumps({"name": "Cups", "description": "how many"}))
        assert "Cups" in renamed, renamed
        assert base.table("Clients").schema(force=True).field("Cups").description == "how many"
        assert "1" in run_cli("count", base_id, "Clients")

    check("airtable-api-cli", "create-records/list-records/list-tables/update-field/count", cli_calls)
except ImportError as exc:
    results.append(("airtable-api-cli", "import", False, str(exc)))

# ---- airtable-db-export ---------------------------------------------------------------------------
try:
    import tempfile

    import pyairtable
    from airtable_db_export import main as db_export

    pyairtable.Api.__init__.__kwdefaults__["endpoint_url"] = endpoint
    menu = base.create_table("Menu", [{"name": "Name", "type": "singleLineText"},
                                      {"name": "Price", "type": "number", "options": {"precision": 0}}])
    menu.create_field("Large", "formula", options={"formula": "{Price} + 10"})
    menu.create({"Name": "熟成紅茶", "Price": 30})
    menu.create({"Name": "熟成歐蕾", "Price": 55})

    def export():
        import duckdb

        folder = tempfile.mkdtemp(prefix="db-export-")
        config = os.path.join(folder, "config.yaml")
        with open(config, "w") as out:
            out.write(f"""base_dir: {folder}/generated
schemas_file: schemas.json
datadir: data
sql_dir: create_sql
db_file: shop.duckdb
tables:
  - base: {base_id}
    airtable: Clients
    table: clients
    all_columns: true
  - base: {base_id}
    airtable: Menu
    table: menu
    all_columns: true
""")
        os.environ["AIRTABLE_API_KEY"] = token
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            db_export.cli(["-c", config, "all"], standalone_mode=False)
        db = duckdb.connect(os.path.join(folder, "generated", "shop.duckdb"), read_only=True)
        rows = db.execute("SELECT name, price, large FROM menu ORDER BY price").fetchall()
        # Every column is VARCHAR on Python 3.11: the tool looks its type map up with str(FieldType.X),
        # which 3.11 spells "FieldType.NUMBER" (the reason it asks for 3.12); the values are the server's.
        assert [tuple(r) for r in rows] == [("熟成紅茶", "30", "40"), ("熟成歐蕾", "55", "65")], rows
        clients = db.execute("SELECT count(*) FROM clients").fetchone()[0]
        assert clients == len(table.all()), clients

    check("airtable-db-export", "all: schema map, download, SQL, DuckDB (a formula field included)", export)
except ImportError as exc:
    results.append(("airtable-db-export", "import", False, str(exc)))

failed = 0
for client, name, ok, detail in results:
    print(f"{'PASS' if ok else 'FAIL'}  {client}: {name}" + (f"  ({detail})" if detail else ""))
    failed += not ok
sys.exit(1 if failed else 0)
