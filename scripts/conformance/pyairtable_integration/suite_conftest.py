"""Stands in for pyairtable's tests/integration/conftest.py when the suite runs against `drinkshop
serve` (scripts/conformance/pyairtable-integration): the same fixtures, with only the endpoint and the
test base's ids and names changed. Written for DrinkShop; no pyairtable code is copied here."""

import json
import os

import pytest

import pyairtable
from pyairtable import Api, Base, Table  # noqa: F401

ENDPOINT = os.environ["DRINKSHOP_ENDPOINT"]
IDS = json.load(open(os.environ["DRINKSHOP_INTEGRATION_IDS"]))

# Every Api the suite makes (its own fixtures, the ORM's Meta) talks to drinkshop serve.
pyairtable.Api.__init__.__kwdefaults__["endpoint_url"] = ENDPOINT


@pytest.fixture
def valid_img_url():
    return "https://github.com/gtalarico/pyairtable/raw/9f243cb0935ad7112859f990434612efdaf49c67/docs/source/_static/logo.png"


class Columns:
    TEXT = "text"
    TEXT_ID = IDS["TEXT_ID"]
    NUM = "number"
    NUM_ID = IDS["NUM_ID"]
    BOOL = "boolean"
    DATETIME = "datetime"
    ATTACHMENT = "attachment"
    ATTACHMENT_ID = IDS["ATTACHMENT_ID"]


@pytest.fixture
def cols() -> Columns:
    return Columns()


@pytest.fixture
def api_key():
    try:
        return os.environ["AIRTABLE_API_KEY"]
    except KeyError:
        pytest.skip("integration test requires AIRTABLE_API_KEY")


@pytest.fixture
def api(api_key) -> Api:
    return Api(api_key)


@pytest.fixture
def base_id():
    return IDS["base_id"]


@pytest.fixture
def base(api, base_id) -> Base:
    return api.base(base_id)


@pytest.fixture
def base_name():
    return "DrinkShop"


@pytest.fixture
def table_name():
    return "TEST_TABLE"


@pytest.fixture
def table_id():
    return IDS["table_id"]


@pytest.fixture
def table(base: Base, table_name) -> Table:
    table = base.table(table_name)
    yield table
    records = table.all()
    table.batch_delete([r["id"] for r in records])


@pytest.fixture
def make_meta(api_key, base_id):
    def _make_meta(table_name):
        return type("Meta", (), {"api_key": api_key, "base_id": base_id, "table_name": table_name})

    return _make_meta
