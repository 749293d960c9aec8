"""The packaging tests' wheelhouse (support/wheelhouse.py): downloaded once into the user's
cache, keyed by constraints.txt, pyproject.toml, pytest and Python, shared by the xdist workers
and kept for the next session."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.wheelhouse import cache_folder, fill_wheelhouse


@pytest.fixture(scope="session")
def wheelhouse() -> Path:
    return fill_wheelhouse(cache_folder())
