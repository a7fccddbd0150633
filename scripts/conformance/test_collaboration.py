"""Issue 14's routes through pyairtable's own calls (comments, schema edits, links, collaborators,
webhooks, views), with raw HTTP for the error cases."""

import http.server
import json
import os
import threading
import time

import pytest
from pyairtable.api.api import Url
from pyairtable.models.webhook import WebhookNotification
from pyairtable.orm import Model
from pyairtable.orm import fields as f

from conftest import (BASE_ID, ENDPOINT, READ_TOKEN, WORK, WRITE_TOKEN, error_of, raw, table_path, unique)


def meta(rest=""):
    return f"/v0/meta/bases/{BASE_ID}/tables{rest}"


# ---- table names -------------------------------------------------------------------------------

def test_table_names_match_ignoring_case_when_no_name_matches_exactly(make_table):
    table = make_table("Case")
    table.create({"Name": "x"})
    name = table.name
    assert raw("GET", table_path(name.upper())).json()["records"][0]["fields"]["Name"] == "x"
    assert raw("GET", table_path(name + "x")).status == 403


# ---- schema edits ------------------------------------------------------------------------------

def test_table_and_field_schema_save_renames_and_describes(api, make_table):
    table = make_table("Rename")
    record = table.create({"Name": "Amy"})
    schema = table.schema()
    new_name = unique("Renamed")
    schema.name = new_name
    schema.description = "every cup"
    schema.save()
    renamed = api.table(BASE_ID, new_name)
    assert renamed.schema(force=True).description == "every cup"
    field = renamed.schema().field("Name")
    field.name = "Customer"
    field.description = "who ordered"
    field.save()
    assert renamed.get(record["id"])["fields"] == {"Customer": "Amy"}
    assert renamed.schema(force=True).field("Customer").description == "who ordered"


def test_bad_schema_edits_get_airtables_errors(make_table):
    table = make_table("BadRename")
    other = make_table("Other")
    table_id = table.schema().id
    reply = raw("PATCH", meta(f"/{table_id}"), json.dumps({"name": other.name.upper()}))
    assert (reply.status, reply.error_type) == (422, "DUPLICATE_TABLE_NAME")
    reply = raw("PATCH", meta(f"/{table_id}/fields/Qty"), json.dumps({"name": "notes"}))
    assert (reply.status, reply.error_type) == (422, "DUPLICATE_OR_EMPTY_FIELD_NAME")
    assert raw("PATCH", meta(f"/{table_id}"), "{}").status == 422
    assert raw("PATCH", meta(f"/{table_id}"), json.dumps({"description": "x" * 20001})).status == 422
    assert raw("PATCH", meta(f"/{table_id}/fields/Qty"), json.dumps({"type": "currency"})).status == 422
    assert raw("PATCH", meta(f"/{table_id}"), json.dumps({"name": "x"}), token=READ_TOKEN).status == 403
    assert raw("PATCH", meta("/tblAAAAAAAAAAAAAA"), json.dumps({"name": "x"})).status == 403
    assert table.schema(force=True).name == table.name


def test_base_collaborators(base):
    info = base.collaborators()
    assert info.id == BASE_ID
    assert [c.user_id for c in info.individual_collaborators.via_base] == [base.api.whoami()["id"]]


# ---- comments ----------------------------------------------------------------------------------

def test_comments_through_pyairtable(api, orders):
    record = orders.create({"Name": "Amy"})
    whoami = api.whoami()["id"]
    added = orders.add_comment(record["id"], f"for @[{whoami}]")
    assert added.author.id == whoami and added.mentioned[whoami].id == whoami
    orders.add_comment(record["id"], "second")
    comments = orders.comments(record["id"])
    assert [c.text for c in comments] == ["second", f"for @[{whoami}]"]
    assert orders.all(count_comments=True)[0]["commentCount"] == 2
    comments[1].text = "Never mind!"
    comments[1].save()
    assert comments[1].last_updated_time is not None and not comments[1].mentioned
    comments[1].delete()
    assert [c.text for c in orders.comments(record["id"])] == ["second"]
    orders.delete(record["id"])


def test_bad_comments(orders):
    record = orders.create({"Name": "Bo"})
    path = table_path(orders.name, f"/{record['id']}/comments")
    assert raw("POST", path, json.dumps({"text": " "})).status == 422
    assert raw("POST", path, json.dumps({"text": "hi"}), token=READ_TOKEN).status == 403
    assert raw("POST", table_path(orders.name, "/recAAAAAAAAAAAAAA/comments"), json.dumps({"text": "x"})).status == 403
    assert raw("PATCH", path + "/comAAAAAAAAAAAAAA", json.dumps({"text": "x"})).status == 403


