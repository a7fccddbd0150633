"""Create, read, update, delete and upsert through pyairtable (reference §3-§6, §11.3)."""

import re
from datetime import datetime, timezone

import pytest
from requests import HTTPError

from conftest import BASE_ID, error_of, raw, table_path

RECORD_ID = re.compile(r"^rec[0-9A-Za-z]{14}$")
CREATED_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


def test_create_get_update_replace_delete_one_record(orders):
    created = orders.create({"Name": "白玉歐蕾", "Qty": 2, "Paid": False, "Notes": None, "Size": "大杯",
                             "AddOns": ["加白玉"], "Day": "2026-11-29", "At": "2026-11-29T06:30:00.000Z"})
    assert RECORD_ID.match(created["id"])
    assert CREATED_TIME.match(created["createdTime"])
    created_at = datetime.fromisoformat(created["createdTime"].replace("Z", "+00:00"))
    assert abs((datetime.now(timezone.utc) - created_at).total_seconds()) < 600
    # Empty cells (false, null) are left out.
    assert created["fields"] == {"Name": "白玉歐蕾", "Qty": 2, "Size": "大杯", "AddOns": ["加白玉"],
                                 "Day": "2026-11-29", "At": "2026-11-29T06:30:00.000Z"}

    fetched = orders.get(created["id"])
    assert fetched == created

    patched = orders.update(created["id"], {"Qty": 3, "Paid": True})
    assert patched["fields"]["Qty"] == 3 and patched["fields"]["Paid"] is True
    assert patched["fields"]["Name"] == "白玉歐蕾"

    replaced = orders.update(created["id"], {"Qty": 4}, replace=True)
    assert replaced["fields"] == {"Qty": 4}
    assert orders.get(created["id"])["fields"] == {"Qty": 4}

    assert orders.delete(created["id"]) == {"id": created["id"], "deleted": True}
    with pytest.raises(HTTPError) as missing:
        orders.get(created["id"])
    assert error_of(missing)[:2] == (403, "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND")


def test_batches_of_more_than_ten_are_split_and_keep_request_order(orders):
    names = [f"cup {n:02d}" for n in range(23)]
    created = orders.batch_create([{"Name": name, "Qty": n} for n, name in enumerate(names)])
    assert [r["fields"]["Name"] for r in created] == names
    assert len({r["id"] for r in created}) == 23
    assert [r["fields"]["Name"] for r in orders.all()] == names

    updated = orders.batch_update([{"id": r["id"], "fields": {"Qty": 100 + n}} for n, r in enumerate(created)])
    assert [r["id"] for r in updated] == [r["id"] for r in created]
    assert [r["fields"]["Qty"] for r in orders.all()] == [100 + n for n in range(23)]
    assert all(r["fields"]["Name"] == names[n] for n, r in enumerate(updated))

    replaced = orders.batch_update([{"id": r["id"], "fields": {"Notes": "only"}} for r in created[:12]], replace=True)
    assert all(r["fields"] == {"Notes": "only"} for r in replaced)

    deleted = orders.batch_delete([r["id"] for r in created[:21]])
    assert deleted == [{"id": r["id"], "deleted": True} for r in created[:21]]
    assert [r["fields"]["Name"] for r in orders.all()] == names[21:]


def test_upsert_creates_updates_in_request_order_and_reports_which(orders):
    first = orders.batch_upsert([{"fields": {"Key": f"K{n}", "Qty": n}} for n in range(12)], key_fields=["Key"])
    assert len(first["createdRecords"]) == 12 and first["updatedRecords"] == []
    assert [r["fields"]["Key"] for r in first["records"]] == [f"K{n}" for n in range(12)]
    ids = {r["fields"]["Key"]: r["id"] for r in first["records"]}

    second = orders.batch_upsert([
        {"fields": {"Key": "K12", "Qty": 12}},
        {"fields": {"Key": "K3", "Qty": 33}},
        {"id": ids["K5"], "fields": {"Qty": 55}},
    ], key_fields=["Key"])
    assert [r["fields"]["Key"] for r in second["records"]] == ["K12", "K3", "K5"]
    assert second["createdRecords"] == [second["records"][0]["id"]]
    assert sorted(second["updatedRecords"]) == sorted([ids["K3"], ids["K5"]])
    assert orders.get(ids["K3"])["fields"]["Qty"] == 33
    assert len(orders.all()) == 13

    # replace=True is a PUT upsert: the matched record keeps only what was sent.
    put = orders.batch_upsert([{"fields": {"Key": "K7", "Notes": "replaced"}}], key_fields=["Key"], replace=True)
    assert put["updatedRecords"] == [ids["K7"]]
    assert orders.get(ids["K7"])["fields"] == {"Key": "K7", "Notes": "replaced"}


