"""Computed fields (formula, rollup, lookup, count, button, createdBy, lastModifiedBy) through
pyairtable: their schema as pydantic models, their values (in records, filters, sorts and
cellFormat=string), and raw HTTP for the errors (a write to one, a bad definition).

Airtable's API cannot create these fields (its UI does); `drinkshop serve` lets the base's owner create
them through the same create-field route (README: "Computed fields")."""

import json

import pyairtable.models.schema as models
import pytest
from requests import HTTPError

from conftest import BASE_ID, error_of, raw, table_path


def meta(rest=""):
    return f"/v0/meta/bases/{BASE_ID}/tables{rest}"


@pytest.fixture
def shop(api, base, make_table):
    """Drinks, and orders that link to them, with every computed type over the links."""
    drinks = make_table("Drinks", [{"name": "Name", "type": "singleLineText"},
                                   {"name": "Price", "type": "currency", "options": {"precision": 0, "symbol": "NT$"}}])
    drinks_id = drinks.schema().id
    orders = make_table("Orders", [
        {"name": "Who", "type": "singleLineText"},
        {"name": "Cups", "type": "number", "options": {"precision": 0}},
        {"name": "Drinks", "type": "multipleRecordLinks", "options": {"linkedTableId": drinks_id}},
    ])
    schema = orders.schema()
    link = schema.field("Drinks").id
    price = drinks.schema().field("Price").id
    made = {}
    for name, kind, options in [
        ("Label", "formula", {"formula": "{Who} & ' x' & {Cups}"}),
        ("Double", "formula", {"formula": "Cups * 2"}),
        ("Prices", "multipleLookupValues", {"recordLinkFieldId": link, "fieldIdInLinkedTable": price}),
        ("Total", "rollup", {"recordLinkFieldId": link, "fieldIdInLinkedTable": price, "formula": "SUM(values)"}),
        ("Bill", "formula", {"formula": "{Total} * {Cups}"}),
        ("Drink count", "count", {"recordLinkFieldId": link}),
        ("Ratio", "formula", {"formula": "{Cups} / 0"}),
        ("Broken", "formula", {"formula": "ERROR()"}),
        ("Open", "button", {"label": "Open order", "url": "'https://shop.example/o/' & RECORD_ID()"}),
        ("Made by", "createdBy", None),
        ("Changed by", "lastModifiedBy", None),
    ]:
        made[name] = orders.create_field(name, kind, options=options)
    return drinks, orders, made


def test_computed_fields_parse_as_their_own_pydantic_models(shop):
    _, orders, made = shop
    schema = orders.schema(force=True)
    expected = {
        "Label": models.FormulaFieldSchema, "Prices": models.MultipleLookupValuesFieldSchema,
        "Total": models.RollupFieldSchema, "Drink count": models.CountFieldSchema, "Open": models.ButtonFieldSchema,
        "Made by": models.CreatedByFieldSchema, "Changed by": models.LastModifiedByFieldSchema,
    }
    for name, cls in expected.items():
        assert isinstance(schema.field(name), cls), (name, schema.field(name))
    label = schema.field("Label").options
    who, cups = schema.field("Who").id, schema.field("Cups").id
    # Stored and reported with field ids, as Airtable reports formulas.
    assert label.formula == f"{{{who}}} & ' x' & {{{cups}}}"
    assert label.is_valid and label.referenced_field_ids == [who, cups]
    assert label.result.type == "singleLineText"
    assert schema.field("Double").options.result.type == "number"
    total = schema.field("Total").options
    assert total.record_link_field_id == schema.field("Drinks").id and total.result.type == "number"
    # The aggregation is the server's own option: Airtable's API never shows it.
    raw_total = next(f for f in raw("GET", meta()).json()["tables"] if f["id"] == schema.id)["fields"]
    assert "formula" not in next(f for f in raw_total if f["name"] == "Total")["options"]
    assert "options" not in next(f for f in raw_total if f["name"] == "Open")
    assert schema.field("Prices").options.result.type == "currency"
    assert schema.field("Drink count").options.record_link_field_id == schema.field("Drinks").id
    assert made["Label"].id == schema.field("Label").id


