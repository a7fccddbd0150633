"""pyairtable's ORM against the server: it writes with typecast, parses createdTime itself, and reads
missing cells as empty values (reference §11.6)."""

from datetime import datetime, timezone

from pyairtable.api.api import Url
from pyairtable.formulas import match
from pyairtable.orm import Model
from pyairtable.orm import fields as F

from conftest import BASE_ID, ENDPOINT, WRITE_TOKEN


def order_model(table_name):
    class Order(Model):
        name = F.TextField("Name")
        qty = F.IntegerField("Qty")
        paid = F.CheckboxField("Paid")
        size = F.SelectField("Size")
        add_ons = F.MultipleSelectField("AddOns")
        at = F.DatetimeField("At")

        Meta = {"base_id": BASE_ID, "table_name": table_name, "api_key": WRITE_TOKEN}

    # The ORM has no endpoint option; its one Api object is pointed at the server instead.
    Order.meta.api.endpoint_url = Url(ENDPOINT)
    return Order


def test_orm_saves_reads_updates_and_deletes(orders):
    Order = order_model(orders.name)
    first = Order(name="白玉歐蕾", qty=2, paid=True, size="大杯", add_ons=["加白玉"],
                  at=datetime(2026, 11, 29, 6, 30, tzinfo=timezone.utc))
    first.save()
    assert first.id.startswith("rec")
    assert abs((datetime.now(timezone.utc) - first.created_time).total_seconds()) < 600
    # typecast (the ORM's default) adds the new option.
    Order(name="second", qty=1, size="特大杯").save()

    everything = Order.all(sort=["Name"])
    assert [o.name for o in everything] == ["second", "白玉歐蕾"]
    second = everything[0]
    assert second.paid is False and second.add_ons == [] and second.at is None
    found = Order.first(formula=match({"Name": "白玉歐蕾"}))
    assert found.id == first.id and found.at == datetime(2026, 11, 29, 6, 30, tzinfo=timezone.utc)
    assert found.add_ons == ["加白玉"] and found.size == "大杯"

    found.qty = 5
    found.add_ons.append("加水玉")
    found.save()
    assert orders.get(first.id)["fields"]["AddOns"] == ["加白玉", "加水玉"]
    assert Order.from_id(first.id).qty == 5

    second.delete()
    assert [o.name for o in Order.all()] == ["白玉歐蕾"]
