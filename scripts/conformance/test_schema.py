"""The metadata routes through pyairtable's pydantic models: `table.schema()`, `Table.id`,
`base.tables()`, `create_table`, `create_field`, `whoami`, `bases` (reference §1.1, §11.6)."""

import pyairtable.models.schema as models
import pytest

from conftest import BASE_ID, ORDER_FIELDS

EXPECTED_CLASS = {
    "singleLineText": models.SingleLineTextFieldSchema, "multilineText": models.MultilineTextFieldSchema,
    "richText": models.RichTextFieldSchema, "email": models.EmailFieldSchema, "url": models.UrlFieldSchema,
    "phoneNumber": models.PhoneNumberFieldSchema, "number": models.NumberFieldSchema,
    "currency": models.CurrencyFieldSchema, "percent": models.PercentFieldSchema,
    "duration": models.DurationFieldSchema, "rating": models.RatingFieldSchema, "checkbox": models.CheckboxFieldSchema,
    "singleSelect": models.SingleSelectFieldSchema, "multipleSelects": models.MultipleSelectsFieldSchema,
    "date": models.DateFieldSchema, "dateTime": models.DateTimeFieldSchema,
    "multipleAttachments": models.MultipleAttachmentsFieldSchema, "autoNumber": models.AutoNumberFieldSchema,
    "createdTime": models.CreatedTimeFieldSchema, "lastModifiedTime": models.LastModifiedTimeFieldSchema,
    "multipleRecordLinks": models.MultipleRecordLinksFieldSchema,
    "singleCollaborator": models.SingleCollaboratorFieldSchema,
    "multipleCollaborators": models.MultipleCollaboratorsFieldSchema, "barcode": models.BarcodeFieldSchema,
    "formula": models.FormulaFieldSchema, "rollup": models.RollupFieldSchema,
    "multipleLookupValues": models.MultipleLookupValuesFieldSchema, "count": models.CountFieldSchema,
    "button": models.ButtonFieldSchema, "createdBy": models.CreatedByFieldSchema,
    "lastModifiedBy": models.LastModifiedByFieldSchema,
}


def assert_typed(table_schema):
    """Every field parsed as its own pydantic class, not the untyped fallback pyairtable uses when
    options are missing."""
    for field in table_schema.fields:
        assert not isinstance(field, models.UnknownFieldSchema), f"{table_schema.name}.{field.name}: {field._raw}"
        assert isinstance(field, EXPECTED_CLASS[field.type]), f"{table_schema.name}.{field.name} is {type(field)}"


def test_the_shops_own_tables_parse_completely(base):
    schema = base.schema(force=True)
    names = [t.name for t in schema.tables]
    for expected in ["Drink", "OrderDrink", "User", "Promotion", "PickupTicket"]:
        assert expected in names
    for table in schema.tables:
        assert_typed(table)
        assert table.primary_field_id == table.fields[0].id
        view = table.views[0]
        assert view.type == "grid" and view.visible_field_ids == [f.id for f in table.fields]
    order = schema.table("OrderDrink")
    assert [c.name for c in order.field("size").options.choices] == ["中杯", "大杯"]
    assert all(c.id.startswith("sel") for c in order.field("ice").options.choices)


def test_every_field_type_created_without_options_parses(base):
    # Every type with no options, but a link, which must name the table it links to, and the computed
    # types that must name what they compute (test_computed_fields.py makes those).
    needs_options = {"multipleRecordLinks", "formula", "rollup", "multipleLookupValues", "count"}
    fields = [{"name": f"f {kind}", "type": kind} for kind in EXPECTED_CLASS if kind not in needs_options]
    fields.append({"name": "f link", "type": "multipleRecordLinks", "options": {"linkedTableId": "Drink"}})
    table = base.create_table("Every field type", fields, description="one of each")
    schema = table.schema()
    assert schema.description == "one of each"
    assert_typed(schema)
    assert schema.field("f checkbox").options.icon == "check"
    assert schema.field("f rating").options.max == 5
    assert schema.field("f currency").options.symbol == "$"
    assert schema.field("f dateTime").options.time_format.name == "24hour"
    assert schema.field("f date").options.date_format.format == "YYYY-MM-DD"
    assert schema.field("f multipleAttachments").options.is_reversed is False
    assert schema.field("f lastModifiedTime").options.is_valid is True
    assert schema.field("f link").options.prefers_single_record_link is False
    assert base.table("Drink").schema(force=True).field("Every field type").options.inverse_link_field_id \
        == schema.field("f link").id


def test_table_schema_and_id_by_name(api, base, orders):
    schema = orders.schema()
    assert schema.name == orders.name
    assert [f.name for f in schema.fields] == [f["name"] for f in ORDER_FIELDS]
    assert_typed(schema)
    assert orders.id == schema.id and orders.id.startswith("tbl")
    # Table.id by name, from a fresh client: GET …/tables?include=visibleFieldIds.
    assert api.table(BASE_ID, orders.name).id == schema.id
    by_id = api.table(BASE_ID, schema.id)
    assert by_id.id == schema.id
    by_id.create({"Name": "by table id"})
    assert [r["fields"]["Name"] for r in orders.all()] == ["by table id"]
    assert orders.name in [t.name for t in base.tables(force=True)]


def test_create_field_returns_a_typed_field(orders):
    field = orders.create_field("Done", "checkbox", description="served")
    assert isinstance(field, models.CheckboxFieldSchema)
    assert field.options.color == "greenBright"
    rating = orders.create_field("Stars", "rating", options={"max": 10, "icon": "heart", "color": "redBright"})
    assert (rating.options.max, rating.options.icon) == (10, "heart")
    assert orders.schema(force=True).field("Done").description == "served"
    assert orders.create({"Done": True, "Stars": 7})["fields"] == {"Done": True, "Stars": 7}


def test_whoami_and_bases(api, reader):
    me = api.whoami()
    assert me["id"].startswith("usr")
    assert "data.records:write" in me["scopes"]
    assert "data.records:write" not in reader.whoami()["scopes"]
    bases = api.bases()
    assert [b.id for b in bases] == [BASE_ID]
    assert bases[0].permission_level == "create"


@pytest.mark.parametrize("bad", [
    {"name": "x", "type": "formula"},
    {"name": "x", "type": "date", "options": {"dateFormat": {"name": "martian"}}},
    {"name": "", "type": "number"},
])
def test_bad_field_specs_are_refused(orders, bad):
    from requests import HTTPError
    with pytest.raises(HTTPError) as refused:
        orders.create_field(bad["name"], bad["type"], options=bad.get("options"))
    assert refused.value.response.status_code == 422
    assert bad["name"] == "" or "x" not in [f.name for f in orders.schema(force=True).fields]