def test_computed_values_follow_the_cells_and_the_links(api, shop):
    drinks, orders, _ = shop
    black = drinks.create({"Name": "熟成紅茶", "Price": 30})
    milk = drinks.create({"Name": "熟成歐蕾", "Price": 55})
    order = orders.create({"Who": "Amy", "Cups": 2, "Drinks": [black["id"], milk["id"]]})
    fields = order["fields"]
    assert fields["Label"] == "Amy x2"
    assert fields["Double"] == 4
    assert fields["Prices"] == [30, 55]
    assert fields["Total"] == 85
    assert fields["Bill"] == 170
    assert fields["Drink count"] == 2
    assert fields["Ratio"] == {"specialValue": "Infinity"}
    assert fields["Broken"] == {"error": "#ERROR!"}
    assert fields["Open"] == {"label": "Open order", "url": f"https://shop.example/o/{order['id']}"}
    owner = api.whoami()
    assert fields["Made by"]["id"] == owner["id"] and fields["Changed by"]["id"] == owner["id"]
    # A change to a linked record shows at once in the lookup, the rollup and the formula over it.
    drinks.update(milk["id"], {"Price": 60})
    again = orders.get(order["id"])["fields"]
    assert again["Prices"] == [30, 60] and again["Total"] == 90 and again["Bill"] == 180
    orders.update(order["id"], {"Drinks": [black["id"]]})
    after = orders.get(order["id"])["fields"]
    assert after["Drink count"] == 1 and after["Total"] == 30


def test_formulas_filter_and_sort_on_computed_fields(shop):
    drinks, orders, _ = shop
    cheap = drinks.create({"Name": "cheap", "Price": 10})
    dear = drinks.create({"Name": "dear", "Price": 100})
    orders.create({"Who": "a", "Cups": 3, "Drinks": [cheap["id"]]})
    orders.create({"Who": "b", "Cups": 1, "Drinks": [dear["id"]]})
    orders.create({"Who": "c", "Cups": 1})
    assert [r["fields"]["Who"] for r in orders.all(formula="{Total} > 20")] == ["b"]
    assert [r["fields"]["Who"] for r in orders.all(formula="{Drink count} = 0")] == ["c"]
    assert [r["fields"]["Who"] for r in orders.all(sort=["-Bill"])] == ["b", "a", "c"]
    assert [r["fields"]["Who"] for r in orders.all(sort=["Label"])] == ["a", "b", "c"]


def test_cell_format_string_shows_computed_fields_as_their_results(shop):
    drinks, orders, _ = shop
    tea = drinks.create({"Name": "tea", "Price": 30})
    orders.create({"Who": "Amy", "Cups": 2, "Drinks": [tea["id"]]})
    [record] = orders.all(cell_format="string", time_zone="Asia/Taipei", user_locale="zh-tw")
    fields = record["fields"]
    assert fields["Prices"] == "NT$30"
    assert fields["Total"] == "30"
    assert fields["Broken"] == "#ERROR!"
    assert fields["Made by"] == fields["Changed by"] != ""


def test_writes_to_computed_fields_get_airtables_error(shop):
    _, orders, _ = shop
    for name, value in [("Label", "x"), ("Total", 3), ("Prices", [1]), ("Drink count", 2), ("Made by", None),
                        ("Open", {"label": "x"})]:
        with pytest.raises(HTTPError) as refused:
            orders.create({"Who": "z", name: value})
        assert error_of(refused) == (422, "INVALID_VALUE_FOR_COLUMN",
                                     f'Field "{name}" cannot accept a value because the field is computed')
    reply = raw("POST", table_path(orders.name), json.dumps({"fields": {"Who": "raw", "Double": 1}}))
    assert (reply.status, reply.error_type) == (422, "INVALID_VALUE_FOR_COLUMN")
    assert orders.all() == []


def test_bad_computed_field_definitions_are_refused_and_change_nothing(shop):
    _, orders, _ = shop
    table_id = orders.schema().id
    before = raw("GET", meta()).json()
    cases = [
        {"name": "F", "type": "formula", "options": {}},
        {"name": "F", "type": "formula", "options": {"formula": "{Nope} + 1"}},
        {"name": "F", "type": "formula", "options": {"formula": "SUM("}},
        {"name": "R", "type": "rollup", "options": {"recordLinkFieldId": "Who", "fieldIdInLinkedTable": "Price"}},
        {"name": "R", "type": "rollup", "options": {"recordLinkFieldId": "Drinks", "fieldIdInLinkedTable": "Nope"}},
        {"name": "L", "type": "multipleLookupValues", "options": {"fieldIdInLinkedTable": "Price"}},
        {"name": "C", "type": "count", "options": {"recordLinkFieldId": "fldNotThere000000"}},
        {"name": "B", "type": "button", "options": {"label": 3}},
    ]
    for body in cases:
        reply = raw("POST", meta(f"/{table_id}/fields"), json.dumps(body))
        assert reply.status == 422, (body, reply.body)
        assert reply.json()["error"]["message"], body
    assert raw("GET", meta()).json() == before
