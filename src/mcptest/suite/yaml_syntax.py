"""A YAML syntax error as a newcomer can act on it: where, under which key, and a hint.

PyYAML says what its parser could not do ("mapping values are not allowed in this context",
"did not find expected key") at a line and column. This adds the key path the parser had
reached (the enclosing mapping, and the key whose value was being read) and, for the problems
where one is clearly right, a short hint: most of these errors are a line indented unlike its
siblings. Only a file that failed to parse comes here (`suite/positions.py` imports it then).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml

from mcptest.errors import SourcePos, SuiteError
from mcptest.suite.positions import format_path

if TYPE_CHECKING:
    from mcptest.suite.positions import KeyPath

_INDENT = "is this line indented like its siblings?"
_QUOTE = "a value holding `: ` needs quotes"
_LINE_STARTS = ("did not find expected key", "did not find expected '-' indicator",
                "expected <block end>")
_KEY = re.compile(r"[A-Za-z0-9_$][^\s:#]*")  # a plain key, as people write them
# a block line `key: value` (after any `- `), its key's column being the first group's length
_KEY_VALUE = re.compile(r"(\s*(?:- +)*)" + _KEY.pattern + r": +[^\s#]")
_LINE = re.compile(r"(?:- +)*" + _KEY.pattern + r":(?: |$)|- ")  # a key's or an item's line
_KEY_TEXT = re.compile(r"(?:- +)*" + _KEY.pattern + r": +[^\s'\"\[\]{}&*!|>%@`#][^#{}\[\]]*")


def _key_path(text: str, e: yaml.MarkedYAMLError, line: int, column: int,
              loader: type) -> KeyPath:
    """The path the parser had reached at (line, column): the collection it was reading (the
    innermost open one, or the one its error names: "while parsing a block mapping") and, in a
    mapping, its last key read (whose value, or a line after it, holds the error).

    Only the text before the error is parsed: PyYAML's scanner reads ahead of the events it has
    given, so the events of the whole text stop short of the error.
    """
    if e.context == "expected a single document in the stream":
        return ()
    mark: Any = e.problem_mark or e.context_mark
    offset = mark.index if mark is not None else len(text)  # PyYAML's own count
    # each open collection: its path, whether a mapping, its start, [last key, values read]
    frames: list[tuple[KeyPath, bool, tuple[int, int], list[Any]]] = []
    try:
        for event in yaml.parse(text[:offset], Loader=loader):
            mark = event.start_mark
            if (mark.line, mark.column) >= (line, column):
                break  # the ends the cut text's end closes
            if isinstance(event, yaml.CollectionEndEvent):
                frames.pop()
            elif isinstance(event, yaml.NodeEvent) and frames:
                _, is_map, _, slot = frames[-1]
                if is_map and slot[1] % 2 == 0:  # a key: its value comes next
                    slot[0] = getattr(event, "value", None)
                if not isinstance(event, yaml.CollectionStartEvent):
                    slot[1] += 1
            if isinstance(event, yaml.CollectionStartEvent):
                frames.append((_here(frames), isinstance(event, yaml.MappingStartEvent),
                               (mark.line, mark.column), [None, 0]))
            elif isinstance(event, yaml.CollectionEndEvent) and frames:
                frames[-1][3][1] += 1  # the collection was a value
    except yaml.YAMLError:
        pass
    start = e.context_mark
    if start is not None and (e.context or "").startswith("while parsing"):
        named = [i for i, f in enumerate(frames) if f[2] == (start.line, start.column)]
        frames = frames[:named[-1] + 1] if named else frames
    if not frames:
        return ()
    path, is_map, _, slot = frames[-1]
    return (*path, slot[0]) if is_map and isinstance(slot[0], str) else path


def _here(frames: list[tuple[KeyPath, bool, tuple[int, int], list[Any]]]) -> KeyPath:
    """The path of the collection that starts now."""
    if not frames:
        return ()
    path, is_map, _, slot = frames[-1]
    if is_map:
        return (*path, slot[0] if isinstance(slot[0], str) else "")
    return (*path, slot[1])


def _hint(problem: str, lines: list[str], line: int, column: int) -> str:
    """A hint for the problems where one is clearly right, else "": a line that starts with a
    plain key or a list item where the block around it has none (it is indented unlike its
    siblings), or a colon after `key: text` (the value needs quotes)."""
    text = lines[line] if line < len(lines) else ""
    lead = len(text) - len(text.lstrip(" "))
    if problem.startswith(_LINE_STARTS):  # a line the block around it does not expect
        return _INDENT if column == lead and _LINE.match(text, lead) else ""
    if not problem.startswith("mapping values are not allowed"):
        return ""
    before = text[:column].strip()
    if _KEY_TEXT.fullmatch(before) and text[column + 1:column + 2] == " ":
        return _QUOTE  # `name: greet: me`
    above = next((x for x in reversed(lines[:line]) if x.strip() and not x.lstrip().startswith(
        "#")), "")
    found = _KEY_VALUE.match(above)
    if _KEY.fullmatch(before) and found and len(found.group(1)) < lead:
        return _INDENT  # `args:` deeper than the `tool: greet` above: read as its value
    return ""


def yaml_error(e: yaml.MarkedYAMLError, text: str, file: str, loader: type) -> SuiteError:
    """PyYAML's syntax error at its line and column, with the key path and a hint."""
    mark = e.problem_mark or e.context_mark
    line, column = (mark.line, mark.column) if mark else (0, 0)
    lines = text.splitlines()
    here = lines[line][column:column + 1] if line < len(lines) else ""
    problem = e.problem or str(e)
    hint = ""
    if here == "\t" or "'\\t'" in problem:
        problem = "tab character: YAML indents with spaces, never tabs"
    else:
        hint = _hint(problem, lines, line, column)
        if e.context and e.context not in problem:
            start = e.context_mark
            where = (f", which began on line {start.line + 1}, column {start.column + 1}"
                     if start and (start.line, start.column) != (line, column) else "")
            problem = f"{problem} ({e.context}{where}{'; ' + hint if hint else ''})"
        elif hint:
            problem = f"{problem} ({hint})"
    return SuiteError(f"invalid YAML: {problem}", SourcePos(file, line + 1, column + 1),
                      format_path(_key_path(text, e, line, column, loader)))
