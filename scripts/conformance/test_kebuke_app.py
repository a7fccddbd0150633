"""The KEBUKE app's requests byte for byte (reference domain.md §2.5), airtable.js' URL shapes
(reference §1.3, §12.3), and the order placed the app's way showing in `drinkshop orders`."""

import json
import os
import socket
import subprocess

from conftest import BASE_ID, BINARY, DB, SEEDS, WRITE_TOKEN, endpoint_parts, raw


class Wire:
    """One kept-alive TCP connection carrying exactly the bytes given, as the iPhone would send them."""

    def __init__(self):
        self.sock = socket.create_connection(endpoint_parts(), timeout=30)
        self.file = self.sock.makefile("rb")

    def send(self, method, path, body=None, content_type=True):
        host, port = endpoint_parts()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}"]
        if content_type:
            lines.append("Content-Type: application/json")
        lines += ["Accept: */*", f"Authorization: Bearer {WRITE_TOKEN}", "Accept-Language: zh-TW,zh-Hant;q=0.9",
                  "Accept-Encoding: gzip, deflate, br"]
        if body is not None:
            lines.append(f"Content-Length: {len(body)}")
        lines += ["User-Agent: Kebuke/1 CFNetwork/1494.0.7 Darwin/23.4.0", "Connection: keep-alive"]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        status_line = self.file.readline().decode("latin-1")
        assert status_line.startswith("HTTP/1.1 "), status_line
        headers = {}
        while (line := self.file.readline().decode("latin-1").rstrip("\r\n")):
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        assert headers.get("connection") != "close"
        data = self.file.read(int(headers.get("content-length", "0")))
        return int(status_line.split()[1]), headers.get("content-type"), data

    def close(self):
        self.file.close()
        self.sock.close()


