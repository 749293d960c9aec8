"""pydantic's ValidationError → one readable `SuiteError` per mistake, at its YAML position.

pydantic's error `loc` mixes YAML keys with names that are not in the file: union member
names (`WhenRegex`, `str`), discriminator tags (`stdio`, `regex`) and the name of a missing
field. We walk the loc alongside the model's types so that only real YAML keys end up in the
key path, and so that a failed union reports the one member the user most likely meant
instead of one error per member.
"""

from __future__ import annotations

import functools
import inspect
import types
from collections import defaultdict
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ForwardRef,
    Literal,
    Union,
    get_args,
    get_origin,
)

from pydantic import AliasChoices, BaseModel, Discriminator, Tag, ValidationError

from mcptest.errors import SuiteError
from mcptest.suite.messages import (
    allowed_keys,
    closest_key,
    join,
    member_expected,
    message,
    yaml_kind,
)
from mcptest.suite.positions import KeyPath, Positions, format_path

if TYPE_CHECKING:
    from collections.abc import Iterable

    from pydantic_core import ErrorDetails

_TYPE_ERRORS = frozenset({
    "string_type", "int_type", "int_parsing", "int_from_float", "float_type", "float_parsing",
    "bool_type", "bool_parsing", "model_type", "model_attributes_type", "dict_type",
    "list_type", "literal_error", "none_required", "is_instance_of",
})


@dataclass
class _Item:
    """One pydantic error, placed in the YAML."""

    err: dict[str, Any]
    path: KeyPath
    parent: Any  # the model type owning the last loc segment, when known
    branches: list[tuple[tuple[Any, ...], str, KeyPath]] = field(default_factory=list)
    at: Any = None  # the type the whole loc leads to


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def _unwrap(tp: Any) -> tuple[Any, bool]:
    """Strip `Annotated` and `Optional`; say whether a discriminator was attached."""
    tagged = False
    while True:
        if get_origin(tp) is Annotated:
            base, *meta = get_args(tp)
            tagged = tagged or any(isinstance(m, Discriminator) for m in meta)
            tp = base
        elif _is_union(tp) and sum(a is not type(None) for a in get_args(tp)) == 1:
            tp = next(a for a in get_args(tp) if a is not type(None))
        else:
            return tp, tagged


def _member(members: tuple[Any, ...], seg: str, tagged: bool) -> Any | None:
    for m in members:
        if tagged:
            if get_origin(m) is Annotated and any(
                isinstance(x, Tag) and x.tag == seg for x in get_args(m)[1:]
            ):
                return m
            continue
        base, _ = _unwrap(m)
        origin = get_origin(base)
        if (inspect.isclass(base) and base.__name__ == seg) or (
            origin is not None and seg.startswith(
                {list: "list[", dict: "dict[", Literal: "literal["}.get(origin, "\0"))
        ):
            return m
    return None


def _model_field(model: type[BaseModel], seg: str) -> tuple[str, Any] | None:
    for name, info in model.model_fields.items():
        choices = info.validation_alias.choices if isinstance(
            info.validation_alias, AliasChoices) else ()
        if seg in (info.alias, name, *choices):
            if isinstance(info.annotation, ForwardRef):  # not resolved before its first use
                section_type = getattr(model, "section_type", None)
                if section_type is not None:  # `Suite`: each section resolves on its own
                    return seg, section_type(name)
                model.model_rebuild()  # a name defined after the model (`Tier`, `TreeNode`)
                info = model.model_fields[name]
            tp: Any = info.annotation  # a type expression: `Annotated[...]` is one, not a type
            if info.metadata or info.discriminator:
                extra = [*info.metadata]
                found = info.discriminator
                if found and not any(isinstance(x, Discriminator) for x in extra):
                    extra.append(found if isinstance(found, Discriminator)
                                 else Discriminator(found))
                tp = Annotated[tp, *extra] if extra else tp
            return seg, tp  # the key as the file spells it (alias, name or older alias)
    return None


def locate_error(err: dict[str, Any], data: Any, root: type[BaseModel]) -> _Item:
    """Walk `err['loc']` through the types and the data together."""
    loc = tuple(err["loc"])
    item = _Item(err, (), None)
    tp: Any = root
    node: Any = data
    for i, seg in enumerate(loc):
        tp, tagged = _unwrap(tp)
        member_for = getattr(tp, "member_for", None)
        if member_for is not None:  # a union that picks its member from the value (`Matcher`)
            tp, tagged = _unwrap(member_for(node) or Any)
        if _is_union(tp) and isinstance(seg, str):
            members = tuple(a for a in get_args(tp) if a is not type(None))
            item.branches.append((loc[:i], seg, item.path))
            tp = _member(members, seg, tagged) or Any
            continue
        item.parent = tp
        if inspect.isclass(tp) and issubclass(tp, BaseModel) and isinstance(seg, str):
            found = _model_field(tp, seg)
            tp = found[1] if found else Any
            key = found[0] if found else seg
            if isinstance(node, dict) and key in node:
                node = node[key]
                item.path = (*item.path, key)
            else:
                node = None
            continue
        origin = get_origin(tp)
        args = get_args(tp)
        tp = args[-1] if origin in (list, dict) and args else Any
        in_list = isinstance(node, list) and isinstance(seg, int) and -len(node) <= seg < len(node)
        if in_list or (isinstance(node, dict) and seg in node):
            node, item.path = node[seg], (*item.path, seg)
        else:
            node = None
    item.at = tp
    return item


def _is_root_mismatch(item: _Item, prefix_len: int) -> bool:
    return len(item.err["loc"]) == prefix_len + 1 and item.err["type"] in _TYPE_ERRORS


