"""Every exception class mcptest defines is in the one error tree drawn in `mcptest/errors.py`:
it roots at `McpTestError`, and the drawing names it under its real parent (issue 31)."""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import re
from pathlib import Path

import mcptest
from mcptest import errors
from mcptest.errors import McpTestError

SRC = Path(mcptest.__file__).parent
OUTSIDE = {"run/reaper.py": "a standard-library-only script (python -I -S): cannot import mcptest"}
_NAMED = re.compile(r"(Error|Exception)$")
_DRAWN = re.compile(r"^(?P<indent>[ │]*)[├└]── (?P<name>\w+)")


def _module(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _last(base: ast.expr) -> str:
    return ast.unparse(base).rsplit(".", 1)[-1]


@functools.cache
def _defined_exceptions() -> dict[str, type[BaseException]]:
    """Every exception class at the top of a module of src/mcptest, by name: found in the
    source (a base that is a builtin exception, is named like one, or is one found already),
    then imported and checked to be one."""
    classes: list[tuple[str, ast.ClassDef]] = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel in OUTSIDE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        classes += [(_module(path), n) for n in tree.body if isinstance(n, ast.ClassDef)]
        for n in ast.walk(tree):  # not importable by name: an exception there would go unchecked
            if isinstance(n, ast.ClassDef) and n not in tree.body:
                assert not any(_NAMED.search(_last(b)) for b in n.bases), (
                    f"{rel}:{n.lineno}: exception class {n.name} inside a function or class")
    known = {name for name, value in vars(builtins).items()
             if isinstance(value, type) and issubclass(value, BaseException)}
    candidates: set[tuple[str, str]] = set()
    while True:
        more = {(module, n.name) for module, n in classes if (module, n.name) not in candidates
                and any(_last(b) in known or _NAMED.search(_last(b)) for b in n.bases)}
        if not more:
            break
        candidates |= more
        known |= {name for _, name in more}
    found: dict[str, type[BaseException]] = {}
    for module, n in classes:
        if (module, n.name) in candidates:
            cls = getattr(importlib.import_module(module), n.name)
            assert issubclass(cls, BaseException), f"{module}.{n.name}"
            assert n.name not in found, f"two exception classes named {n.name}"
            found[n.name] = cls
    return found


def _drawing(doc: str) -> dict[str, str]:
    """Each class a drawing like the docstring of `mcptest.errors` names, with its parent."""
    lines = doc.splitlines()
    root = next(i for i, line in enumerate(lines) if line.strip().startswith("McpTestError"))
    parents: dict[str, str] = {}
    stack = ["McpTestError"]
    for line in lines[root + 1:]:
        if not line.strip():
            break
        m = _DRAWN.match(line)
        if m is None:
            continue  # a description's second line
        depth = (len(m["indent"]) - 4) // 4
        del stack[depth + 1:]
        assert m["name"] not in parents, f"{m['name']} drawn twice"
        parents[m["name"]] = stack[depth]
        stack.append(m["name"])
    return parents


def test_every_exception_class_roots_at_mcptest_error() -> None:
    outside = sorted(f"{cls.__module__}.{name}" for name, cls in _defined_exceptions().items()
                     if not issubclass(cls, McpTestError))
    assert outside == []


def test_the_drawing_is_the_tree() -> None:
    defined = _defined_exceptions()
    assert errors.__doc__ is not None
    drawn = _drawing(errors.__doc__)
    assert sorted(set(defined) - {"McpTestError"} - set(drawn)) == [], "not drawn"
    assert sorted(set(drawn) - set(defined)) == [], "drawn but not defined"
    for name, parent in drawn.items():
        cls = defined[name]
        real = next((b for b in cls.__bases__ if issubclass(b, McpTestError)), None)
        assert real is not None and real.__name__ == parent, (
            f"{name} is drawn under {parent}, derives from {cls.__bases__}")


def test_the_drawing_is_read_by_its_indent() -> None:
    drawing = """
    McpTestError          root
    ├── UsageError        a
    │   └── SuiteTooLarge b
    ├── ReportError       c
    │   ├── ReadBackError d,
    │   │   │             continued
    │   │   └── FileRefused e
    │   └── RecordError   f
    └── JudgeError        g

    └── After             not part of it
"""
    assert _drawing(drawing) == {
        "UsageError": "McpTestError", "SuiteTooLarge": "UsageError",
        "ReportError": "McpTestError", "ReadBackError": "ReportError",
        "FileRefused": "ReadBackError", "RecordError": "ReportError",
        "JudgeError": "McpTestError"}
