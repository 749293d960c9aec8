"""Modules stay small (docs/architecture.md, "Rules we keep"): no module of mcptest is over 300
lines. A module that grows past it has more than one job: split it into modules named for each.
"""

from __future__ import annotations

from pathlib import Path

import mcptest

SRC = Path(mcptest.__file__).parent
MAX_LINES = 300


def _line_counts(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
            for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts}


def _over(root: Path) -> dict[str, int]:
    return {name: n for name, n in _line_counts(root).items() if n > MAX_LINES}


def test_every_module_is_at_most_300_lines() -> None:
    assert len(_line_counts(SRC)) > 100  # the walk found the package, not an empty folder
    over = _over(SRC)
    assert not over, (f"modules over {MAX_LINES} lines (split each into modules with one job, "
                      f"named for it): {over}")


def test_a_module_one_line_over_is_found(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "fits.py").write_text("a = 1\n" * MAX_LINES, encoding="utf-8")
    (tmp_path / "pkg" / "grew.py").write_text("a = 1\n" * MAX_LINES + "b = 2", encoding="utf-8")
    assert _over(tmp_path) == {"pkg/grew.py": MAX_LINES + 1}
