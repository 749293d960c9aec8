"""YAML text → plain data plus the line and column of every key and value.

PyYAML's constructors throw positions away and silently keep the last of two equal keys, so we
build the data ourselves, recording positions: in one pass over the parser's events for a plain
well-formed file (`suite/yaml_events.py`), else by composing the node tree and walking it (the
exact path, which reports every error). Plain scalars follow YAML 1.2's core schema
(`suite/yaml_schema.py`); mapping keys are always the key's text; an explicit tag other than
JSON's kinds is an error at its node.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import yaml

from mcptest.errors import SourcePos, SuiteError
from mcptest.suite.yaml_bounds import MAX_DEPTH, check_bounds
from mcptest.suite.yaml_events import build_from_events
from mcptest.suite.yaml_schema import (
    IMPLICIT_RESOLVERS,
    MAP,
    SCALARS,
    SEQ,
    STR,
    SuiteLoader,
    scalar_found,
    tag_problem,
)

KeyPath = tuple[str | int, ...]

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["IMPLICIT_RESOLVERS", "KeyPath", "Positions", "format_path", "pack",
           "parse_by_composing", "parse_yaml", "parse_yaml_list"]


def pack(line: int, column: int) -> int:
    """A line and column as one int (`Positions` keeps ~20 per test for the whole run: one int
    instead of a tuple of two saves 1 KB a test; docs/reports.md, "Scale")."""
    return line << 32 | column


def _sourcepos(file: str, mark: int) -> SourcePos:
    return SourcePos(file, mark >> 32, mark & 0xFFFFFFFF)


@dataclass(frozen=True)
class Positions:
    """Where every node of one file is: values by key path, and mapping keys by key path
    (each a `pack`ed line and column)."""

    file: str
    values: dict[KeyPath, int] = field(default_factory=dict)
    keys: dict[KeyPath, int] = field(default_factory=dict)

    def value(self, path: KeyPath) -> SourcePos:
        """Position of the value at `path`, else of its nearest ancestor that has one."""
        for end in range(len(path), -1, -1):
            hit = self.values.get(path[:end])
            if hit is not None:
                return _sourcepos(self.file, hit)
        return SourcePos(self.file, 1, 1)

    def key(self, path: KeyPath) -> SourcePos:
        """Position of the mapping key that leads to `path` (the value's when there is none)."""
        hit = self.keys.get(path)
        return _sourcepos(self.file, hit) if hit is not None else self.value(path)


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_.\-]+")


def format_path(path: Iterable[str | int], plain: re.Pattern[str] = _PLAIN_KEY,
                quote: Callable[[str], str] = repr) -> str:
    """`("tools", 3, "expect", 1)` → `tools[3].expect[1]`; a key `plain` does not match is
    written `[quote(key)]` (suite key paths quote with repr; target paths pass their own)."""
    out = ""
    for seg in path:
        if isinstance(seg, int):
            out += f"[{seg}]"
        elif plain.fullmatch(seg):
            out += f".{seg}" if out else seg
        else:
            out += f"[{quote(seg)}]"
    return out


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _yaml_error(e: yaml.MarkedYAMLError, text: str, file: str) -> SuiteError:
    from mcptest.suite.yaml_syntax import yaml_error  # only a file that failed to parse

    return yaml_error(e, text, file, SuiteLoader)


def parse_yaml(text: str, file: str) -> tuple[dict[str, Any], Positions, list[SuiteError]]:
    """Parse one suite file's text.

    Raises `SuiteError` when nothing useful can be built (syntax error, empty file, top level
    not a mapping); returns the recoverable errors (duplicate keys) alongside the data.
    """
    data, positions, errors = _parse(text, file, list_top=False)
    return data, positions, errors


def parse_yaml_list(text: str, file: str) -> tuple[list[Any], Positions, list[SuiteError]]:
    """Parse a YAML file whose top level is a list (a table of cases, docs/suites.md)."""
    data, positions, errors = _parse(text, file, list_top=True)
    return data, positions, errors


def _parse(text: str, file: str, *, list_top: bool) -> tuple[Any, Positions, list[SuiteError]]:
    built = build_from_events(text, list_top=list_top)
    if built is None:
        return parse_by_composing(text, file, list_top=list_top)
    data, values, keys = built
    return data, Positions(file, values, keys), []