def test_upsert_on_several_fields_and_failures_change_nothing(orders):
    orders.batch_create([{"Key": "dup", "Qty": 1}, {"Key": "dup", "Qty": 1}, {"Key": "one", "Qty": 2}])
    before = orders.all()
    both = orders.batch_upsert([{"fields": {"Key": "one", "Qty": 2, "Notes": "matched"}}], key_fields=["Key", "Qty"])
    assert len(both["updatedRecords"]) == 1
    before = orders.all()
    with pytest.raises(HTTPError) as many:
        orders.batch_upsert([{"fields": {"Key": "one", "Notes": "x"}}, {"fields": {"Key": "dup", "Notes": "x"}}],
                            key_fields=["Key"])
    assert error_of(many)[0] == 422
    assert "matches 2 records" in error_of(many)[2]
    with pytest.raises(HTTPError) as missing_id:
        orders.batch_upsert([{"fields": {"Key": "new"}}, {"id": "recAAAAAAAAAAAAAA", "fields": {"Qty": 1}}],
                            key_fields=["Key"])
    assert error_of(missing_id)[:2] == (422, "ROW_DOES_NOT_EXIST")
    assert orders.all() == before


def test_typecast_nulls_and_field_ids(orders, api):
    with pytest.raises(HTTPError) as strict:
        orders.create({"Size": "特大杯"})
    assert error_of(strict) == (422, "INVALID_MULTIPLE_CHOICE_OPTIONS",
                                'Insufficient permissions to create new select option ""特大杯""')
    cast = orders.create({"Size": "特大杯", "Qty": "3", "Paid": "true", "AddOns": "加白玉, 加椰果"}, typecast=True)
    assert cast["fields"] == {"Size": "特大杯", "Qty": 3, "Paid": True, "AddOns": ["加白玉", "加椰果"]}
    size = orders.schema(force=True).field("Size")
    assert [choice.name for choice in size.options.choices] == ["中杯", "大杯", "特大杯"]

    cleared = orders.update(cast["id"], {"Qty": None, "AddOns": []})
    assert "Qty" not in cleared["fields"] and "AddOns" not in cleared["fields"]

    schema = orders.schema()
    by_id = orders.create({schema.field("Name").id: "by id"}, use_field_ids=True)
    assert by_id["fields"] == {schema.field("Name").id: "by id"}
    ids_api = type(api)(api.api_key, endpoint_url=api.endpoint_url, use_field_ids=True)
    ids_table = ids_api.table(BASE_ID, orders.name)
    assert ids_table.get(by_id["id"])["fields"] == {schema.field("Name").id: "by id"}
    assert {schema.field("Name").id: "by id"} in [r["fields"] for r in ids_table.all()]
    assert orders.get(by_id["id"], use_field_ids=False)["fields"] == {"Name": "by id"}


def test_attachments_get_ids_and_filenames(orders):
    record = orders.create({"Photo": [{"url": "https://example.com/img/white-jade.jpg"}]})
    photo = record["fields"]["Photo"][0]
    assert photo["url"] == "https://example.com/img/white-jade.jpg"
    assert photo["id"].startswith("att") and photo["filename"] == "white-jade.jpg"


def test_count_comments_adds_comment_count(orders):
    orders.create({"Name": "x"})
    assert [r["commentCount"] for r in orders.all(count_comments=True)] == [0]
    assert "commentCount" not in orders.all()[0]


def test_too_many_records_in_one_raw_request_are_refused_whole(orders):
    body = {"records": [{"fields": {"Name": f"n{n}"}} for n in range(11)]}
    reply = raw("POST", table_path(orders.name), body)
    assert reply.status == 422 and reply.error_type == "INVALID_RECORDS"
    deleting = "&".join(f"records%5B%5D=recAAAAAAAAAAAA{n:02d}" for n in range(11))
    assert raw("DELETE", table_path(orders.name, "?" + deleting)).error_type == "INVALID_RECORDS"
    assert orders.all() == []
