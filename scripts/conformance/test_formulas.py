"""filterByFormula: every construct of reference §10.5, built with pyairtable.formulas where it has
them, strings with quotes and backslashes included; anything else is a 422."""

from datetime import date, datetime, timezone

import pytest
from pyairtable.formulas import (
    AND, BLANK, CREATED_TIME, DATETIME_DIFF, DATETIME_PARSE, EQ, FALSE, FIND, GT, GTE, IF, IS_AFTER, IS_BEFORE,
    LEN, LOWER, LT, LTE, NE, NOT, NOW, OR, RECORD_ID, SEARCH, TODAY, TRIM, TRUE, UPPER, VALUE, Field, Formula,
    match, quoted,
)
from requests import HTTPError

from conftest import error_of

TRICKY = ["O'Brien \"x\" \\ y", "It's", 'Say "hi"', "C:\\path\\", "a\\'b", "end\\", "{braces}", "50% & more", "茶's"]


@pytest.fixture
def shop(orders):
    rows = [
        {"Name": "O'Brien \"x\" \\ y", "Qty": 2, "Paid": True, "AddOns": ["加白玉", "加水玉"], "Day": "2024-01-02",
         "At": "2024-01-02T08:00:00.000Z", "Notes": "  padded  "},
        {"Name": "Latte", "Qty": 5, "AddOns": [], "Day": "2025-06-30", "At": "2025-06-30T23:30:00.000Z",
         "Notes": "Milk tea"},
        {"Name": "latte", "Qty": 10, "AddOns": ["加菓玉"], "Day": "2030-12-31", "At": "2030-12-31T12:00:00.000Z"},
        {"Name": "阿明"},
    ]
    created = orders.batch_create(rows)
    return orders, {r["fields"]["Name"]: r["id"] for r in created}


NAMES = ["O'Brien \"x\" \\ y", "Latte", "latte", "阿明"]
OBRIEN, LATTE, LOWER_LATTE, AMING = NAMES

CASES = [
    # references, strings, escapes
    (match({"Name": OBRIEN}), [OBRIEN]),
    (EQ(Field("Name"), "Latte"), [LATTE]),
    (Formula("{Name}=\"O'Brien \\\"x\\\" \\\\ y\""), [OBRIEN]),
    (Formula("UPPER(Name)=\"LATTE\""), [LATTE, LOWER_LATTE]),
    (Formula("Name = 'latte'"), [LOWER_LATTE]),
    # numbers, comparisons, arithmetic, &
    (GT(Field("Qty"), 2), [LATTE, LOWER_LATTE]),
    (GTE(Field("Qty"), 5), [LATTE, LOWER_LATTE]),
    (LT(Field("Qty"), 5), [OBRIEN, AMING]),
    (LTE(Field("Qty"), 2), [OBRIEN, AMING]),
    (NE(Field("Qty"), 5), [OBRIEN, LOWER_LATTE, AMING]),
    (Formula("{Qty}*2+1=11"), [LATTE]),
    (Formula("({Qty}-1)/3=3"), [LOWER_LATTE]),
    (Formula("{Qty} - 0.5 > 1.25"), [OBRIEN, LATTE, LOWER_LATTE]),
    (Formula("{Name}&\"!\"='Latte!'"), [LATTE]),
    # logic
    (AND(Field("Paid"), GT(Field("Qty"), 1)), [OBRIEN]),
    (OR(EQ(Field("Qty"), 2), EQ(Field("Qty"), 10)), [OBRIEN, LOWER_LATTE]),
    (NOT(Field("Paid")), [LATTE, LOWER_LATTE, AMING]),
    (IF(Field("Paid"), 0, 1), [LATTE, LOWER_LATTE, AMING]),
    (EQ(Field("Paid"), True), [OBRIEN]),
    (EQ(Field("Paid"), TRUE()), [OBRIEN]),
    (EQ(Field("Paid"), FALSE()), [LATTE, LOWER_LATTE, AMING]),
    (EQ(Field("Qty"), BLANK()), [AMING]),
    (Formula("{Notes}=''"), [LOWER_LATTE, AMING]),
    (Formula("NOT({Notes} = '')"), [OBRIEN, LATTE]),
    # text functions
    (FIND("at", Field("Name")), [LATTE, LOWER_LATTE]),
    (EQ(FIND("O'", Field("Name")), 1), [OBRIEN]),
    (EQ(FIND("zzz", Field("Name")), 0), NAMES),
    (SEARCH("LAT", UPPER(Field("Name"))), [LATTE, LOWER_LATTE]),
    (EQ(LOWER(Field("Name")), "latte"), [LATTE, LOWER_LATTE]),
    (EQ(LEN(Field("Name")), 5), [LATTE, LOWER_LATTE]),
    (EQ(TRIM(Field("Notes")), "padded"), [OBRIEN]),
    (EQ(VALUE("5"), Field("Qty")), [LATTE]),
    (Formula("VALUE('12.5') > {Qty}"), NAMES),
    # records and times
    (Formula("DATETIME_DIFF(NOW(), CREATED_TIME(), 'days') < 1"), NAMES),
    (IS_BEFORE(CREATED_TIME(), DATETIME_PARSE("2100-01-01")), NAMES),
    (IS_BEFORE(Field("Day"), "2025-01-01"), [OBRIEN]),
    (IS_AFTER(Field("At"), DATETIME_PARSE("2025-06-30T12:00:00.000Z")), [LATTE, LOWER_LATTE]),
    (EQ(DATETIME_DIFF(Field("Day"), DATETIME_PARSE("2024-01-01"), "days"), 1), [OBRIEN]),
    (EQ(Field("Day"), DATETIME_PARSE("02/01/2024", "DD/MM/YYYY")), [OBRIEN]),
    (EQ(Field("At"), datetime(2025, 6, 30, 23, 30, tzinfo=timezone.utc)), [LATTE]),
    (EQ(Field("Day"), date(2030, 12, 31)), [LOWER_LATTE]),
    (IS_AFTER(Field("Day"), TODAY()), [LOWER_LATTE]),
    (IS_BEFORE(Field("At"), NOW()), [OBRIEN, LATTE]),
    (FIND("2024-01-02", Field("At")), [OBRIEN]),
    # arrays
    (Formula("ARRAYJOIN({AddOns}, '+')='加白玉+加水玉'"), [OBRIEN]),
    (Formula("FIND('加菓玉', ARRAYJOIN({AddOns}))"), [LOWER_LATTE]),
]