def swift_json(value):
    """JSON as Swift's JSONEncoder writes it: compact, non-ASCII as is, and `/` escaped as `\\/`."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("/", "\\/").encode()


def drinkshop_orders():
    env = {k: v for k, v in os.environ.items() if k not in ("DRINKSHOP_DB", "DRINKSHOP_API_TOKEN")}
    env.update({"NO_COLOR": "1", "DRINKSHOP_SEEDS": SEEDS})
    done = subprocess.run([BINARY, "--db", DB, "orders"], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_app_lists_the_menu_orders_edits_and_deletes_byte_for_byte():
    wire = Wire()
    try:
        # GET /v0/<base>/Drink: Authorization only, no Content-Type; the app reads at most one page.
        status, content_type, body = wire.send("GET", f"/v0/{BASE_ID}/Drink", content_type=False)
        assert status == 200 and content_type == "application/json; charset=utf-8"
        menu = json.loads(body)
        assert len(menu["records"]) > 0 and "offset" not in menu
        drink = next(r["fields"] for r in menu["records"] if r["fields"]["name"] == "白玉歐蕾")
        assert {"name", "description", "medium", "large", "category"} <= drink.keys()
        # The app decodes the page as [DrinkFields], whose every field is required: one drink lacking a
        # large price or a picture would fail the whole menu. Every seeded drink must decode.
        categories = {"單品茶", "季節限定", "歐蕾", "調茶", "雲蓋"}
        for record in menu["records"]:
            fields = record["fields"]
            assert isinstance(fields.get("name"), str) and isinstance(fields.get("description"), str), fields
            assert isinstance(fields.get("medium"), int) and isinstance(fields.get("large"), int), fields
            assert fields.get("category") in categories, fields
            assert fields.get("image") and all(isinstance(i.get("url"), str) for i in fields["image"]), fields

        # POST /v0/<base>/OrderDrink with {"records":[{"fields":…}]}, as CreateOrderDrink encodes.
        line = {"drinkName": "白玉歐蕾", "size": "大杯", "ice": "少冰", "sugar": "半糖", "addOns": ["加白玉"],
                "price": (drink["large"] + 10) * 2, "orderName": "Joanna Conformance", "numberOfCups": 2,
                "imageUrl": "https://example.com/kebuke/white-jade.jpg"}
        status, _, body = wire.send("POST", f"/v0/{BASE_ID}/OrderDrink", swift_json({"records": [{"fields": line}]}))
        assert status == 200, body
        created = json.loads(body)["records"][0]
        assert created["fields"] == line
        record_id = created["id"]

        # A second line, without add-ons (the app leaves the optional key out).
        plain = {"drinkName": "熟成紅茶", "size": "中杯", "ice": "去冰", "sugar": "無糖", "price": drink["medium"],
                 "orderName": "Joanna Conformance", "numberOfCups": 1, "imageUrl": "https://example.com/kebuke/black.jpg"}
        status, _, body = wire.send("POST", f"/v0/{BASE_ID}/OrderDrink", swift_json({"records": [{"fields": plain}]}))
        assert status == 200, body
        plain_id = json.loads(body)["records"][0]["id"]

        # PATCH /v0/<base>/OrderDrink, the batch form UpdateOrderDrink encodes (addOns may be []).
        update = {"records": [{"id": record_id, "fields": {"size": "中杯", "ice": "微冰", "sugar": "微糖", "addOns": [],
                                                            "price": drink["medium"] * 3, "numberOfCups": 3}}]}
        status, _, body = wire.send("PATCH", f"/v0/{BASE_ID}/OrderDrink", swift_json(update))
        assert status == 200, body
        assert json.loads(body)["records"][0]["fields"]["numberOfCups"] == 3
        assert "addOns" not in json.loads(body)["records"][0]["fields"]

        # GET /v0/<base>/OrderDrink: the order tab.
        status, _, body = wire.send("GET", f"/v0/{BASE_ID}/OrderDrink", content_type=False)
        mine = [r for r in json.loads(body)["records"] if r["fields"].get("orderName") == "Joanna Conformance"]
        assert {r["id"] for r in mine} == {record_id, plain_id}

        # The order placed the app's way shows at the counter, while the server runs.
        listed = drinkshop_orders()
        assert "Joanna Conformance" in listed and "白玉歐蕾" in listed and "熟成紅茶" in listed, listed

        # DELETE /v0/<base>/OrderDrink/<id>: Content-Type set, no body; the app needs exactly 200.
        for doomed in (record_id, plain_id):
            status, _, body = wire.send("DELETE", f"/v0/{BASE_ID}/OrderDrink/{doomed}")
            assert status == 200 and json.loads(body) == {"id": doomed, "deleted": True}
        assert "Joanna Conformance" not in drinkshop_orders()
    finally:
        wire.close()


def test_airtable_js_url_shapes_and_headers():
    headers = {"x-api-version": "0.1.0", "x-airtable-application-id": BASE_ID, "Content-Type": "application/json",
               "User-Agent": "Airtable.js/0.12.2"}
    table = f"/v0/{BASE_ID}/User"
    created = raw("POST", table + "/?", {"fields": {"name": "js user"}, "typecast": True}, headers=headers)
    assert created.status == 200
    record_id = created.json()["id"]
    batch = raw("POST", table + "/?", {"records": [{"fields": {"name": "js a"}}, {"fields": {"name": "js b"}}]}, headers=headers)
    assert [r["fields"]["name"] for r in batch.json()["records"]] == ["js a", "js b"]
    # Every URL carries a `?`, GET and DELETE carry Content-Type with no body.
    assert raw("GET", f"{table}/{record_id}?", headers=headers).json()["fields"] == {"name": "js user"}
    query = ("fields%5B%5D=name&filterByFormula=FIND(%27js%27%2C%7Bname%7D)&sort%5B0%5D%5Bfield%5D=name"
             "&sort%5B0%5D%5Bdirection%5D=desc&returnFieldsByFieldId=false&pageSize=2&maxRecords=3")
    page = raw("GET", f"{table}?{query}", headers=headers).json()
    assert [r["fields"]["name"] for r in page["records"]] == ["js user", "js b"]
    rest = raw("GET", f"{table}?{query}&offset={page['offset'].replace('/', '%2F')}", headers=headers).json()
    assert [r["fields"]["name"] for r in rest["records"]] == ["js a"] and "offset" not in rest
    # The deprecated list(): `limit` and an empty offset; select({method: 'get'}) leaves `method` in the query.
    assert raw("GET", f"{table}/?limit=100&offset=&method=get", headers=headers).status == 200
    # POST …/listRecords with timeZone and userLocale in the query and the body, and `method` in the body.
    posted = raw("POST", f"{table}/listRecords?timeZone=Asia%2FTaipei&userLocale=zh-tw",
                 {"method": "post", "timeZone": "Asia/Taipei", "userLocale": "zh-tw", "filterByFormula": "FIND('js',{name})",
                  "returnFieldsByFieldId": False, "recordMetadata": ["commentCount"]}, headers=headers)
    assert sorted(r["fields"]["name"] for r in posted.json()["records"]) == ["js a", "js b", "js user"]
    assert raw("PATCH", table + "/?", {"records": [{"id": record_id, "fields": {"role": "customer"}}], "typecast": True},
               headers=headers).status == 200
    assert raw("PUT", f"{table}/{record_id}?", {"fields": {"name": "js put"}}, headers=headers).json()["fields"] == {"name": "js put"}
    ids = [record_id] + [r["id"] for r in batch.json()["records"]]
    deleted = raw("DELETE", f"{table}?" + "&".join(f"records%5B%5D={i}" for i in ids), headers=headers)
    assert deleted.json() == {"records": [{"id": i, "deleted": True} for i in ids]}
