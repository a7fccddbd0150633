"""Shared fixtures: the server `run` started, pyairtable clients for it, fresh tables, raw HTTP."""

import http.client
import json
import os
import re
import signal
import subprocess
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field

import pytest
import requests
from pyairtable import Api

ENDPOINT = os.environ["DRINKSHOP_ENDPOINT"]
BASE_ID = os.environ["DRINKSHOP_BASE_ID"]
WRITE_TOKEN = os.environ["DRINKSHOP_WRITE_TOKEN"]
READ_TOKEN = os.environ["DRINKSHOP_READ_TOKEN"]
BINARY = os.environ["DRINKSHOP_BIN"]
DB = os.environ["DRINKSHOP_DB"]
WORK = os.environ["DRINKSHOP_WORK"]
TOKENS = os.environ["DRINKSHOP_TOKENS"]
SEEDS = os.environ["DRINKSHOP_SEEDS"]

# One field of each kind the order tables use, with options where Airtable's API requires them.
ORDER_FIELDS = [
    {"name": "Name", "type": "singleLineText"},
    {"name": "Notes", "type": "multilineText"},
    {"name": "Qty", "type": "number", "options": {"precision": 0}},
    {"name": "Price", "type": "currency", "options": {"precision": 0, "symbol": "NT$"}},
    {"name": "Paid", "type": "checkbox", "options": {"color": "greenBright", "icon": "check"}},
    {"name": "Size", "type": "singleSelect", "options": {"choices": [{"name": "中杯"}, {"name": "大杯"}]}},
    {"name": "AddOns", "type": "multipleSelects",
     "options": {"choices": [{"name": "加白玉"}, {"name": "加水玉"}, {"name": "加菓玉"}]}},
    {"name": "Day", "type": "date", "options": {"dateFormat": {"name": "iso"}}},
    {"name": "At", "type": "dateTime", "options": {"timeZone": "utc", "dateFormat": {"name": "iso"},
                                                   "timeFormat": {"name": "24hour"}}},
    {"name": "Key", "type": "singleLineText"},
    {"name": "Photo", "type": "multipleAttachments"},
]


def unique(prefix):
    """A table name no other test uses; the `/`, `(`, `&` and space exercise pyairtable's quoting."""
    return f"{prefix}/{uuid.uuid4().hex[:8]} (test) & more"


@pytest.fixture(scope="session")
def api():
    return Api(WRITE_TOKEN, endpoint_url=ENDPOINT)


@pytest.fixture(scope="session")
def reader():
    return Api(READ_TOKEN, endpoint_url=ENDPOINT, retry_strategy=None)


@pytest.fixture(scope="session")
def base(api):
    return api.base(BASE_ID)


@pytest.fixture
def make_table(api, base):
    """Creates a table through the metadata API and returns it addressed by its name (so every call
    percent-encodes the name, `%2F` included)."""

    def make(prefix="Orders", fields=ORDER_FIELDS):
        name = unique(prefix)
        created = base.create_table(name, fields)
        assert created.schema().name == name
        return api.table(BASE_ID, name)

    return make


@pytest.fixture
def orders(make_table):
    return make_table()


def error_of(exc_info):
    """(status, type, message) of a pyairtable HTTPError; the body's `error` may be a bare string."""
    response = exc_info.value.response
    body = response.json()
    error = body["error"]
    if isinstance(error, str):
        return response.status_code, error, None
    return response.status_code, error.get("type"), error.get("message")


@dataclass
class RawReply:
    status: int
    headers: dict
    body: bytes

    def json(self):
        return json.loads(self.body)

    @property
    def error_type(self):
        error = self.json().get("error")
        return error if isinstance(error, str) else (error or {}).get("type")


def endpoint_parts(endpoint=ENDPOINT):
    parsed = urllib.parse.urlsplit(endpoint)
    return parsed.hostname, parsed.port


def raw(method, target, body=None, token=WRITE_TOKEN, headers=None, endpoint=ENDPOINT):
    """One request sent exactly as given (http.client keeps the target untouched: a trailing `?`, raw
    brackets, no normalising), without retries."""
    host, port = endpoint_parts(endpoint)
    connection = http.client.HTTPConnection(host, port, timeout=30)
    all_headers = dict(headers or {})
    if token is not None:
        all_headers["Authorization"] = f"Bearer {token}"
    if isinstance(body, (dict, list)):
        body = json.dumps(body).encode()
        all_headers.setdefault("Content-Type", "application/json")
    try:
        connection.request(method, target, body=body, headers=all_headers)
        response = connection.getresponse()
        return RawReply(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        connection.close()


def table_path(name, rest="", base_id=BASE_ID):
    return f"/v0/{base_id}/{urllib.parse.quote(name, safe='')}{rest}"


@dataclass
class Server:
    """Another `drinkshop serve` for tests that need their own (rate limit, restart)."""

    db: str
    args: list = field(default_factory=list)
    process: subprocess.Popen = None
    endpoint: str = ""
    base_id: str = ""

    def start(self):
        log = open(self.db + ".log", "ab")
        env = {k: v for k, v in os.environ.items() if k != "DRINKSHOP_API_TOKEN"}
        env.update({"NO_COLOR": "1", "DRINKSHOP_SEEDS": SEEDS})
        self.process = subprocess.Popen(
            [BINARY, "serve", "--db", self.db, "--create", "--port", "0", "--tokens", TOKENS, *self.args],
            stdout=subprocess.PIPE, stderr=log, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (self.endpoint and self.base_id):
            line = self.process.stdout.readline().decode()
            if not line:
                break
            if match := re.match(r"\s*endpoint\s+(http://\S+)", line):
                self.endpoint = match[1]
            if match := re.match(r"\s*base id\s+(app\w+)", line):
                self.base_id = match[1]
        assert self.endpoint and self.base_id, "the extra drinkshop serve did not start"
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        if self.process and self.process.stdout:
            self.process.stdout.close()
        self.endpoint = ""
        self.base_id = ""


@pytest.fixture
def extra_server():
    servers = []

    def start(args=(), db=None):
        server = Server(db or os.path.join(WORK, f"extra-{uuid.uuid4().hex[:8]}.sqlite"), list(args)).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def requests_session():
    """A plain requests session: no retries, so a 429 is seen as it is."""
    return requests.Session()