def parse_by_composing(text: str, file: str, *, list_top: bool,
                       ) -> tuple[Any, Positions, list[SuiteError]]:
    """The exact path: bounds, the composed node tree, then a walk of it. It reports every
    error, and it is what the one-pass builder is checked against (tests/suite)."""
    check_bounds(text, file, SuiteLoader)
    loader = SuiteLoader(text)
    try:
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as e:
        raise _yaml_error(e, text, file) from None
    except yaml.reader.ReaderError as e:  # a character YAML does not allow
        line = text.count("\n", 0, e.position) + 1
        column = e.position - (text.rfind("\n", 0, e.position) + 1) + 1
        what = chr(e.character) if isinstance(e.character, int) else e.character
        raise SuiteError(f"invalid YAML: character {what!r} is not allowed ({e.reason})",
                         SourcePos(file, line, column)) from None
    except yaml.YAMLError as e:
        raise SuiteError(f"invalid YAML: {' '.join(str(e).split())}",
                         SourcePos(file, 1, 1)) from None
    if list_top:
        if root is None or not isinstance(root, yaml.SequenceNode):
            raise SuiteError("a YAML case file is a list of mappings (`- {city: Oslo}`)",
                             SourcePos(file, *(_mark(root) if root is not None else (1, 1))))
    elif root is None or (isinstance(root, yaml.ScalarNode) and root.tag.endswith(":null")):
        raise SuiteError("the file is empty; a suite is a mapping with `servers:`, `tools:`, …",
                         SourcePos(file, 1, 1))
    elif not isinstance(root, yaml.MappingNode):
        kind = "a list" if isinstance(root, yaml.SequenceNode) else "a single value"
        raise SuiteError(
            f"the top level must be a mapping (`servers:`, `tools:`, …), got {kind}",
            SourcePos(file, *_mark(root)),
        )
    positions = Positions(file)
    errors: list[SuiteError] = []
    try:
        data = _Builder(loader, positions, errors).build(root, (), 0)
    except yaml.MarkedYAMLError as e:
        raise _yaml_error(e, text, file) from None
    finally:
        loader.dispose()
    return data, positions, errors


class _Builder:
    """Turns composed nodes into dicts, lists and scalars, recording every position."""

    def __init__(self, loader: Any, positions: Positions, errors: list[SuiteError]) -> None:
        self.loader = loader
        self.positions = positions
        self.errors = errors

    def build(self, node: yaml.Node, path: KeyPath, depth: int) -> Any:
        self.positions.values[path] = pack(*_mark(node))
        if depth > MAX_DEPTH:
            raise SuiteError("nesting is too deep (a recursive alias?)",
                             self.positions.value(path), format_path(path[:4]) + "…")
        if isinstance(node, yaml.MappingNode):
            if node.tag != MAP:  # `!!set {a, b}`, `!!omap`, `!custom {k: v}`, `!!str {k: v}`
                raise self._refused(node.tag, "a mapping", path)
            return self._mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != SEQ:  # `!!pairs [[a, 1]]`, `!!python/tuple [1]`, `!!map [1]`
                raise self._refused(node.tag, "a list", path)
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        if node.tag == STR:  # most scalars
            return node.value
        # the one-pass builder's table, never PyYAML's constructors: those make dates, bytes
        # and sets, and raise KeyError or AttributeError on a bad value (`!!bool maybe`)
        convert = SCALARS.get(node.tag)
        if convert is not None:
            try:
                return convert(node.value)
            except (KeyError, ValueError):  # `!!bool maybe`, `!!int abc`
                pass
        raise self._refused(node.tag, scalar_found(node.value), path)

    def _refused(self, tag: str, found: str, path: KeyPath) -> SuiteError:
        """A node whose explicit tag is not JSON's, or cannot hold what it tags."""
        return SuiteError(tag_problem(tag, found), self.positions.value(path), format_path(path))

    def _mapping(self, node: yaml.MappingNode, path: KeyPath, depth: int) -> dict[str, Any]:
        seen: dict[str, yaml.Node] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                continue
            first = seen.setdefault(key_node.value, key_node)
            if first is not key_node:
                line, _col = _mark(first)
                self.errors.append(SuiteError(
                    f"duplicate key `{key_node.value}` (first defined on line {line})",
                    SourcePos(self.positions.file, *_mark(key_node)),
                    format_path((*path, key_node.value)),
                ))
        self.loader.flatten_mapping(node)  # resolves `<<: *anchor` merges in place
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.errors.append(SuiteError(
                    "a key must be a plain value, not a list or mapping",
                    SourcePos(self.positions.file, *_mark(key_node)), format_path(path),
                ))
                continue
            key = str(key_node.value)
            child = (*path, key)  # one tuple for both maps: a 10,000-test suite has ~200,000
            self.positions.keys[child] = pack(*_mark(key_node))
            out[key] = self.build(value_node, child, depth + 1)
        return out
