"""The byte-level pass every read-back JSON text goes through before it is parsed: nesting,
values, NaN/Infinity and numbers out of range, refused at their line and column, the same
however the bytes are split into blocks (they arrive block by block from a file or a zip)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcptest.errors import ReadBackError
from mcptest.readback.json_bounds import JsonLimits, JsonScan, check_json

LIMITS = JsonLimits(max_depth=5, max_values=50)


def refusal(data: bytes, limits: JsonLimits = LIMITS) -> str:
    with pytest.raises(ReadBackError) as e:
        check_json(data, "f.json", limits)
    return str(e.value)


@pytest.mark.parametrize(("text", "expected"), [
    (b'{"a": [[[[[1]]]]]}', "f.json:1:11: nesting is too deep (more than 5 levels"),
    (b'{"a":\n  [1, NaN]}', "f.json:2:7: NaN and Infinity are not JSON numbers"),
    (b'[-Infinity]', "f.json:1:2: NaN and Infinity are not JSON numbers"),
    (b'[1, 2,\n 1e400]', "f.json:2:2: a number out of range (it would be infinite)"),
    (b'[-1E+309]', "f.json:1:2: a number out of range"),
    (b"[" + b"0," * 60 + b"0]", "f.json:1:99: more than 50 values"),
])
def test_refused_where_it_happens(text: bytes, expected: str) -> None:
    assert refusal(text).startswith(expected)


@pytest.mark.parametrize("text", [
    b'{"a": "[[[[[[[[ NaN Infinity 1e999 ,,,,,,"}',   # inside a string nothing counts
    b'["\\"[[[[[[[[", "\\\\", "\\\\\\"[[[[[[[["]',     # escaped quotes and backslashes
    b'[1e308, -1.7e308, 1e-400, 12345678901234567890]',
    b'{"a": {"b": {"c": {"d": [1]}}}}',                 # exactly 5 levels
])
def test_accepted(text: bytes) -> None:
    json.loads(text)  # each is valid JSON
    check_json(text, "f.json", LIMITS)


def _nested(depth: int) -> st.SearchStrategy[object]:
    leaves = st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                       st.text(alphabet='ab"\\[]{},:\n NaInfty'), st.booleans(), st.none())
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(alphabet='k"\\[{', max_size=3), inner,
                                          max_size=3), max_leaves=30)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@given(_nested(8), st.lists(st.integers(1, 40), max_size=20), st.booleans())
def test_blocks_split_anywhere_give_the_same_verdict(value: object, cuts: list[int],
                                                     indent: bool) -> None:
    data = json.dumps(value, indent=2 if indent else None).encode()
    limits = JsonLimits(max_depth=4, max_values=10_000)
    scan = JsonScan("f.json", limits)
    pos, outcome = 0, "ok"
    try:
        for n in cuts:
            scan.feed(data[pos:pos + n])
            pos += n
        scan.feed(data[pos:])
        scan.close()
    except ReadBackError as e:
        outcome = str(e)
    try:
        check_json(data, "f.json", limits)
        whole = "ok"
    except ReadBackError as e:
        whole = str(e)
    assert outcome == whole
    assert (whole == "ok") == (_depth(value) <= 4)


def test_a_shared_budget_counts_every_file() -> None:
    used = check_json(b"[1, 2, 3]", "a.json", LIMITS)
    assert used == 4
    with pytest.raises(ReadBackError, match="more than 50 values"):
        check_json(b"[" + b"0," * 45 + b"0]", "b.json", LIMITS, values_used=used)
