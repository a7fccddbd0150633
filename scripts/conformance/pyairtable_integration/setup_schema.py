"""Makes, on a fresh `drinkshop serve`, the tables pyairtable's integration suite expects of its test
base (tests/integration/conftest.py and test_integration_orm.py name them), and writes their ids and
the suite's view to the files given. This is the suite's "schema set-up"; the tests are not changed.

    python setup_schema.py ENDPOINT BASE_ID TOKEN IDS_JSON VIEWS_JSON
"""

import json
import sys

from pyairtable import Api

endpoint, base_id, token, ids_path, views_path = sys.argv[1:6]
base = Api(token, endpoint_url=endpoint).base(base_id)


def choices(*names):
    return {"choices": [{"name": name} for name in names]}


test_table = base.create_table("TEST_TABLE", [
    {"name": "text", "type": "singleLineText"},
    {"name": "number", "type": "number", "options": {"precision": 1}},
    {"name": "boolean", "type": "checkbox"},
    {"name": "datetime", "type": "dateTime", "options": {"timeZone": "utc"}},
    {"name": "attachment", "type": "multipleAttachments"},
])
address = base.create_table("Address", [
    {"name": "Street", "type": "singleLineText"},
    {"name": "Number", "type": "number", "options": {"precision": 0}},
])
contact = base.create_table("Contact", [
    {"name": "First Name", "type": "singleLineText"},
    {"name": "Last Name", "type": "singleLineText"},
    {"name": "Email", "type": "email"},
    {"name": "Registered", "type": "checkbox"},
    {"name": "Address", "type": "multipleRecordLinks", "options": {"linkedTableId": address.id}},
    {"name": "Birthday", "type": "date"},
    {"name": "Last Access", "type": "dateTime", "options": {"timeZone": "utc"}},
])
# The ORM test's "every field" table; its computed fields (formula, rollup, lookup, count, button,
# createdBy, lastModifiedBy) are added below, once "Link to Self" exists.
everything = base.create_table("Everything", [
    {"name": "Name", "type": "singleLineText"},
    {"name": "Notes", "type": "richText"},
    {"name": "Assignee", "type": "singleCollaborator"},
    {"name": "Watchers", "type": "multipleCollaborators"},
    {"name": "Status", "type": "singleSelect", "options": choices("Todo", "Done")},
    {"name": "Attachments", "type": "multipleAttachments"},
    {"name": "Done", "type": "checkbox"},
    {"name": "Tags", "type": "multipleSelects", "options": choices("a", "b")},
    {"name": "Date", "type": "date"},
    {"name": "DateTime", "type": "dateTime", "options": {"timeZone": "utc"}},
    {"name": "Duration (h:mm)", "type": "duration", "options": {"durationFormat": "h:mm"}},
    {"name": "Duration (h:mm:ss.s)", "type": "duration", "options": {"durationFormat": "h:mm:ss.S"}},
    {"name": "Phone", "type": "phoneNumber"},
    {"name": "Email", "type": "email"},
    {"name": "URL", "type": "url"},
    {"name": "Integer", "type": "number", "options": {"precision": 0}},
    {"name": "Decimal 1", "type": "number", "options": {"precision": 1}},
    {"name": "Decimal 2", "type": "number", "options": {"precision": 2}},
    {"name": "Number", "type": "number", "options": {"precision": 0}},
    {"name": "Autonumber", "type": "autoNumber"},
    {"name": "Dollars", "type": "currency", "options": {"precision": 2, "symbol": "$"}},
    {"name": "Percent", "type": "percent", "options": {"precision": 0}},
    {"name": "Stars", "type": "rating", "options": {"max": 5}},
    {"name": "Barcode", "type": "barcode"},
    {"name": "Address", "type": "multipleRecordLinks", "options": {"linkedTableId": address.id}},
    {"name": "Created", "type": "createdTime"},
    {"name": "Last Modified", "type": "lastModifiedTime"},
])
# "Link to Self" links Everything to itself (no inverse field, as in Airtable).
import requests  # noqa: E402



def add_field(name, type, options=None):
    body = {"name": name, "type": type}
    if options is not None:
        body["options"] = options
    response = requests.post(f"{endpoint}/v0/meta/bases/{base_id}/tables/{everything.id}/fields",
                             headers={"Authorization": f"Bearer {token}"}, json=body)
    if not response.ok:
        sys.exit(f"creating field {name!r} failed: {response.status_code} {response.text}")
    return response.json()["id"]


link_to_self = add_field("Link to Self", "multipleRecordLinks",
                         {"linkedTableId": everything.id, "prefersSingleRecordLink": True})
# Computed fields: Airtable's API cannot create them (its UI does); `drinkshop serve` lets the base's
# owner make them through the same route, a rollup's aggregation and a button's label and URL included.
address_link = everything.schema().field("Address").id
add_field("Open URL", "button", {"label": "Open URL", "url": "'https://example.com/r/' & RECORD_ID()"})
formula_int = add_field("Formula Int", "formula", {"formula": "{Autonumber} * 10"})
add_field("Formula Float", "formula", {"formula": "{Autonumber} / 4"})
add_field("Formula Text", "formula", {"formula": "'Record ' & RECORD_ID()"})
formula_error = add_field("Formula Error", "formula", {"formula": "ERROR()"})
add_field("Formula NaN", "formula", {"formula": "0 / 0"})
add_field("Link to Self (Count)", "count", {"recordLinkFieldId": link_to_self})
add_field("Count", "count", {"recordLinkFieldId": address_link})
add_field("Rollup Int", "rollup", {"recordLinkFieldId": link_to_self, "fieldIdInLinkedTable": formula_int,
                                   "formula": "SUM(values)"})
add_field("Rollup Error", "rollup", {"recordLinkFieldId": link_to_self, "fieldIdInLinkedTable": formula_error,
                                     "formula": "SUM(values)"})
add_field("Lookup Int", "multipleLookupValues", {"recordLinkFieldId": link_to_self,
                                                 "fieldIdInLinkedTable": formula_int})
add_field("Lookup Error", "multipleLookupValues", {"recordLinkFieldId": link_to_self,
                                                   "fieldIdInLinkedTable": formula_error})
add_field("Created By", "createdBy")
add_field("Last Modified By", "lastModifiedBy")

schema = base.table(test_table.id).schema(force=True)
ids = {
    "base_id": base_id,
    "table_id": test_table.id,
    "TEXT_ID": schema.field("text").id,
    "NUM_ID": schema.field("number").id,
    "ATTACHMENT_ID": schema.field("attachment").id,
}
with open(ids_path, "w") as out:
    json.dump(ids, out)
with open(views_path, "w") as out:
    json.dump({"views": [{"table": "TEST_TABLE", "name": "view"}]}, out)