@pytest.mark.parametrize("formula,expected", CASES, ids=[str(case[0])[:60] for case in CASES])
def test_formula(shop, formula, expected):
    orders, ids = shop
    found = orders.all(formula=formula)
    assert sorted(r["fields"]["Name"] for r in found) == sorted(expected), str(formula)


def test_record_ids_and_field_ids_in_formulas(shop):
    orders, ids = shop
    assert [r["id"] for r in orders.all(formula=EQ(RECORD_ID(), ids[LATTE]))] == [ids[LATTE]]
    either = OR(EQ(RECORD_ID(), ids[LATTE]), EQ(RECORD_ID(), ids[AMING]))
    assert sorted(r["id"] for r in orders.all(formula=either)) == sorted([ids[LATTE], ids[AMING]])
    name_id = orders.schema().field("Name").id
    assert [r["id"] for r in orders.all(formula=f"{{{name_id}}}='Latte'")] == [ids[LATTE]]


def test_quotes_and_backslashes_round_trip_through_every_quoting(orders):
    created = orders.batch_create([{"Name": name} for name in TRICKY])
    by_name = {r["fields"]["Name"]: r["id"] for r in created}
    for name in TRICKY:
        double = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
        for formula in [match({"Name": name}), EQ(Field("Name"), name), f"{{Name}}={quoted(name)}",
                        f"{{Name}}={double}", f"FIND({quoted(name)}, {{Name}})=1"]:
            found = [r["id"] for r in orders.all(formula=formula)]
            assert found == [by_name[name]], (name, str(formula))


@pytest.mark.parametrize("formula", [
    "AND(", "{Name} =", "NO_SUCH_FUNCTION(1)", "{Name}=“Latte”", "'unterminated", "1 +* 2", "{Nope}='x'", "FIND()",
])
def test_formulas_outside_the_language_are_422(orders, formula):
    orders.create({"Name": "x"})
    with pytest.raises(HTTPError) as refused:
        orders.all(formula=formula)
    status, error_type, message = error_of(refused)
    assert (status, error_type) == (422, "INVALID_FILTER_BY_FORMULA")
    assert message.startswith("The formula for filtering records is invalid: ")
