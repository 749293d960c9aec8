"""Bounds a suite file must keep before it is composed into a node tree (docs/suites.md, Limits).

PyYAML's C composer recurses once per nesting level (tens of thousands of levels crash the
process), and a small file of nested aliases ("billion laughs") expands to billions of values
once built. Both are found here by one pass over the parser's event stream, which is iterative
and keeps aliases as references, so a hostile file costs as much as its size and no more.
The one-pass builder (`suite/yaml_events.py`) keeps the same counts and leaves any file that
crosses a bound to this check.
"""

from __future__ import annotations

from typing import Any

import yaml

from mcptest.errors import SourcePos, SuiteError

MAX_FILE_BYTES = 1024 * 1024
"""A suite file larger than this is refused before it is read further."""
MAX_DEPTH = 64
"""Mappings and lists nested deeper than this are refused."""
MAX_VALUES = 100_000
"""Keys, values and list items of the file once every alias is expanded."""


class _Frame:
    """An open mapping or list: its anchor, and its values so far (itself included)."""

    __slots__ = ("anchor", "values")

    def __init__(self, anchor: str | None) -> None:  # not a dataclass: ~0.3 ms less import
        self.anchor = anchor
        self.values = 1


def _pos(file: str, event: Any) -> SourcePos:
    mark = event.start_mark
    return SourcePos(file, mark.line + 1, mark.column + 1)


def check_bounds(text: str, file: str, loader: type) -> None:
    """Raise a positioned `SuiteError` when the text nests too deep or expands too far.

    Syntax errors are left for the composer, which reports them with its own positions.
    """
    sizes: dict[str, int] = {}
    stack: list[_Frame] = []
    total = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.CollectionStartEvent):
                if len(stack) >= MAX_DEPTH:
                    raise SuiteError(
                        f"nesting is too deep (more than {MAX_DEPTH} levels of mappings and lists)",
                        _pos(file, event))
                stack.append(_Frame(event.anchor))
                added = 1
            elif isinstance(event, yaml.CollectionEndEvent):
                frame = stack.pop()
                if frame.anchor is not None:
                    sizes[frame.anchor] = frame.values
                if stack:
                    stack[-1].values += frame.values
                continue
            elif isinstance(event, yaml.ScalarEvent):
                added = 1
                if event.anchor is not None:
                    sizes[event.anchor] = 1
            elif isinstance(event, yaml.AliasEvent):
                added = sizes.get(event.anchor or "", 1)
            else:
                continue
            total += added
            if total > MAX_VALUES:
                what = "an alias that expands too far" if isinstance(
                    event, yaml.AliasEvent) else "too many values"
                raise SuiteError(
                    f"the file holds more than {MAX_VALUES:,} values once aliases are expanded "
                    f"({what}; a YAML alias bomb?)", _pos(file, event))
            if stack and not isinstance(event, yaml.CollectionStartEvent):
                stack[-1].values += added
    except yaml.YAMLError:
        return
