"""The one-pass builder (suite/yaml_events.py) gives exactly what composing the node tree gives.

`parse_yaml` takes the one pass for a plain well-formed file and composes otherwise, so for every
text the one pass either declines or matches the composing path: the same data (types, key order,
a fresh object for each alias), the same value and key positions in the same order, no errors.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from mcptest.errors import SuiteError
from mcptest.suite.positions import parse_by_composing, parse_yaml
from mcptest.suite.yaml_bounds import MAX_DEPTH
from mcptest.suite.yaml_events import build_from_events

ROOT = Path(__file__).resolve().parents[2]
TAKEN = {  # plain files: the one pass builds them
    "core schema": "a: yes\nb: no\nc: on\nd: 012\ne: 0o17\nf: 0x1F\ng: 1e3\nh: .inf\ni: -.Inf\n"
                   "j: .nan\nk: 12:30\nl: 2020-01-01\nm: ~\nn: null\no: TRUE\np: +1\nq: -0.5\n"
                   "r: ''\ns:\nt: '12'\nu: !!str 12\nv: ! 12\nw: !!int '7'\nx: !!bool on\n"
                   "y: !!null x\nz: !!float 1\n",
    "anchors": "a: &m {x: &n [1, {k: v}]}\nb: *m\nc: *n\nd: [*m, *n, &s hi, *s]\n",
    "anchored root": "&r\nevals:\n- &e {name: a, judge: &j {model: m}}\n- *e\n- {judge: *j}\n",
    "block text": "a: |\n  text\n  more\nb: >-\n  folded\n  line\n'<<': quoted\n\"=\": eq\n",
    "collection tags": "a: !!map {x: !!seq [1]}\nb: ! {k: v}\nc: ! [1]\n",
    "merge and value keys as values": "a: =\nb: <<\nc: [<<, =]\nd: !!merge x\n",
    "map-tagged root": "--- !!map\na: 1\n",
    "alias at the depth limit": "a: &a " + "[" * 30 + "1" + "]" * 30
                                + "\nb: " + "[" * 33 + "*a" + "]" * 33 + "\n",
}
DECLINED = {  # the composing path reports these, or builds what the one pass does not
    "duplicate key": "a: 1\na: 2\n",
    "merge key": "b: &x {p: 1}\nc:\n  <<: *x\n  q: 2\n",
    "value key": "=: 1\n",
    "recursive alias": "x: &a [1, *a]\n",
    "undefined alias": "x: *nope\n",
    "duplicate anchor": "a: &x 1\nb: &x 2\n",
    "bad scalar": "a: !!int abc\n",
    "unknown tag": "a: !custom x\n",
    "timestamp tag": "a: !!timestamp 2020-01-01\n",
    "bad timestamp": "a: !!timestamp nope\n",
    "bool tag on other text": "a: !!bool maybe\n",
    "binary tag": "a: !!binary aGk=\n",
    "set tag": "a: !!set {x, y}\n",
    "omap tag": "a: !!omap [{x: 1}]\n",
    "custom collection tag": "a: [1, !custom {k: v}]\n",
    "python tag": "a: !!python/object/apply:os.system [id]\n",
    "wrong kind's tag": "a: !!map [1]\n",
    "set-tagged root": "--- !!set\na: 1\n",
    "anchored key": "&k a: 1\nb: *k\n",
    "alias key": "a: &v x\n*v : 2\n",
    "mapping key": "? [a]\n: 1\n",
    "tab": "\ta: 1\n",
    "bad indentation": "a:\n  b: 1\n   c: 2\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "a list": "- 1\n",
    "empty": "",
    "too deep": "a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n",
    "alias too deep": "a: &a " + "[" * 30 + "1" + "]" * 30
                      + "\nb: " + "[" * 34 + "*a" + "]" * 34 + "\n",
    "aliases past the file's size": "a: &a [" + "1," * 200 + "]\nb: [*a, *a, *a, *a, *a]\n",
    "alias bomb": "a: &a [1,1,1,1,1,1,1,1,1,1]\n" + "".join(
        f"{n}: &{n} [{', '.join([f'*{p}'] * 10)}]\n" for p, n in zip("abcd", "bcde", strict=True)),
}


def _canon(value: Any, seen: set[int]) -> Any:
    """`value` with every type spelled out; each dict and list must be a distinct object."""
    if isinstance(value, dict | list):
        assert id(value) not in seen, "an alias's value shares objects with another"
        seen.add(id(value))
        if isinstance(value, dict):
            return {"dict": [(k, _canon(v, seen)) for k, v in value.items()]}
        return {"list": [_canon(v, seen) for v in value]}
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, repr(value))


def _agree(text: str, *, list_top: bool = False) -> bool:
    """Whether the one pass took `text`; when it did, its result is the composing path's."""
    fast = build_from_events(text, list_top=list_top)
    if fast is None:
        return False
    data, positions, errors = parse_by_composing(text, "f.yml", list_top=list_top)
    assert errors == []
    assert _canon(fast[0], set()) == _canon(data, set())
    assert list(fast[1].items()) == list(positions.values.items())
    assert list(fast[2].items()) == list(positions.keys.items())
    return True


@pytest.mark.parametrize("text", TAKEN.values(), ids=TAKEN.keys())
def test_a_plain_file_takes_the_one_pass_and_matches(text: str) -> None:
    assert _agree(text)


@pytest.mark.parametrize("text", DECLINED.values(), ids=DECLINED.keys())
def test_anything_else_is_left_to_the_composing_path(text: str) -> None:
    assert build_from_events(text, list_top=False) is None
    try:
        expected: Any = parse_by_composing(text, "f.yml", list_top=False)
    except SuiteError as e:
        with pytest.raises(SuiteError) as got:
            parse_yaml(text, "f.yml")
        assert (got.value.message, got.value.pos, got.value.key_path) == (
            e.message, e.pos, e.key_path)
        return
    data, positions, errors = parse_yaml(text, "f.yml")
    assert (_canon(data, set()), positions, [str(e) for e in errors]) == (
        _canon(expected[0], set()), expected[1], [str(e) for e in expected[2]])


def test_a_case_table_list_takes_the_one_pass() -> None:
    assert _agree("- &c {city: Oslo, n: 2}\n- *c\n- {city: Rome}\n", list_top=True)
    assert build_from_events("a: 1\n", list_top=True) is None


@pytest.mark.parametrize("path", sorted((ROOT / "examples").rglob("*.yml")),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_example_agrees(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert _agree(text, list_top=text.lstrip().startswith("-"))


_CHARS = st.characters(blacklist_categories=("Cs",))  # a lone surrogate is no UTF-8
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                     st.sampled_from(["yes", "012", "1e3", "~", "<<", "=", "", "a: b", "#x"]),
                     st.text(_CHARS, max_size=8))
_TREES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(_CHARS, max_size=5), inner, max_size=4)),
    max_leaves=30)


@settings(max_examples=150, deadline=None)
@given(tree=st.dictionaries(st.text(_CHARS, max_size=5), _TREES, min_size=1, max_size=5),
       flow=st.sampled_from([None, True, False]), shared=st.booleans())
def test_dumped_trees_agree(tree: dict[str, Any], flow: bool | None, shared: bool) -> None:
    """Any dumped tree (with aliases where one object appears twice) is taken and matches."""
    if shared:
        tree = {**tree, "again": list(tree.values()), "once more": list(tree.values())}
    text = yaml.safe_dump(tree, default_flow_style=flow, sort_keys=False, allow_unicode=True)
    assert _agree(text)
