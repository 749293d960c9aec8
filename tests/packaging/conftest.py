"""The packaging tests' session wheelhouse (support/wheelhouse.py): one download per session,
shared by the xdist workers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.wheelhouse import fill_wheelhouse


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # pytest-of-USER/pytest-N: the workers' common folder
    return fill_wheelhouse(shared)