def _score(group: list[_Item], prefix_len: int) -> tuple[int, int, int]:
    """Lower is likelier: a member that matched the input's type, with fewer wrong keys."""
    mismatch = all(_is_root_mismatch(it, prefix_len) for it in group)
    wrong_keys = sum(it.err["type"] in ("missing", "extra_forbidden") for it in group)
    return int(mismatch), wrong_keys, len(group)


def _condense(items: list[_Item]) -> list[_Item]:
    """Keep, for every failed union, the errors of the member the user most likely meant."""
    while True:
        points: dict[tuple[Any, ...], set[str]] = defaultdict(set)
        for it in items:
            for prefix, seg, _ in it.branches:
                points[prefix].add(seg)
        multi = sorted((p for p, segs in points.items() if len(segs) > 1), key=len)
        if not multi:
            return items
        prefix = multi[0]
        groups: dict[str, list[_Item]] = defaultdict(list)
        for it in items:
            for p, seg, _ in it.branches:
                if p == prefix:
                    groups[seg].append(it)
        inside = [it for group in groups.values() for it in group]
        rest = [it for it in items if all(it is not x for x in inside)]
        if all(_is_root_mismatch(it, len(prefix)) for it in inside):
            first = inside[0]
            path = next(path for p, _, path in first.branches if p == prefix)
            expected = join([member_expected(seg, g[0].err) for seg, g in groups.items()])
            got = yaml_kind(first.err.get("input"))
            synthetic = {"type": "union_type", "loc": prefix, "input": first.err.get("input"),
                         "msg": f"expected {expected}, got {got}"}
            items = [*rest, _Item(synthetic, path, None)]
            continue

        depth = len(prefix)
        best = min(groups.values(), key=functools.partial(_score, prefix_len=depth))
        for it in best:  # the union is settled: forget it so it is not picked again
            it.branches = [b for b in it.branches if b[0] != prefix]
        items = [*rest, *best]


def _typos(items: list[_Item]) -> set[tuple[KeyPath, str]]:
    """(mapping path, missing key) pairs explained by an unknown key that looks like it."""
    missing = {(it.path, str(it.err["loc"][-1])) for it in items if it.err["type"] == "missing"}
    out: set[tuple[KeyPath, str]] = set()
    for it in items:
        if it.err["type"] == "extra_forbidden" and it.path:
            mapping, key = it.path[:-1], str(it.path[-1])
            wanted = [k for m, k in missing if m == mapping]
            import difflib  # an unknown key's suggestion: only a suite with a typo needs it

            out.update((mapping, hit) for hit in difflib.get_close_matches(key, wanted, n=1))
    return out


def _each_mistake(item: _Item, data: Any) -> list[_Item]:
    """An invalid JSON Schema's problems, one by one; a tagged union's mapping that no member
    takes (`server_kind`): its unknown keys. A key that is a typo of one that picks a member
    (`cmd` → `command`) is said instead of the union's message; any other is named in it
    ("… or `url` (HTTP) (unknown key `workdir`)")."""
    if item.err["type"] == "invalid_json_schema":  # one error per problem of the schema
        return [_Item({**item.err, "ctx": p}, item.path, item.parent)
                for p in item.err["ctx"]["problems"]]
    tp, found = item.at, None
    while get_origin(tp) is Annotated and found is None:
        tp, *meta = get_args(tp)
        found = next((m for m in meta if isinstance(m, Discriminator)), None)
    node = _value_at(data, item.path)
    if (found is None or item.err["type"] != found.custom_error_type
            or not callable(found.discriminator) or not isinstance(node, dict)):
        return [item]
    members = tuple(_unwrap(m)[0] for m in get_args(_unwrap(tp)[0]))
    allowed = allowed_keys(members)
    unknown = [k for k in node if k not in allowed]
    meant = {k: closest_key(k, allowed) for k in unknown}
    if not any(m and found.discriminator({**node, m: node[k]}) for k, m in meant.items()):
        if not unknown:
            return [item]
        named = ("key" if len(unknown) == 1 else "keys") + " " + ", ".join(
            f"`{k}`" for k in unknown)
        return [_Item({**item.err, "msg": f"{item.err['msg']} (unknown {named})"},
                      item.path, item.parent)]
    return [_Item({"type": "extra_forbidden", "loc": (*item.err["loc"], k), "input": node[k],
                   "msg": "Extra inputs are not permitted"}, (*item.path, k), members)
            for k in unknown]


def _value_at(data: Any, path: KeyPath) -> Any:
    for seg in path:
        try:
            data = data[seg]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def suite_errors(
    exc: ValidationError, data: Any, positions: Positions, root: type[BaseModel],
) -> list[SuiteError]:
    """Translate every error of `exc` (raised validating `data` as `root`)."""
    return located_errors(exc.errors(include_url=False), data, positions, root)


def located_errors(
    errors: Iterable[ErrorDetails], data: Any, positions: Positions, root: type[BaseModel],
) -> list[SuiteError]:
    """Translate pydantic's errors of validating `data` as `root` (or its sections as its
    fields, `loc` from the top)."""
    items = [x for it in _condense([locate_error(dict(e), data, root) for e in errors])
             for x in _each_mistake(it, data)]
    out: list[SuiteError] = []
    seen: set[str] = set()
    typos = _typos(items)
    for item in items:
        if item.err["type"] == "missing" and (item.path, item.err["loc"][-1]) in typos:
            continue  # the unknown key's "did you mean" already says it
        text, path, at_key = message(item.err, item.path, item.parent,
                                     _value_at(data, item.path))
        pos = positions.key(path) if at_key else positions.value(path)
        error = SuiteError(text, pos, format_path(path))
        if str(error) not in seen:
            seen.add(str(error))
            out.append(error)
    return out
