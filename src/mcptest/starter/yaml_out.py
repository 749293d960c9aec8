"""YAML that reads back as written: what `mcptest init` emits, and the bounds it must keep to be
one suite file (docs/init.md, "What it writes reads back")."""

from __future__ import annotations

from typing import Any

import yaml

from mcptest.errors import SuiteError, UsageError
from mcptest.suite.positions import IMPLICIT_RESOLVERS, parse_yaml
from mcptest.suite.yaml_bounds import MAX_FILE_BYTES


class _Dumper(yaml.SafeDumper):
    """Block style with list items indented under their key, as people write YAML."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


# A string is written plain only when neither the suite loader (YAML 1.2 core: `1e3`, `0o17`,
# `+1e3` are numbers) nor YAML 1.1 (PyYAML's default, many editors': `yes`, `1_000`, dates)
# would read it back as anything but that string; otherwise the emitter quotes it.
_Dumper.yaml_implicit_resolvers = {
    first: [*yaml.SafeDumper.yaml_implicit_resolvers.get(first, []),
            *IMPLICIT_RESOLVERS.get(first, [])]
    for first in {*yaml.SafeDumper.yaml_implicit_resolvers, *IMPLICIT_RESOLVERS}
}


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    """NEL, LS and PS are line breaks to a YAML reader, and the emitter writes them raw in
    single quotes, where they fold into a space: such strings go double-quoted (escaped)."""
    style = '"' if any(ch in value for ch in "\x85\u2028\u2029") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _represent_str)


def dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def depth(value: Any) -> int:
    """Levels of mappings and lists in `value` (a scalar is 0)."""
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


class SuiteTooLarge(UsageError):
    """The server's surface does not fit one suite file; nothing was written."""


def _refusal(where: str) -> SuiteTooLarge:
    return SuiteTooLarge(
        f"{where} (docs/suites.md, Limits); nothing was written. Write a suite for the tools you "
        "mean to test by hand, and check the whole surface with `mcptest surface snapshot` or "
        "`mcptest lint` (docs/init.md)")


def fits(tests: list[dict[str, Any]], tools: int) -> None:
    """Raise `SuiteTooLarge` as soon as the tests alone pass the file-size bound (writing all
    of 60,000 tools' tests out first would take most of a minute)."""
    size = 0
    for done, test in enumerate(tests, 1):
        size += len(dump([test]).encode("utf-8"))
        if size > MAX_FILE_BYTES:
            raise _refusal(f"the starter suite for {tools:,} tool(s) would be larger than the "
                           f"{MAX_FILE_BYTES:,} bytes a suite file may hold (the tests of the "
                           f"first {done:,} already are)")


def check_loads(text: str, tools: int) -> None:
    """Raise `SuiteTooLarge` when `text` breaks a bound of the suite loader."""
    size = len(text.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise _refusal(f"the starter suite for {tools:,} tool(s) would be {size:,} bytes, over the "
                       f"{MAX_FILE_BYTES:,} bytes a suite file may hold")
    try:
        parse_yaml(text, "starter suite")
    except SuiteError as e:
        raise _refusal(f"the starter suite for {tools:,} tool(s) would not load: "
                       f"{e.message}") from None
