"""Listing through pyairtable (reference §2, §11.2): paging, offsets, sort, fields, views, formats,
and the switch to POST …/listRecords for URLs of 16,000 characters or more."""

import urllib.parse

import pytest
from pyairtable.formulas import AND, EQ, OR, RECORD_ID, Field
from requests import HTTPError

from conftest import error_of, raw, table_path

SIZES = ["中杯", "大杯"]


@pytest.fixture
def many(orders):
    """260 order lines, created in batches of ten as pyairtable sends them."""
    created = orders.batch_create([
        {"Name": f"line {n:03d}", "Qty": n % 7, "Size": SIZES[n % 2], "Paid": n % 3 == 0} for n in range(260)
    ])
    return orders, [r["id"] for r in created]


def test_pages_through_hundreds_of_records(many):
    orders, ids = many
    assert [r["id"] for r in orders.all()] == ids
    pages = [len(page) for page in orders.iterate()]
    assert pages == [100, 100, 60]
    assert [len(page) for page in orders.iterate(page_size=10, max_records=25)] == [10, 10, 5]
    assert [len(page) for page in orders.iterate(page_size=100, max_records=250)] == [100, 100, 50]
    assert len(orders.all(max_records=7)) == 7
    assert orders.first()["id"] == ids[0]
    assert [r["id"] for r in orders.all(page_size=33)] == ids


def test_offsets_are_opaque_strings_absent_on_the_last_page(many):
    orders, ids = many
    reply = raw("GET", table_path(orders.name, "?pageSize=100")).json()
    offset = reply["offset"]
    iterator, anchor = offset.split("/")
    assert iterator.startswith("itr") and len(iterator) == 17 and anchor == ids[100]
    second = raw("GET", table_path(orders.name, "?pageSize=100&offset=" + urllib.parse.quote(offset, safe=""))).json()
    assert [r["id"] for r in second["records"]] == ids[100:200]
    last = raw("GET", table_path(orders.name, "?pageSize=100&offset=" + urllib.parse.quote(second["offset"]))).json()
    assert len(last["records"]) == 60 and "offset" not in last
    # An empty offset means "from the start", over GET and POST alike (pyairtable's live test).
    assert len(orders.all(offset="")) == 260
    assert raw("POST", table_path(orders.name, "/listRecords"), {"offset": "", "pageSize": 5}).json()["records"][0]["id"] == ids[0]


def test_sort_fields_and_views(many):
    orders, ids = many
    by_qty = orders.all(sort=["Qty", "-Name"], fields=["Name", "Qty"])
    assert all(set(r["fields"]) <= {"Name", "Qty"} for r in by_qty)
    keys = [(r["fields"].get("Qty", 0), r["fields"]["Name"]) for r in by_qty]
    assert keys == sorted(keys, key=lambda k: (k[0], [-ord(c) for c in k[1]]))
    # A single select sorts in the order of its choices.
    sizes = [r["fields"]["Size"] for r in orders.all(sort=["-Size"], fields=["Size"])]
    assert sizes == ["大杯"] * 130 + ["中杯"] * 130
    schema = orders.schema()
    by_id = orders.all(sort=[schema.field("Name").id], fields=[schema.field("Name").id], max_records=3)
    assert [r["fields"]["Name"] for r in by_id] == ["line 000", "line 001", "line 002"]
    view = schema.views[0]
    assert len(orders.all(view=view.name)) == 260 and len(orders.all(view=view.id)) == 260


def test_cell_format_string_uses_time_zone_and_locale(orders):
    orders.create({"Name": "x", "At": "2026-11-29T14:30:00.000Z", "Price": 1250, "AddOns": ["加白玉", "加水玉"],
                   "Paid": True})
    taipei = orders.all(cell_format="string", time_zone="Asia/Taipei", user_locale="zh-tw")[0]["fields"]
    assert taipei["At"] == "2026-11-29 22:30"
    assert taipei["Price"] == "NT$1250"
    assert taipei["AddOns"] == "加白玉, 加水玉"
    utc = orders.all(cell_format="string", time_zone="utc", user_locale="en-ie")[0]["fields"]
    assert utc["At"] == "2026-11-29 14:30"
    record_id = orders.all()[0]["id"]
    assert orders.get(record_id, cell_format="string", time_zone="Asia/Taipei", user_locale="zh-tw")["fields"]["At"] \
        == "2026-11-29 22:30"
    # The json format accepts the zone and locale and ignores them.
    assert orders.all(time_zone="utc", user_locale="en-ie")[0]["fields"]["At"] == "2026-11-29T14:30:00.000Z"


