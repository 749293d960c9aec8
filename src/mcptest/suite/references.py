"""`reference: {file: path}` → the file's value, and `same-shape` matchers → the value they
compare with (docs/cascade.md, "Weighted tiers and a reference").

Runs once after validation, on the models of every test and of every case of a table, so grading
stays a pure function of the loaded suite. A file that is missing, unreadable, too big or not
JSON (for `.json`) is a load error at the `reference` key, like any other bad input.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, cast

from mcptest.errors import SuiteError
from mcptest.suite.models.matcher_kinds import matcher_kind
from mcptest.suite.positions import KeyPath, Positions, format_path
from mcptest.suite.yaml_bounds import MAX_FILE_BYTES

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pydantic import BaseModel

    from mcptest.suite.case_rows import Case
    from mcptest.suite.case_tables import Reader
    from mcptest.suite.models import Suite
    from mcptest.suite.models.composite import NotMatcher
    from mcptest.suite.models.scoring import SameShapeMatcher

_GROUPS = ("tools", "agents", "evals")


def is_file_ref(value: Any) -> bool:
    """A mapping whose only key is `file` (docs/cascade.md): a mapping with other keys stays an
    inline value, and `{file: null}` is a file reference without a path, not a value."""
    return isinstance(value, dict) and set(value) == {"file"}


def _read_reference(ref: dict[str, Any], base_dir: Path, read: Reader) -> Any:
    """The file's value: JSON for `.json`, else its text; raises `ValueError` saying why not."""
    name = ref["file"]
    if not isinstance(name, str) or not name.strip():
        got = json.dumps(name, default=str)
        raise ValueError(f"`reference: {{file: …}}` needs a path (a string), got {got}")
    path = base_dir / name
    if not path.exists():
        raise ValueError(f"reference file `{name}` not found (looked in {base_dir})")
    if path.is_dir():
        raise ValueError(f"reference file `{name}` is a directory; give a file")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ValueError(f"reference file `{name}` is larger than {MAX_FILE_BYTES // 1024:,} KiB; "
                         "give a smaller reference")
    try:
        text = read(path, name)
    except SuiteError as e:
        raise ValueError(f"reference file `{name}`: {e.message}") from None
    if path.suffix.lower() != ".json":
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"reference file `{name}` is not valid JSON: {e.msg} "
                         f"(line {e.lineno}, column {e.colno})") from None


def _shape_matchers(matcher: BaseModel, path: KeyPath) -> Iterator[tuple[SameShapeMatcher,
                                                                          KeyPath]]:
    kind = matcher_kind(matcher)  # by kind: no matcher's model is imported to ask
    if kind == "same-shape":
        yield cast("SameShapeMatcher", matcher), (*path, "same-shape")
    elif kind == "not":
        yield from _shape_matchers(cast("NotMatcher", matcher).not_, (*path, "not"))
    elif kind in ("all", "any"):
        for k, sub in enumerate(getattr(matcher, kind)):
            yield from _shape_matchers(sub, (*path, kind, k))


def _resolve_one(spec: Any, path: KeyPath, case: str | None, positions: Positions,
                 base_dir: Path, read: Reader, errors: list[SuiteError]) -> None:
    where = f" (case `{case}`)" if case else ""
    reference: Any = getattr(spec, "reference", None)
    if is_file_ref(reference):
        try:
            spec.reference = reference = _read_reference(reference, base_dir, read)
        except ValueError as e:
            at = (*path, "reference")
            errors.append(SuiteError(f"{e}{where}", positions.key(at), format_path(at)))
            return
    if path[0] == "evals":  # an eval has no `expect`
        return
    for j, assertion in enumerate(spec.expect):
        for m, at in _shape_matchers(assertion.matcher, (*path, "expect", j, "matcher")):
            if "like" in m.same_shape.model_fields_set:
                continue
            if reference is None:
                errors.append(SuiteError(
                    "`same-shape` has no `like:` and the test gives no `reference:` to compare "
                    f"with{where}", positions.key(at), format_path(at)))
            m.same_shape._resolved = reference


def resolve_references(suite: Suite, cases: dict[KeyPath, tuple[Case, ...]],
                       positions: Positions, base_dir: Path, read: Reader,
                       errors: list[SuiteError]) -> None:
    """Read every `reference: {file: …}` and point every `same-shape` at its value."""
    for group in _GROUPS:
        for i, spec in enumerate(getattr(suite, group)):
            tabled = cases.get((group, i))
            if tabled:
                for case in tabled:
                    _resolve_one(case.spec, (group, i), case.row.name, positions, base_dir,
                                 read, errors)
            else:
                _resolve_one(spec, (group, i), None, positions, base_dir, read, errors)


__all__ = ["is_file_ref", "resolve_references"]
