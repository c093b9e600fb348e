"""The journal's hash chain: every change, reordering or truncation of a
saved journal is refused on load with a message naming the entry; an intact
journal round-trips exactly."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.turns import Entry, Journal, JournalError
from engine.turns.journal import GENESIS, canonical_json

TEXT = st.text(min_size=0, max_size=12)
ENTRY = st.builds(
    Entry,
    turn=st.integers(0, 60),
    phase=st.sampled_from(["movement", "combat", "purchase", "noncombat"]),
    side=st.one_of(st.none(), st.sampled_from(["Union", "Rebels", "Germany"])),
    kind=st.sampled_from(["order", "refused", "effect", "end_phase", "end_turn"]),
    system=st.sampled_from(["acw", "cwol_rail", "gitm", "railroads", "rail_options"]),
    summary=TEXT,
    order=st.dictionaries(st.sampled_from(["unit", "to", "attack"]), TEXT, max_size=3),
    reasons=st.lists(TEXT, max_size=3).map(tuple),
    time=st.one_of(st.none(), st.just("9:51:45")),
)


def journal(n: int) -> Journal:
    j = Journal()
    for i in range(n):
        j.append(Entry(turn=1 + i // 3, phase="movement", side="Union", kind="order", system="acw",
                       summary=f"U{i} to 0{i}10", order={"unit": f"U{i}", "to": f"0{i}10"},
                       verdict={"ok": True}, reasons=()))
    return j


def test_round_trip_through_json_text() -> None:
    j = journal(5)
    data = json.loads(json.dumps(j.to_data()))
    back = Journal.from_data(data)
    assert back.to_data() == j.to_data() and back.head == j.head and len(back) == 5


def test_the_first_entry_follows_genesis_and_each_the_one_before() -> None:
    j = journal(3)
    assert j[0].prev == GENESIS and j[1].prev == j[0].hash and j[2].prev == j[1].hash


@pytest.mark.parametrize("field,value", [("summary", "U1 to 0910"), ("turn", 7), ("order", {"unit": "X"}),
                                         ("reasons", ["forged"]), ("time", "0:00:01"), ("side", "Rebels")])
def test_a_changed_entry_is_named(field: str, value: Any) -> None:
    data = journal(4).to_data()
    data["entries"][1][field] = value
    with pytest.raises(JournalError, match=r"entry 2 \(turn .*was changed after it was written"):
        Journal.from_data(data)


def test_reordered_entries_are_named() -> None:
    data = journal(4).to_data()
    e = data["entries"]
    e[1], e[2] = e[2], e[1]
    with pytest.raises(JournalError, match=r"entry 2 .* is out of order: it follows entry 3, not entry 1"):
        Journal.from_data(data)


def test_a_removed_middle_entry_is_named() -> None:
    data = journal(4).to_data()
    del data["entries"][1]
    with pytest.raises(JournalError, match=r"entry 2 .* is out of order"):
        Journal.from_data(data)


def test_truncation_is_refused_with_what_is_missing() -> None:
    data = journal(5).to_data()
    del data["entries"][3:]
    with pytest.raises(JournalError, match=r"cut short: it recorded 5 entries, 3 are left"):
        Journal.from_data(data)


def test_an_added_entry_does_not_match_the_count() -> None:
    j = journal(3)
    data = j.to_data()
    j.append(Entry(turn=9, phase="movement", side=None, kind="effect", system="acw", summary="extra"))
    data["entries"].append(j.to_data()["entries"][-1])
    with pytest.raises(JournalError, match="count"):
        Journal.from_data(data)


@pytest.mark.parametrize("mutate,where", [
    (lambda d: d.pop("entries"), "journal.entries"),
    (lambda d: d.update(format=4), "journal.format"),
    (lambda d: d.update(format=2), "journal.seal"),
    (lambda d: d["entries"][0].update(turn=-1), r"journal.entries\[0\].turn"),
    (lambda d: d["entries"][0].update(kind="teleport"), r"journal.entries\[0\].kind"),
    (lambda d: d["entries"][0].update(hash="xyz"), r"journal.entries\[0\].hash"),
    (lambda d: d["entries"][0].update(order=[1]), r"journal.entries\[0\].order"),
    (lambda d: d["entries"][0].update(order={"x": float("nan")}), r"journal.entries\[0\].order"),
    (lambda d: d.update(count="3"), "journal.count"),
])
def test_malformed_journals_name_the_field(mutate: Any, where: str) -> None:
    data = journal(3).to_data()
    mutate(data)
    with pytest.raises(JournalError, match=where):
        Journal.from_data(data)


def test_pop_upto_and_branch() -> None:
    j = journal(6)
    head3 = j.upto(3).head
    b = j.branch(3, "acw_short_campaign.json")
    assert len(b) == 3 and b.head == head3 and b.branch_of is not None and b.branch_of.head == head3
    assert Journal.from_data(b.to_data()).branch_of == b.branch_of
    last = j.pop()
    assert len(j) == 5 and j.head == last.prev
    with pytest.raises(JournalError, match="no entry 9"):
        j.upto(9)
    with pytest.raises(JournalError, match="empty"):
        Journal().pop()


def test_canonical_json_refuses_nan_and_keeps_unicode() -> None:
    assert canonical_json({"b": 1, "a": "Württemberg"}) == '{"a":"Württemberg","b":1}'
    with pytest.raises(ValueError):
        canonical_json({"x": float("inf")})


@settings(max_examples=60, deadline=None)
@given(st.lists(ENTRY, min_size=1, max_size=12), st.data())
def test_any_single_change_to_any_entry_is_caught(entries: list[Entry], data: st.DataObject) -> None:
    j = Journal(entries)
    saved = j.to_data()
    assert Journal.from_data(copy.deepcopy(saved)).to_data() == saved
    i = data.draw(st.integers(0, len(entries) - 1))
    key = data.draw(st.sampled_from(["summary", "phase", "system", "turn", "time", "reasons"]))
    bad = copy.deepcopy(saved)
    old = bad["entries"][i][key]
    changes = {"summary": lambda v: v + "!", "phase": lambda v: v + "x", "system": lambda v: v + "y",
               "turn": lambda v: v + 1, "time": lambda v: "1:02:03" if v != "1:02:03" else None,
               "reasons": lambda v: [*v, "added"]}
    new = changes[key](old)
    bad["entries"][i][key] = new
    with pytest.raises(JournalError, match=rf"entry {i + 1} "):
        Journal.from_data(bad)
