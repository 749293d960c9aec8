"""`${name}` interpolation from the suite's `variables:`, done on plain data before validation.

A string that is exactly one `${name}` takes the variable's value with its type (so
`timeout: ${t}` can be a number); anywhere else the value is written into the string. `$${`
is a literal `${`. Values come from the literal in `variables:` or from the `env` mapping the
caller passes (never `os.environ` directly); variable values themselves are not interpolated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcptest.errors import SuiteError
from mcptest.suite.positions import KeyPath, Positions, format_path

if TYPE_CHECKING:
    from collections.abc import Mapping

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOKEN = re.compile(r"\$\$\{|\$\{([^}]*)\}|\$\{")
_WHOLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class Unset:
    """A `{from_env}` variable whose environment variable is unset and that has no default."""

    env_name: str


def resolve_variables(raw: Any, env: Mapping[str, str]) -> dict[str, Any]:
    """Each variable's value; malformed declarations are left out (validation reports them)."""
    if not isinstance(raw, dict):
        return {}
    out: dict[str, Any] = {}
    for name, decl in raw.items():
        if isinstance(decl, str | int | float | bool):
            out[name] = decl
        elif isinstance(decl, dict) and isinstance(decl.get("from_env"), str):
            value = env.get(decl["from_env"])
            if value is not None:
                out[name] = value
            elif decl.get("default") is not None:
                out[name] = decl["default"]
            else:
                out[name] = Unset(decl["from_env"])
    return out


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Interpolator:
    """Walks the data below the top level, replacing references and collecting errors."""

    def __init__(
        self, variables: dict[str, Any], declared: set[str], positions: Positions,
        errors: list[SuiteError], deferred: Mapping[KeyPath, frozenset[str]] | None = None,
    ) -> None:
        self.variables = variables
        self.declared = declared
        self.positions = positions
        self.errors = errors
        self.deferred = deferred or {}
        """Per test (`("tools", 3)`): the names its `cases:` fill, left here for the case."""

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        return {
            key: value if key == "variables" else self._walk(value, (key,))
            for key, value in data.items()
        }

    def _walk(self, value: Any, path: KeyPath, keep: frozenset[str] = frozenset()) -> Any:
        if len(path) == 2 and path in self.deferred:
            keep = self.deferred[path]
        if isinstance(value, str):
            return self._string(value, path, keep) if "${" in value else value
        if isinstance(value, dict):
            return {k: self._walk(v, (*path, k), keep) for k, v in value.items()}
        if isinstance(value, list):
            return [self._walk(v, (*path, i), keep) for i, v in enumerate(value)]
        return value

    def _error(self, message: str, path: KeyPath) -> None:
        self.errors.append(SuiteError(message, self.positions.value(path), format_path(path)))

    def _lookup(self, name: str, path: KeyPath) -> Any:
        if name not in self.declared:
            import difflib  # a suggestion for a misspelt name: only a bad suite needs it

            hint = difflib.get_close_matches(name, sorted(self.declared), n=1)
            also = f" (did you mean `{hint[0]}`?)" if hint else " (declare it under `variables:`)"
            self._error(f"undefined variable `{name}`{also}", path)
            return None
        value = self.variables.get(name)
        if isinstance(value, Unset):
            self._error(
                f"variable `{name}` reads environment variable `{value.env_name}`, which is not"
                " set, and it has no `default`", path,
            )
            return None
        return value

    def _string(self, text: str, path: KeyPath, keep: frozenset[str] = frozenset()) -> Any:
        whole = _WHOLE.fullmatch(text)
        if whole and whole.group(1) in keep:
            return text
        if whole:
            value = self._lookup(whole.group(1), path)
            return text if value is None else value
        failed = False
        out: list[str] = []
        last = 0
        for m in _TOKEN.finditer(text):
            out.append(text[last:m.start()])
            last = m.end()
            token = m.group(0)
            if token == "$${":
                out.append("$${" if keep else "${")  # the case fills, then unescapes
            elif m.group(1) in keep:
                out.append(token)
            elif token == "${":
                self._error("unterminated `${` (write `$${` for a literal `${`)", path)
                failed = True
            elif not NAME.fullmatch(m.group(1)):
                self._error(
                    f"bad variable reference `{token}`: a name is letters, digits and `_`"
                    " (write `$${` for a literal `${`)", path,
                )
                failed = True
            else:
                value = self._lookup(m.group(1), path)
                failed = failed or value is None
                out.append("" if value is None else _text(value))
        out.append(text[last:])
        return text if failed else "".join(out)


def env_values(raw: Any, env: Mapping[str, str]) -> set[str]:
    """Values read from the environment by `{from_env}` variables: kept out of error messages."""
    if not isinstance(raw, dict):
        return set()
    names = {d["from_env"] for d in raw.values()
             if isinstance(d, dict) and isinstance(d.get("from_env"), str)}
    return {env[n] for n in names if n in env and len(env[n]) >= 4}


def interpolate(
    data: dict[str, Any], env: Mapping[str, str], positions: Positions,
    errors: list[SuiteError], deferred: Mapping[KeyPath, frozenset[str]] | None = None,
) -> dict[str, Any]:
    """Return `data` with every `${name}` below the top level replaced; errors are appended.
    Names in `deferred[("tools", i)]` are the test's case variables: left for its cases."""
    raw = data.get("variables")
    declared = set(raw) if isinstance(raw, dict) else set()
    variables = resolve_variables(raw, env)
    return Interpolator(variables, declared, positions, errors, deferred).apply(data)
