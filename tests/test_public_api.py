"""The public surface is `mcptest.__all__`: sorted, complete, and every name resolves."""

from __future__ import annotations

import subprocess
import sys

import mcptest


def test_all_is_sorted_and_resolves() -> None:
    assert mcptest.__all__ == sorted(mcptest.__all__)
    for name in mcptest.__all__:
        assert getattr(mcptest, name) is not None


def test_unknown_name_is_an_attribute_error() -> None:
    try:
        mcptest.nope  # noqa: B018
    except AttributeError as e:
        assert "nope" in str(e)
    else:
        raise AssertionError("mcptest.nope resolved")


def test_import_is_cheap() -> None:
    code = "import sys, mcptest; print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'mcp.', 'litellm'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_type_checkers_see_the_names_that_load_lazily() -> None:
    """Each public name is imported under `TYPE_CHECKING` from the module `_LAZY` loads it from,
    so `mcptest.run` is typed as the function it is at run time (and not the subpackage)."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(mcptest.__file__).read_text(encoding="utf-8"))
    (block,) = [n for n in tree.body if isinstance(n, ast.If)
                and isinstance(n.test, ast.Name) and n.test.id == "TYPE_CHECKING"]
    declared = {a.asname or a.name: node.module for node in block.body
                if isinstance(node, ast.ImportFrom) for a in node.names}
    assert declared == mcptest._LAZY
    assert set(mcptest.__all__) == {*declared, "__version__"}


def test_run_is_the_api_function_even_after_the_runner_is_imported() -> None:
    code = ("import mcptest, mcptest.run.runner, mcptest.api; "
            "print(mcptest.run is mcptest.api.run, type(mcptest.run).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "function"]
