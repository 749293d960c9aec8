"""Readable messages for validation errors: what was expected, what was found, what was meant.

Wording rules: name the YAML key or value in backticks, say what is expected and what kind of
value was found (never the value itself when it could be long or secret), and suggest the
nearest known name when one is close.
"""

from __future__ import annotations

import inspect
import re
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from mcptest.suite.models import MATCHER_KINDS
from mcptest.suite.models.matcher_kinds import canonical_kind

if TYPE_CHECKING:
    from collections.abc import Iterable

    from mcptest.suite.positions import KeyPath

_EXPECTED = {
    "string_type": "a string", "int_type": "an integer", "int_parsing": "an integer",
    "int_from_float": "an integer", "float_type": "a number", "float_parsing": "a number",
    "bool_type": "a boolean", "bool_parsing": "a boolean", "dict_type": "a mapping",
    "model_type": "a mapping", "model_attributes_type": "a mapping", "list_type": "a list",
}
_SHAPES = {"EnvRef": "`{env: NAME}`", "FromEnv": "`{from_env: NAME, default: …}`",
           "LikertScale": "`{likert: {min, max}}`"}


def yaml_kind(value: Any) -> str:
    """The kind of a YAML value, as a person says it ("a list", "a string")."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true/false"
    return {str: "a string", int: "an integer", float: "a number", list: "a list",
            dict: "a mapping"}.get(type(value), type(value).__name__)


def member_expected(seg: str, err: dict[str, Any]) -> str:
    """What one union member pydantic names in a loc (`str`, `EnvRef`, …) looks like in YAML."""
    if seg in _SHAPES:
        return _SHAPES[seg]
    if seg.startswith("literal["):
        return " or ".join(f"`{x.strip().strip(chr(39))}`"
                           for x in err.get("ctx", {}).get("expected", seg).split(" or "))
    return {"str": "a string", "int": "an integer", "float": "a number",
            "bool": "a boolean", "none": "null"}.get(
        seg, "a list" if seg.startswith("list[") else "a mapping")


def join(words: list[str]) -> str:
    words = list(dict.fromkeys(words))
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def allowed_keys(parent: Any) -> list[str]:
    """The keys a model (or each model of a tuple of them, in order) accepts."""
    models = parent if isinstance(parent, tuple) else (parent,)
    return list(dict.fromkeys(
        info.alias or name for model in models
        if inspect.isclass(model) and issubclass(model, BaseModel)
        for name, info in model.model_fields.items()))


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """` (did you mean `x`?)` for the closest of `choices` by rapidfuzz's WRatio (at least 70:
    `forcast` → `forecast`, `temp_c` → `temperature_c`), else an empty string."""
    from rapidfuzz import fuzz, process  # only on the way to an error message

    hit = process.extractOne(word, list(choices), scorer=fuzz.WRatio, score_cutoff=70)
    return f" (did you mean `{hit[0]}`?)" if hit else ""


def _abbreviates(word: str, choice: str) -> bool:
    """`cmd` → `command`, `vars` → `variables`: the same first letter, then the word's letters
    in order."""
    rest = iter(choice[1:])
    return len(word) >= 3 and word[0] == choice[0] and all(c in rest for c in word[1:])


def closest_key(word: str, choices: list[str]) -> str | None:
    """The known key an unknown `word` most likely meant: a choice it is one `_`/`-` part of
    (`timeout` → `startup_timeout`), else one it abbreviates (`cmd` → `command`) or starts with
    (`environment` → `env`), else the closest by difflib at 0.7 (0.6 offered `cwd` for `cmd`
    and `lists` for `tests`), else None."""
    import difflib  # a misspelt key: only a bad suite needs it

    if word in choices:
        return None
    parts = [c for c in choices if word in re.split(r"[_-]", c)]
    short = [c for c in choices if (len(c) > len(word) and _abbreviates(word, c))
             or (len(c) >= 3 and word.startswith(c))]
    for found in (parts, short):
        if found:  # the closest of several (`startup` → `startup_timeout`, not `start`)
            return difflib.get_close_matches(word, found, 1, 0)[0]
    hit = difflib.get_close_matches(word, choices, n=1, cutoff=0.7)
    return hit[0] if hit else None


def suggest_key(word: str, choices: list[str]) -> str:
    """` (did you mean `x`?)` for an unknown key (`closest_key`), else an empty string."""
    meant = closest_key(word, choices)
    return f" (did you mean `{meant}`?)" if meant else ""


def _suggest(word: str, choices: list[str]) -> str:
    import difflib  # a suggestion for a misspelt word: only a bad suite needs it

    hit = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean `{hit[0]}`?)" if hit else ""


def _matcher_message(value: Any) -> tuple[str, str | None]:
    """Message for a matcher that is not exactly one known kind, and the key to point at."""
    if not isinstance(value, dict):
        return f"a matcher is a mapping like `{{exact: …}}`, got {yaml_kind(value)}", None
    kinds = [k for k in value if canonical_kind(k) in MATCHER_KINDS]
    unknown = [k for k in value if canonical_kind(k) not in MATCHER_KINDS]
    if len(kinds) > 1:
        listed = " and ".join(f"`{k}`" for k in kinds)
        return f"a matcher has exactly one kind, found {listed} (use `all:` to combine)", kinds[1]
    if unknown:
        key = unknown[0]
        if kinds:
            return f"unknown key `{key}` next to `{kinds[0]}` (a matcher has one key)", key
        hint = _suggest(key, list(MATCHER_KINDS)) or f" (one of: {', '.join(MATCHER_KINDS)})"
        return f"unknown matcher `{key}`{hint}", key
    return f"a matcher needs one of: {', '.join(MATCHER_KINDS)}", None


def message(
    err: dict[str, Any], path: KeyPath, parent: Any, data_at: Any,
) -> tuple[str, KeyPath, bool]:
    """(message, key path, point at the key rather than the value)."""
    kind = err["type"]
    loc, ctx, value = err["loc"], err.get("ctx") or {}, err.get("input")
    if kind == "missing":
        return f"missing required key `{loc[-1]}`", path, False
    if kind == "extra_forbidden":
        key, allowed = str(loc[-1]), allowed_keys(parent)
        hint = suggest_key(key, allowed)
        if not hint and len(path) == 1 and allowed:  # the top level: say every section
            hint = f" (valid keys: {', '.join(allowed)})"
        return f"unknown key `{key}`{hint}", path, True
    if kind == "matcher_kind":
        text, found = _matcher_message(data_at)
        return text, (*path, found) if found else path, found is not None
    if kind == "literal_error" and isinstance(value, str):
        choices = [x.strip().strip("'") for x in ctx.get("expected", "").replace(" or ", ", ")
                   .split(", ")]
        what = path[-1] if path and isinstance(path[-1], str) else "value"
        hint = _suggest(value, choices) or f" (one of: {', '.join(choices)})"
        return f"unknown {what} `{value}`{hint}", path, False
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {yaml_kind(value)}", path, False
    if kind == "invalid_json_schema":  # at the key inside the schema (`schema.properties.n.type`)
        at: KeyPath = (*path, *ctx["at"])
        names, found = ctx.get("allowed"), ctx.get("found")
        if not (names and isinstance(found, str)):
            return f"invalid JSON Schema: {ctx['problem']}", at, False
        key = next((s for s in reversed(at) if isinstance(s, str)), "value")
        return (f"invalid JSON Schema: `{key}` must be one of {', '.join(names)}, not "
                f"`{found}`{_suggest(found, names)}"), at, False
    if kind in ("value_error", "assertion_error"):
        return str(err["msg"]).split(", ", 1)[-1], path, False
    bounds = {"greater_than": "greater than", "greater_than_equal": "at least",
              "less_than": "less than", "less_than_equal": "at most"}
    if kind in bounds:
        limit = next(iter(ctx.values()), "?")
        shown = f"{limit:g}" if isinstance(limit, int | float) else limit
        return f"must be {bounds[kind]} {shown}, got {value}", path, False
    if kind == "finite_number":
        return f"must be a finite number, got {value}", path, False
    if kind in ("too_short", "string_too_short"):
        n = ctx.get("min_length", 1)
        return ("must not be empty" if n == 1 else f"needs at least {n} items"), path, False
    if kind == "too_long":
        return f"allows at most {ctx.get('max_length')} items", path, False
    if kind == "string_pattern_mismatch":
        if ctx.get("pattern") == "^https?://":
            return "must be an http:// or https:// URL", path, False
        return f"must match the pattern `{ctx.get('pattern')}`", path, False
    return str(err["msg"]), path, False
