"""One name per idea (docs/architecture.md, "Names"): no two modules of mcptest share a file name
unless they play the same role, and no two public classes or functions share a name.

A new duplicate fails here; rename one of the two for what it is. Same-role exceptions are listed
below, and each such module says its role in its docstring.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import mcptest

SRC = Path(mcptest.__file__).parent

# file name → (the modules that share it, the role each one's docstring names)
SAME_ROLE_FILES: dict[str, tuple[set[str], str]] = {
    "base.py": ({"report/base.py", "suite/models/base.py"}, "The base of every"),
    "main.py": ({"cli/main.py", "action/main.py"}, "Entry point"),
}
# a package whose file names are fixed from outside: `mcptest X` lives in cli/commands/X.py
NAMED_FROM_OUTSIDE = ("cli/commands/",)
# public names that are a protocol, defined once per module of one role
PROTOCOL_NAMES: dict[str, tuple[str, ...]] = {
    "add_arguments": ("cli/commands/",),  # each command adds its arguments (cli/main.py)
    "run": ("cli/commands/",),  # ... and runs it; `mcptest.run` (api/) is the Python API's
    "render": ("reporters/",),  # a reporter: render(report) -> str (docs/reports.md)
    "main": ("",),  # a program's entry point (`python -m ...`)
}


def _modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "__pycache__" not in p.parts)


def _rel(p: Path) -> str:
    return p.relative_to(SRC).as_posix()


def test_no_two_modules_share_a_file_name_unless_same_role() -> None:
    by_name: dict[str, set[str]] = defaultdict(set)
    for p in _modules():
        rel = _rel(p)
        if p.name != "__init__.py" and not rel.startswith(NAMED_FROM_OUTSIDE):
            by_name[p.name].add(rel)
    shared = {name: where for name, where in by_name.items() if len(where) > 1}
    unexplained = {name: sorted(where) for name, where in shared.items()
                   if name not in SAME_ROLE_FILES or where != SAME_ROLE_FILES[name][0]}
    assert not unexplained, f"rename one of each for what it is: {unexplained}"
    for _name, (where, role) in SAME_ROLE_FILES.items():
        for rel in where:
            doc = ast.get_docstring(ast.parse((SRC / rel).read_text(encoding="utf-8"))) or ""
            assert role in doc, f"{rel}: its docstring should name its role ({role!r})"


def _public_defs(p: Path) -> list[str]:
    tree = ast.parse(p.read_text(encoding="utf-8"))
    return [n.name for n in tree.body
            if isinstance(n, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and not n.name.startswith("_")]


def test_no_two_public_classes_or_functions_share_a_name() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for p in _modules():
        rel = _rel(p)
        for name in _public_defs(p):
            if not rel.startswith(PROTOCOL_NAMES.get(name, ("\0",))):
                where[name].append(rel)
    shared = {name: places for name, places in where.items() if len(places) > 1}
    assert not shared, f"one name, several things; rename for what each is: {shared}"


def test_the_walk_sees_the_package() -> None:
    """The checks above read real files: the walk finds the modules they name."""
    rels = {_rel(p) for p in _modules()}
    assert {"cli/main.py", "report/models.py", "suite/models/base.py"} <= rels
    assert "Verdict" in _public_defs(SRC / "grade/verdicts.py")
