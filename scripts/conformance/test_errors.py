"""Errors as pyairtable and raw clients see them (reference §7): 401, 403, the "missing" answers of
§7.4, the 422 variants, 429; each refused request changes nothing."""

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from pyairtable import Api
from requests import HTTPError

from conftest import BASE_ID, ENDPOINT, READ_TOKEN, WRITE_TOKEN, error_of, raw, table_path


def test_401_without_a_valid_token(orders):
    stranger = Api("patNOTATOKEN0000000.xyz", endpoint_url=ENDPOINT, retry_strategy=None)
    with pytest.raises(HTTPError) as refused:
        stranger.table(BASE_ID, orders.name).all()
    assert error_of(refused) == (401, "AUTHENTICATION_REQUIRED", "Authentication required")
    for headers in [{}, {"Authorization": "Basic " + WRITE_TOKEN}, {"Authorization": "Bearer"}]:
        reply = raw("GET", table_path(orders.name), token=None, headers=headers)
        assert reply.status == 401 and reply.error_type == "AUTHENTICATION_REQUIRED"
    assert raw("POST", table_path(orders.name), {"fields": {"Name": "x"}}, token="patWRONG").status == 401
    assert orders.all() == []


def test_403_when_a_read_only_token_writes(orders, reader):
    made = orders.create({"Name": "kept"})
    readable = reader.table(BASE_ID, orders.name)
    assert readable.all() == [made]
    assert readable.get(made["id"]) == made
    attempts = [
        lambda: readable.create({"Name": "no"}),
        lambda: readable.batch_create([{"Name": "no"}]),
        lambda: readable.update(made["id"], {"Name": "no"}),
        lambda: readable.update(made["id"], {"Name": "no"}, replace=True),
        lambda: readable.batch_upsert([{"fields": {"Name": "no"}}], key_fields=["Name"]),
        lambda: readable.delete(made["id"]),
        lambda: readable.batch_delete([made["id"]]),
        lambda: reader.base(BASE_ID).create_table("Nope", [{"name": "a", "type": "singleLineText"}]),
    ]
    for attempt in attempts:
        with pytest.raises(HTTPError) as refused:
            attempt()
        assert error_of(refused)[:2] == (403, "INVALID_PERMISSIONS")
    assert orders.all() == [made]
    assert "Nope" not in [t.name for t in reader.base(BASE_ID).tables(force=True)]


def test_missing_things_answer_as_airtable_does(orders, api):
    made = orders.create({"Name": "x"})
    cases = [
        (lambda: api.table(BASE_ID, "No such table").all(), (403, "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND")),
        (lambda: orders.get("recAAAAAAAAAAAAAA"), (403, "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND")),
        (lambda: orders.update("recAAAAAAAAAAAAAA", {"Name": "y"}), (403, "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND")),
        (lambda: orders.delete("recAAAAAAAAAAAAAA"), (403, "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND")),
        (lambda: orders.get("rec1"), (404, "NOT_FOUND")),
        (lambda: api.table("appAAAAAAAAAAAAAA", orders.name).all(), (404, "NOT_FOUND")),
        (lambda: orders.batch_update([{"id": made["id"], "fields": {"Name": "y"}},
                                      {"id": "recAAAAAAAAAAAAAA", "fields": {"Name": "z"}}]),
         (422, "ROW_DOES_NOT_EXIST")),
        (lambda: orders.batch_delete([made["id"], "recAAAAAAAAAAAAAA"]), (404, "NOT_FOUND")),
        (lambda: api.base("appAAAAAAAAAAAAAA").schema(), (403, "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND")),
    ]
    for attempt, expected in cases:
        with pytest.raises(HTTPError) as refused:
            attempt()
        assert error_of(refused)[:2] == expected
    assert raw("GET", table_path(orders.name, base_id="appAAAAAAAAAAAAAA")).json() == {"error": "NOT_FOUND"}
    delete = raw("DELETE", table_path(orders.name, f"?records%5B%5D={made['id']}&records%5B%5D=recAAAAAAAAAAAAAA"))
    assert delete.json() == {"error": {"type": "NOT_FOUND", "message": 'Could not find a record with ID "recAAAAAAAAAAAAAA".'}}
    assert orders.all() == [made]


