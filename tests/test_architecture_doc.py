"""docs/architecture.md keeps up with the code: every package of mcptest (and every layer the
import contract names) has a row in its Layers table, and every module it names by path exists.
A new package without a paragraph, or a moved module the page still points at, fails here.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import mcptest

SRC = Path(mcptest.__file__).parent
ROOT = SRC.parents[1]
PAGE = ROOT / "docs" / "architecture.md"


def _layers_table(text: str) -> str:
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    return "\n".join(line for line in section.splitlines() if line.startswith("| `mcptest"))


def _packages() -> set[str]:
    """`mcptest.X` for each package and top-level module (not `__main__`, not data folders)."""
    found = {f"mcptest.{p.parent.name}" for p in SRC.glob("*/__init__.py")}
    found |= {f"mcptest.{p.stem}" for p in SRC.glob("*.py") if not p.stem.startswith("__")}
    return found


def test_every_package_has_a_row_in_the_layers_table() -> None:
    table = _layers_table(PAGE.read_text(encoding="utf-8"))
    missing = sorted(p for p in _packages() if f"`{p}`" not in table)
    assert len(_packages()) > 20
    assert not missing, f"docs/architecture.md, Layers: no row for {missing}"


def test_every_layer_of_the_import_contract_is_described() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in contracts if c["type"] == "layers")
    named = {name.strip() for layer in layers for name in layer.split("|")}
    table = _layers_table(PAGE.read_text(encoding="utf-8"))
    missing = sorted(n for n in named if f"`{n}`" not in table)
    assert named and not missing, f"docs/architecture.md, Layers: no row for {missing}"


def _exists(path: str) -> bool:
    return any((base / path).is_file() for base in (SRC, SRC.parent, ROOT))


def test_every_module_the_page_names_by_path_exists() -> None:
    """Paths with a folder (`run/lifecycle.py`, `mcptest/pipeline.py`, `tests/…`): a module
    moved or split by a later change must be renamed here too."""
    text = PAGE.read_text(encoding="utf-8")
    paths = set(re.findall(r"`([\w./-]+/[\w.-]+\.(?:py|j2))`", text))
    assert len(paths) > 30  # the pattern reads the page's paths
    gone = sorted(p for p in paths if not _exists(p))
    assert not gone, f"docs/architecture.md names modules that do not exist: {gone}"
