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