def test_422_variants_change_nothing(orders):
    made = orders.create({"Name": "x", "Qty": 1})
    cases = [
        (lambda: orders.create({"Nope": 1}), "UNKNOWN_FIELD_NAME", 'Unknown field name: "Nope"'),
        (lambda: orders.create({"Qty": "many"}), "INVALID_VALUE_FOR_COLUMN", 'Field "Qty" cannot accept the provided value'),
        (lambda: orders.create({"Paid": "yes"}), "INVALID_VALUE_FOR_COLUMN", None),
        (lambda: orders.create({"Size": "XL"}), "INVALID_MULTIPLE_CHOICE_OPTIONS", None),
        (lambda: orders.update(made["id"], {"Qty": [1]}), "INVALID_VALUE_FOR_COLUMN", None),
        (lambda: orders.batch_create([{"Name": "ok"}, {"Qty": "x"}]), "INVALID_VALUE_FOR_COLUMN", "record 2"),
        (lambda: orders.get(made["id"], fields=["Name"]), "INVALID_REQUEST_UNKNOWN", "fields[]"),
    ]
    for attempt, error_type, message in cases:
        with pytest.raises(HTTPError) as refused:
            attempt()
        status, got_type, got_message = error_of(refused)
        assert (status, got_type) == (422, error_type)
        if message:
            assert message in got_message
    raw_cases = [
        ({"records": [{"fields": {"Name": "n"}}] * 11}, "INVALID_RECORDS"),
        ({"records": []}, "INVALID_RECORDS"),
        ({}, "INVALID_REQUEST_MISSING_FIELDS"),
        ({"fields": {"Name": "n"}, "typecast": "yes"}, "INVALID_REQUEST_UNKNOWN"),
    ]
    for body, error_type in raw_cases:
        reply = raw("POST", table_path(orders.name), body)
        assert (reply.status, reply.error_type) == (422, error_type), body
    bad_json = raw("POST", table_path(orders.name), b'{"fields": {"Name": "n",}}', headers={"Content-Type": "application/json"})
    assert bad_json.status == 400 and bad_json.error_type == "INVALID_REQUEST_BODY"
    assert orders.all() == [made]


def test_computed_fields_refuse_writes(make_table):
    table = make_table("Computed", [{"name": "Name", "type": "singleLineText"}, {"name": "N", "type": "autoNumber"},
                                    {"name": "Created", "type": "createdTime"}])
    first = table.create({"Name": "a"})
    assert first["fields"]["N"] == 1 and first["fields"]["Created"] == first["createdTime"]
    with pytest.raises(HTTPError) as refused:
        table.create({"N": 5})
    assert error_of(refused) == (422, "INVALID_VALUE_FOR_COLUMN",
                                 'Field "N" cannot accept a value because the field is computed')
    assert len(table.all()) == 1


def test_cors_preflight_and_head(orders):
    preflight = requests.options(ENDPOINT + table_path(orders.name), headers={
        "Origin": "https://kebuke.example", "Access-Control-Request-Method": "PATCH",
        "Access-Control-Request-Headers": "authorization,content-type,x-api-version"})
    assert preflight.status_code in (200, 204)
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert "PATCH" in preflight.headers["Access-Control-Allow-Methods"]
    assert "x-api-version" in preflight.headers["Access-Control-Allow-Headers"]
    head = requests.head(ENDPOINT + table_path(orders.name), headers={"Authorization": f"Bearer {READ_TOKEN}"})
    get = requests.get(ENDPOINT + table_path(orders.name), headers={"Authorization": f"Bearer {READ_TOKEN}"})
    assert head.status_code == 200 and head.content == b""
    assert head.headers["Content-Length"] == get.headers["Content-Length"]


def test_429_never_performs_the_write_and_pyairtable_retries_once(extra_server):
    server = extra_server(["--rate-limit", "2", "--rate-limit-penalty", "2"])
    path = f"/v0/{server.base_id}/User"
    # A burst sent at once, so it beats 2 requests a second however slow this machine is today.
    with ThreadPoolExecutor(max_workers=8) as pool:
        replies = list(pool.map(lambda n: raw("POST", path, {"fields": {"name": f"burst {n}"}}, endpoint=server.endpoint),
                                range(8)))
    statuses = [reply.status for reply in replies]
    for reply in replies:
        if reply.status == 429:
            assert reply.json() == {"error": {"type": "RATE_LIMIT_REACHED",
                                              "message": "Rate limit exceeded. Please try again later"}}
            assert int(reply.headers["retry-after"]) >= 1
    assert statuses.count(429) >= 1 and set(statuses) <= {200, 429}
    time.sleep(2.5)
    users = Api(WRITE_TOKEN, endpoint_url=server.endpoint).table(server.base_id, "User")
    names = sorted(r["fields"]["name"] for r in users.all() if r["fields"].get("name", "").startswith("burst"))
    assert len(names) == statuses.count(200), (statuses, names)
    # pyairtable retries 429s (POSTs included), waiting as Retry-After says: still exactly one record.
    time.sleep(2.5)
    with ThreadPoolExecutor(max_workers=6) as pool:
        limited = [reply.status for reply in pool.map(lambda _: raw("GET", path, endpoint=server.endpoint), range(6))]
    assert 429 in limited
    users.create({"name": "retried"})
    time.sleep(2.5)
    assert [r["fields"]["name"] for r in users.all(formula="{name}='retried'")] == ["retried"]
