"""Explicit YAML tags (docs/suites.md, "How the YAML is read"): JSON's kinds are read, any other
tag, or a value its tag cannot hold, is one positioned error and exit 2, never an internal error
(exit 70). PyYAML's own constructors raised KeyError (`!!bool maybe`) or AttributeError
(`!!timestamp nope`) and made dates, bytes and sets the suite model cannot hold."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from support.cli_inproc import cli

from mcptest.errors import SuiteError
from mcptest.suite.positions import parse_yaml, parse_yaml_list

if TYPE_CHECKING:
    from pathlib import Path

SUITE = """servers:
  s: {command: [python3, server.py]}
tools:
  - name: t
    server: s
    tool: echo
    args:
      when: VALUE
    expect:
      - target: result
        matcher: {exact: VALUE}
"""
EXACT = "suite.yml:11:26: tools[0].expect[0].matcher.exact: "  # where the flow `VALUE` starts
ONLY = ("a suite reads only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map")
BAD = {  # what follows `exact: ` → the message
    "!!bool maybe": "`!!bool` cannot hold 'maybe' (expected true or false)",
    "!!int abc": "`!!int` cannot hold 'abc' (expected an integer)",
    "!!float fast": "`!!float` cannot hold 'fast' (expected a number)",
    "!!int " + "9" * 5000: "`!!int` cannot hold '" + "9" * 39 + "…' (expected an integer)",
    "!!timestamp nope": "tag `!!timestamp` is not supported (a date stays a string: drop the tag)",
    "!!timestamp 2001-12-14": "tag `!!timestamp` is not supported (a date stays a string: drop "
                              "the tag)",
    "!!binary aGk=": "tag `!!binary` is not supported (a suite holds text, not bytes)",
    "!!set {x, y}": "tag `!!set` is not supported (write a list)",
    "!!omap [{x: 1}]": "tag `!!omap` is not supported (write a mapping)",
    "!!pairs [[a, 1]]": "tag `!!pairs` is not supported (write a mapping)",
    "!!python/tuple [1, 2]": f"tag `!!python/tuple` is not supported ({ONLY})",
    "!!python/name:os.system ''": f"tag `!!python/name:os.system` is not supported ({ONLY})",
    "!!python/object/apply:os.system [id]":
        f"tag `!!python/object/apply:os.system` is not supported ({ONLY})",
    "!custom {k: v}": f"tag `!custom` is not supported ({ONLY})",
    "!custom x": f"tag `!custom` is not supported ({ONLY})",
    "!!map [1]": "`!!map` cannot hold a list (expected a mapping)",
    "!!seq abc": "`!!seq` cannot hold 'abc' (expected a list)",
    "!!str {k: v}": "`!!str` cannot hold a mapping (expected a string)",
    "!!null [1]": "`!!null` cannot hold a list (expected null)",
    "!!bool \"\\e[31mred\"": "`!!bool` cannot hold '\\x1b[31mred' (expected true or false)",
}


def _suite(tmp_path: Path, exact: str, when: str = "now") -> Path:
    path = tmp_path / "suite.yml"
    path.write_text(SUITE.replace("VALUE", when, 1).replace("VALUE", exact), encoding="utf-8")
    return path


@pytest.mark.parametrize(("value", "message"), BAD.items(), ids=[v[:24] for v in BAD])
def test_a_bad_tag_is_one_positioned_error_and_exit_2(
    value: str, message: str, tmp_path: Path,
) -> None:
    _suite(tmp_path, value)
    r = cli("validate", "suite.yml", cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", EXACT + message + "\n")


def test_a_block_value_names_its_own_line_and_key(tmp_path: Path) -> None:
    _suite(tmp_path, "ok", when="!!timestamp 2001-12-14 21:59:43.10")
    r = cli("validate", "suite.yml", cwd=tmp_path)
    assert (r.returncode, r.stderr) == (2, "suite.yml:8:13: tools[0].args.when: tag `!!timestamp`"
                                           " is not supported (a date stays a string: drop the"
                                           " tag)\n")


def test_a_tagged_top_level_is_refused_where_it_starts() -> None:
    with pytest.raises(SuiteError) as e:
        parse_yaml("# a suite\n--- !!omap\nservers: {}\n", "s.yml")
    assert (str(e.value.pos), e.value.key_path, e.value.message) == (
        "s.yml:2:5", "", "tag `!!omap` is not supported (write a mapping)")
    with pytest.raises(SuiteError) as e:
        parse_yaml("!!set\nservers: {}\n", "s.yml")
    assert (str(e.value.pos), e.value.message) == (
        "s.yml:1:1", "tag `!!set` is not supported (write a list)")


def test_a_case_table_file_gets_the_same_error(tmp_path: Path) -> None:
    with pytest.raises(SuiteError) as e:
        parse_yaml_list("- {city: Oslo}\n- {city: !!binary T3Nsbw==}\n", "cases.yml")
    assert (str(e.value.pos), e.value.key_path, e.value.message) == (
        "cases.yml:2:10", "[1].city", "tag `!!binary` is not supported (a suite holds text,"
                                      " not bytes)")


def test_json_tags_and_plain_yaml_1_1_keys_as_values_are_read() -> None:
    data, _, errors = parse_yaml(
        "a: !!str 12\nb: !!int '7'\nc: !!float 1\nd: !!bool true\ne: !!null x\nf: ! [a]\n"
        "g: !!map {k: !!seq [1]}\nh: =\ni: <<\nj: 2001-12-14\nk: ! {x: 1}\n", "s.yml")
    assert errors == []
    assert data == {"a": "12", "b": 7, "c": 1.0, "d": True, "e": None, "f": ["a"],
                    "g": {"k": [1]}, "h": "=", "i": "<<", "j": "2001-12-14", "k": {"x": 1}}
