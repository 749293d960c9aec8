"""Shared pytest configuration: async tests run on asyncio through anyio's plugin; property
tests have no per-example deadline; `pytester` runs the plugin's pytest sessions; under
pytest-xdist, `xdist_group` marks hold and slow tests start first.

`--dist loadgroup` sends the tests of one `xdist_group` to one worker by a `@group` suffix that
pytest-xdist (3.8) writes on each test's id; pytest 9.2 keeps the id elsewhere, so the suffix was
lost and every group was spread over the workers (the doc pages that build the image ran side by
side; the packaging tests' module fixtures ran once per worker). `_xdist_groups` writes it where
pytest 9.2 reads it, unless pytest-xdist already did.

Each worker takes the next test as it finishes one, in collection order: a long test collected
late (the suite fuzz test, in tests/suite) starts when the other worker has little left, which
then idles until it ends. Collected first, the long tests overlap each other and the run ends on
short ones (docs/architecture.md, "Tests").

Hypothesis fails an example that takes over 200 ms by default: a timing assertion, which on a
loaded 2-core runner can fail a test whose property holds. Speed is measured in bench/, so the
profile drops the deadline; a test that bounds hostile input on purpose still sets its own
(tests/suite/test_suite_fuzz.py).
"""

from __future__ import annotations

import os
import signal
import subprocess

import pytest
from _pytest.nodeid import coerce_node_id
from hypothesis import settings
from support.servers import SHARED_EXAMPLE_URL, shared_example, stop, wait_for_port

pytest_plugins = ["pytester"]  # tests/pytest_plugin runs pytest sessions in-process

settings.register_profile("mcptest", deadline=None)
settings.load_profile("mcptest")


def _xdist_groups(items: list[pytest.Item]) -> None:
    for item in items:
        groups = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                         for m in item.iter_markers("xdist_group")})
        suffix = f"@{'_'.join(groups)}"
        if groups and not item.nodeid.endswith(suffix):
            item._id = coerce_node_id(item.nodeid + suffix)


@pytest.hookimpl(trylast=True)  # after pytest-xdist's own hook
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if getattr(config.option, "loadgroup", False):  # a worker of `--dist loadgroup`
        _xdist_groups(items)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow first


_SHARED = pytest.StashKey[subprocess.Popen[bytes]]()


def pytest_configure(config: pytest.Config) -> None:
    """Every process that runs tests (not pytest-xdist's controller) starts one example server
    over HTTP for the suites of `support.cli_run` (its HEAD); it starts while the tests are
    collected and is stopped at the end (docs/architecture.md, "Tests").

    The tests run as a user's foreground `make test` does, whatever started them: a shell
    without job control starts a background job (`make test &`, a CI script's `… &`) with
    SIGINT ignored, which every process a test starts inherits, and the tests that stop one with
    SIGINT (Ctrl-C) would then wait on a process that cannot hear it."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        return
    proc, url = shared_example()
    config.stash[_SHARED] = proc
    os.environ[SHARED_EXAMPLE_URL] = url


def pytest_unconfigure(config: pytest.Config) -> None:
    proc = config.stash.get(_SHARED, None)
    if proc is not None:
        stop(proc)
        if proc.stderr:
            proc.stderr.close()
        os.environ.pop(SHARED_EXAMPLE_URL, None)


@pytest.fixture(scope="session", autouse=True)
def _shared_example_ready(pytestconfig: pytest.Config) -> None:
    proc = pytestconfig.stash.get(_SHARED, None)
    if proc is not None:
        wait_for_port(int(os.environ[SHARED_EXAMPLE_URL].rsplit(":", 1)[1].split("/")[0]), proc)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