# ---- linked records, collaborators, barcodes ----------------------------------------------------

@pytest.fixture
def linked(api, base):
    address = base.create_table(unique("Address"), [{"name": "Street", "type": "singleLineText"}])
    contact = base.create_table(unique("Contact"), [
        {"name": "Name", "type": "singleLineText"},
        {"name": "Address", "type": "multipleRecordLinks", "options": {"linkedTableId": address.id}},
        {"name": "Owner", "type": "singleCollaborator"},
        {"name": "Code", "type": "barcode"},
    ])
    return api.table(BASE_ID, address.name), api.table(BASE_ID, contact.name)


def test_links_keep_their_inverse_in_step(linked):
    addresses, contacts = linked
    inverse = addresses.schema(force=True).field(contacts.name)
    assert inverse.type == "multipleRecordLinks"
    assert inverse.options.inverse_link_field_id == contacts.schema().field("Address").id
    road, lane = addresses.batch_create([{"Street": "1 Tea Road"}, {"Street": "2 Milk Lane"}])
    amy = contacts.create({"Name": "Amy", "Address": [road["id"]]})
    assert addresses.get(road["id"])["fields"][contacts.name] == [amy["id"]]
    contacts.update(amy["id"], {"Address": [lane["id"]]})
    assert contacts.name not in addresses.get(road["id"])["fields"]
    assert contacts.all(formula="FIND('Milk', ARRAYJOIN({Address}))")[0]["id"] == amy["id"]
    addresses.delete(lane["id"])
    assert "Address" not in contacts.get(amy["id"])["fields"]


def test_collaborators_and_barcodes(api, linked):
    _, contacts = linked
    whoami = api.whoami()
    record = contacts.create({"Name": "Cy", "Owner": {"id": whoami["id"]}, "Code": {"text": "4710088", "type": "ean13"}})
    assert record["fields"]["Owner"]["id"] == whoami["id"]
    assert record["fields"]["Code"] == {"text": "4710088", "type": "ean13"}


def test_bad_links_get_airtables_errors(linked, orders):
    _, contacts = linked
    order = orders.create({"Name": "x"})
    reply = raw("POST", table_path(contacts.name), json.dumps({"fields": {"Address": [order["id"]]}}))
    assert (reply.status, reply.error_type) == (422, "ROW_DOES_NOT_EXIST")
    reply = raw("POST", table_path(contacts.name), json.dumps({"fields": {"Address": ["nope"]}}))
    assert (reply.status, reply.error_type) == (422, "INVALID_RECORD_ID")
    reply = raw("POST", table_path(contacts.name), json.dumps({"fields": {"Owner": {"id": "usrAAAAAAAAAAAAAA"}}}))
    assert (reply.status, reply.error_type) == (422, "INVALID_VALUE_FOR_COLUMN")
    assert contacts.all() == []


def test_orm_link_fields(linked):
    addresses, contacts = linked

    class Address(Model):
        Meta = {"api_key": WRITE_TOKEN, "base_id": BASE_ID, "table_name": addresses.name}
        street = f.TextField("Street")

    class Contact(Model):
        Meta = {"api_key": WRITE_TOKEN, "base_id": BASE_ID, "table_name": contacts.name}
        name = f.TextField("Name")
        address = f.LinkField("Address", Address)

    # The ORM has no endpoint option; its one Api object is pointed at the server instead.
    Address.meta.api.endpoint_url = Url(ENDPOINT)
    Contact.meta.api.endpoint_url = Url(ENDPOINT)
    home = Address(street="3 Boba Way")
    home.save()
    amy = Contact(name="Amy", address=[home])
    amy.save()
    fetched = Contact.from_id(amy.id)
    assert fetched.address[0].street == "3 Boba Way"


# ---- webhooks ----------------------------------------------------------------------------------