def test_long_formulas_go_by_post_and_page_through(many):
    orders, ids = many
    chosen = ids[5:245]
    formula = OR(*[AND(EQ(RECORD_ID(), record_id), EQ(Field("Name"), f"line {n:03d}"))
                   for n, record_id in enumerate(ids) if record_id in chosen])
    # pyairtable must switch to POST: its GET URL would be 16,000 characters or more.
    assert len(urllib.parse.urlencode({"filterByFormula": str(formula)})) >= 16_000
    found = orders.all(formula=formula, page_size=50, fields=["Name"], sort=["Name"],
                       time_zone="Asia/Taipei", user_locale="zh-tw")
    assert [r["id"] for r in found] == chosen
    # The same request by GET is refused with 414.
    query = urllib.parse.urlencode({"filterByFormula": str(formula)})
    too_long = raw("GET", table_path(orders.name, "?" + query))
    assert too_long.status == 414 and too_long.headers["content-type"].startswith("application/json")
    assert "listRecords" in too_long.json()["error"]["message"]


def test_list_records_by_post_pages_with_the_offset_in_the_body(many):
    orders, ids = many
    body = {"pageSize": 40, "maxRecords": 90, "fields": ["Name"], "sort": [{"field": "Name", "direction": "desc"}]}
    seen = []
    while True:
        reply = raw("POST", table_path(orders.name, "/listRecords?timeZone=UTC&userLocale=en"), body).json()
        seen += [r["id"] for r in reply["records"]]
        if "offset" not in reply:
            break
        body["offset"] = reply["offset"]
    assert seen == list(reversed(ids))[:90]


def test_offsets_do_not_survive_a_restart(extra_server):
    server = extra_server()
    path = f"/v0/{server.base_id}/Drink?pageSize=3"
    first = raw("GET", path, endpoint=server.endpoint).json()
    offset = first["offset"]
    server.stop()
    server.start()
    stale = raw("GET", path + "&offset=" + urllib.parse.quote(offset, safe=""), endpoint=server.endpoint)
    assert stale.status == 422
    assert stale.json() == {"error": {"type": "LIST_RECORDS_ITERATOR_NOT_AVAILABLE"}}


def test_bad_listing_parameters_are_refused(orders):
    orders.create({"Name": "x"})
    cases = [
        (dict(page_size=101), "INVALID_PAGE_SIZE_ARGUMENT"),
        (dict(offset="itrAAAAAAAAAAAAAA"), "INVALID_OFFSET_VALUE"),
        (dict(offset="itrAAAAAAAAAAAAAA/recAAAAAAAAAAAAAA"), "LIST_RECORDS_ITERATOR_NOT_AVAILABLE"),
        (dict(fields=["Nope"]), "UNKNOWN_FIELD_NAME"),
        (dict(sort=["Nope"]), "UNKNOWN_FIELD_NAME"),
        (dict(view="Kanban"), "VIEW_NAME_NOT_FOUND"),
        (dict(formula="{Nope}=1"), "INVALID_FILTER_BY_FORMULA"),
        (dict(cell_format="string"), "INVALID_REQUEST_UNKNOWN"),
        (dict(cell_format="xml"), "INVALID_REQUEST_UNKNOWN"),
    ]
    for options, error_type in cases:
        with pytest.raises(HTTPError) as refused:
            orders.all(**options)
        assert error_of(refused)[:2] == (422, error_type), options
    message = error_of(pytest.raises(HTTPError, orders.all, page_size=500))[2]
    assert message == "Page size argument should be between 0 and 100"
    assert raw("GET", table_path(orders.name, "?pageSize=0")).json() == {"records": []}
    assert raw("GET", table_path(orders.name, "?color=red")).error_type == "INVALID_REQUEST_UNKNOWN"
