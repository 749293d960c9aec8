"""A suite file's data and positions in one pass over the parser's events (the common case).

The exact path (`suite/positions.py`) reads a file three times: the bounds pass over the events
(`suite/yaml_bounds.py`), the C composer's node tree, then a walk of the nodes; on a 200-eval
suite that is ~11 ms of start-up. This pass builds the same data and positions straight from
the events, keeping the bounds as it goes, and gives up (returns None) on anything but a plain
well-formed file: a syntax or composer error, a bound crossed, a duplicate or non-scalar key,
a merge key, an anchored or aliased key, a tag other than JSON's kinds (`!!timestamp`, `!!set`,
`!custom`) or a value its tag cannot hold (`!!bool maybe`), an alias that would nest too deep,
or aliases expanding to more values than the file has characters.
The exact path then decides, so every error, message and position stays the exact path's own.
The last rule keeps the bounds' promise (docs/suites.md, "Limits"): a refused file costs no more
than its size, so an alias bomb is given up before it is expanded, not at 100,000 values.
"""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Any

from yaml import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from mcptest.suite.yaml_bounds import MAX_DEPTH, MAX_VALUES
from mcptest.suite.yaml_schema import (
    MAP,
    RESOLVERS_BY_FIRST,
    SCALARS,
    SEQ,
    STR,
    TAG,
    WILDCARD_RESOLVERS,
    SuiteLoader,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcptest.suite.positions import KeyPath

_VALUE = TAG + "value"
_COLLECTION_START = (MappingStartEvent, SequenceStartEvent)
_COLLECTION_END = (MappingEndEvent, SequenceEndEvent)


def build_from_events(
    text: str, *, list_top: bool,
) -> tuple[Any, dict[KeyPath, int], dict[KeyPath, int]] | None:
    """The data, value positions and key positions of `text`, or None: use the exact path."""
    loader = None
    try:
        loader = SuiteLoader(text)
        return _walk(loader.get_event, list_top, len(text))
    except Exception:  # anything unusual, including what the parser raises: see the docstring
        return None
    finally:
        if loader is not None:
            loader.dispose()


def _copy(value: Any) -> Any:
    """A fresh copy of an anchored value for each alias, as each visit builds new objects."""
    if type(value) is dict:
        return {k: _copy(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy(v) for v in value]
    return value


def _tail(positions: dict[KeyPath, int], count: int, cut: int) -> list[tuple[KeyPath, int]]:
    """The last `count` entries of `positions`, each path without its first `cut` parts."""
    tail = [(path[cut:], mark) for path, mark in islice(reversed(positions.items()), count)]
    tail.reverse()
    return tail


def _walk(get: Callable[[], Any], list_top: bool, budget: int,
          ) -> tuple[Any, dict[KeyPath, int], dict[KeyPath, int]] | None:
    """The file built, or None where the exact path must decide (see the module's docstring)."""
    values: dict[KeyPath, int] = {}
    keys: dict[KeyPath, int] = {}
    # an anchor's value, its positions relative to it, its depth and size; None while open
    anchors: dict[str, tuple[Any, list[tuple[KeyPath, int]], list[tuple[KeyPath, int]],
                             int, int] | None] = {}
    get()  # the stream's start
    if type(get()) is not DocumentStartEvent:
        return None
    event: Any = get()
    if type(event) is not (SequenceStartEvent if list_top else MappingStartEvent) or (
            event.tag not in (None, "!", SEQ if list_top else MAP)):
        return None
    mark: Any = event.start_mark
    values[()] = (mark.line + 1) << 32 | (mark.column + 1)
    root: Any = [] if list_top else {}
    container: Any = root
    path: KeyPath = ()
    key: str | None = None  # in a mapping: the key whose value comes next
    child: KeyPath = ()  # ... and that value's path
    is_map = not list_top
    # an open anchor: name, and the counts of values, keys and all values when it opened
    anchor: tuple[str, int, int, int] | None = None
    if event.anchor is not None:
        anchors[event.anchor] = None
        anchor = (event.anchor, 0, 0, 0)
    stack: list[tuple[Any, KeyPath, bool, tuple[str, int, int, int] | None]] = []
    total = 1  # as `check_bounds` counts: every key, value and item, aliases expanded
    by_first, wildcard = RESOLVERS_BY_FIRST, WILDCARD_RESOLVERS
    resolved_as: dict[str, str] = {}  # a plain scalar's text → its tag, for this file
    while True:
        event = get()
        cls = type(event)
        if cls is ScalarEvent:
            mark = event.start_mark
            text = event.value
            tag = event.tag
            if tag is None or tag == "!":  # the tag the composer resolves (BaseResolver.resolve)
                tag = STR
                if event.implicit[0]:
                    resolvers = by_first.get(text[:1], wildcard)
                    if resolvers:  # a key or value repeated in every test is matched once
                        tag = resolved_as.get(text, "")
                        if not tag:
                            tag = resolved_as[text] = next(
                                (t for t, rx in resolvers if rx.match(text)), STR)
            if is_map and key is None:  # a key
                if (event.anchor is not None or text in container
                        or (tag != STR and (tag.endswith(":merge") or tag == _VALUE))):
                    return None
                key = text
                child = (*path, key)  # one tuple for both maps (docs/reports.md, "Scale")
                keys[child] = (mark.line + 1) << 32 | (mark.column + 1)
                total += 1
                if total > MAX_VALUES:
                    return None
                continue
            here = child if is_map else (*path, len(container))
            value = text if tag == STR else SCALARS[tag](text)
            values[here] = packed = (mark.line + 1) << 32 | (mark.column + 1)
            total += 1
            if total > MAX_VALUES:
                return None
            if event.anchor is not None:
                if event.anchor in anchors:
                    return None
                anchors[event.anchor] = (value, [((), packed)], [], 0, 1)
        elif cls is AliasEvent:
            if is_map and key is None:
                return None
            here = child if is_map else (*path, len(container))
            found = anchors.get(event.anchor)
            if found is None:  # undefined, or its own ancestor (a recursive alias)
                return None
            value, rel_values, rel_keys, depth, size = found
            total += size
            budget -= size  # what aliases have expanded, against the file's size
            if total > MAX_VALUES or budget < 0 or len(here) + depth > MAX_DEPTH:
                return None
            for rel, packed in rel_values:
                values[here + rel] = packed
            for rel, packed in rel_keys:
                keys[here + rel] = packed
            value = _copy(value)
        elif cls in _COLLECTION_START:
            if (is_map and key is None) or len(stack) + 1 >= MAX_DEPTH:
                return None
            if event.tag not in (None, "!", MAP if cls is MappingStartEvent else SEQ):
                return None  # a tag other than its kind's (`!!set {a}`): the composer's error
            here = child if is_map else (*path, len(container))
            mark = event.start_mark
            values[here] = (mark.line + 1) << 32 | (mark.column + 1)
            total += 1
            if total > MAX_VALUES:
                return None
            value = {} if cls is MappingStartEvent else []
            if is_map:
                container[key] = value
            else:
                container.append(value)
            stack.append((container, path, is_map, anchor))
            anchor = None
            if event.anchor is not None:
                if event.anchor in anchors:
                    return None
                anchors[event.anchor] = None
                anchor = (event.anchor, len(values) - 1, len(keys), total - 1)
            container, path, key, is_map = value, here, None, cls is MappingStartEvent
            continue
        elif cls in _COLLECTION_END:
            if anchor is not None:
                name, values_at, keys_at, total_at = anchor
                rel_values = _tail(values, len(values) - values_at, len(path))
                anchors[name] = (container, rel_values, _tail(keys, len(keys) - keys_at,
                                                               len(path)),
                                 max(len(rel) for rel, _ in rel_values), total - total_at)
            if not stack:
                break
            container, path, is_map, anchor = stack.pop()
            key = None
            continue
        else:
            return None
        if is_map:
            container[key] = value
            key = None
        else:
            container.append(value)
    if type(get()) is not DocumentEndEvent or type(get()) is not StreamEndEvent:
        return None  # another document: the composer's error
    return root, values, keys
