"""The compact JSON writer of scenario files (engine/io/common.py): its
bounded check of short values is json.dumps exactly, and what it writes
reads back as the value written."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.io.common import _short_json, dumps_compact

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.sampled_from(["a", "b", "terrain", "units", "é", "k"]), inner,
                                                 max_size=5)), max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(values, st.integers(0, 120))
def test_short_json_is_json_dumps_when_short(v: Any, limit: int) -> None:
    text = json.dumps(v, ensure_ascii=False)
    assert _short_json(v, limit) == (text if len(text) <= limit else None)


@settings(max_examples=400, deadline=None)
@given(values)
def test_what_is_written_reads_back(v: Any) -> None:
    assert json.loads(dumps_compact(v)) == v


def test_a_record_stays_on_one_line_and_rows_get_a_line_each() -> None:
    text = dumps_compact({"units": [{"id": "US-1", "at": "0101"}], "terrain": ["..", "ff"]})
    assert '{"id": "US-1", "at": "0101"}' in text
    assert '"terrain": [\n    "..",\n    "ff"\n  ]' in text