class _Receiver(http.server.BaseHTTPRequestHandler):
    received = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        _Receiver.received.append((body.decode(), self.headers.get("X-Airtable-Content-MAC")))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    # `run` named this port to serve with --webhook-allow; any other loopback port is refused.
    port = int(os.environ.get("DRINKSHOP_WEBHOOK_RECEIVER_PORT", "0"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Receiver.received = []
    yield f"http://127.0.0.1:{server.server_address[1]}/ping"
    server.shutdown()
    server.server_close()


def test_webhooks_payloads_and_pings(base, orders, receiver):
    table_id = orders.schema().id
    created = base.add_webhook(receiver, {"options": {"filters": {"dataTypes": ["tableData"],
                                                                  "recordChangeScope": table_id}}})
    try:
        record = orders.create({"Name": "Hey there!"})
        for index in range(3):
            orders.update(record["id"], {"Name": str(index)})
        webhook = base.webhook(created.id)
        payloads = list(webhook.payloads())
        assert len(payloads) == 4
        name_id = orders.schema().field("Name").id
        assert payloads[0].changed_tables_by_id[table_id].created_records_by_id[record["id"]] \
            .cell_values_by_field_id == {name_id: "Hey there!"}
        later = list(webhook.payloads(cursor=payloads[0].cursor + 1))
        assert [p.changed_tables_by_id[table_id].changed_records_by_id[record["id"]]
                .current.cell_values_by_field_id[name_id] for p in later] == ["0", "1", "2"]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not _Receiver.received:
            time.sleep(0.05)
        assert _Receiver.received, "no notification reached the receiver"
        body, mac = _Receiver.received[0]
        note = WebhookNotification.from_request(body, mac, created.mac_secret_base64)
        assert note.base.id == BASE_ID and note.webhook.id == created.id
        webhook.disable_notifications()
        webhook.extend_expiration()
        assert not base.webhook(created.id).are_notifications_enabled
    finally:
        for hook in base.webhooks():
            hook.delete()
    assert base.webhooks() == []


def test_bad_webhooks_get_airtables_errors(base):
    path = f"/v0/bases/{BASE_ID}/webhooks"
    spec = {"options": {"filters": {"dataTypes": ["tableData"]}}}
    reply = raw("POST", path, json.dumps({"notificationUrl": "ftp://example.com/", "specification": spec}))
    assert reply.status == 422
    for url in ["http://example.com/", "https://127.0.0.1/", "https://user:pw@example.com/"]:
        reply = raw("POST", path, json.dumps({"notificationUrl": url, "specification": spec}))
        assert reply.status == 422, url
    unknown = {"options": {"filters": {"dataTypes": ["tableData"], "colour": "red"}}}
    reply = raw("POST", path, json.dumps({"specification": unknown}))
    assert reply.status == 422 and json.loads(reply.body)["error"]["type"] == "INVALID_REQUEST_UNKNOWN"
    created = base.add_webhook("https://example.com/", spec)
    try:
        reply = raw("GET", f"{path}/{created.id}/payloads?cursor=99")
        assert reply.status == 422
        assert raw("GET", f"{path}/achAAAAAAAAAAAAAA/payloads").status == 404
        assert raw("POST", path, json.dumps({"specification": spec}), token=READ_TOKEN).status == 403
    finally:
        base.webhook(created.id).delete()


# ---- views (DrinkShop's own way to define them: serve --views FILE) ------------------------------

def test_views_defined_by_the_owner(extra_server, tmp_path):
    views = tmp_path / "views.json"
    views.write_text(json.dumps({"views": [{
        "table": "Drink", "name": "Dear ones", "filterByFormula": "{medium} >= 60",
        "sort": [{"field": "medium", "direction": "desc"}], "hiddenFields": ["description"]}]}))
    server = extra_server(["--views", str(views)])
    from pyairtable import Api
    api = Api(WRITE_TOKEN, endpoint_url=server.endpoint)
    drinks = api.table(server.base_id, "Drink")
    everything = drinks.all()
    listed = drinks.all(view="Dear ones")
    assert listed and len(listed) < len(everything)
    prices = [r["fields"]["medium"] for r in listed]
    assert prices == sorted(prices, reverse=True) and min(prices) >= 60
    schema = drinks.schema()
    view = schema.view("Dear ones")
    assert schema.field("description").id not in view.visible_field_ids
    reply = raw("GET", table_path("Drink", "?view=Nope", base_id=server.base_id), endpoint=server.endpoint)
    assert (reply.status, reply.error_type) == (422, "VIEW_NAME_NOT_FOUND")


def test_a_bad_views_file_stops_the_server(tmp_path):
    import subprocess
    from conftest import BINARY, TOKENS
    views = tmp_path / "views.json"
    views.write_text(json.dumps({"views": [{"table": "Drink", "name": "x", "hiddenFields": ["nope"]}]}))
    result = subprocess.run([BINARY, "serve", "--db", str(tmp_path / "v.sqlite"), "--create", "--port", "0", "--tokens", TOKENS,
                             "--views", str(views)], capture_output=True, timeout=60)
    assert result.returncode != 0
    assert b"nope" in result.stderr
