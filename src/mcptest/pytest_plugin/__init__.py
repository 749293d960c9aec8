"""mcptest's pytest plugin (entry point `pytest11`): suite files as pytest items (docs/python.md).

pytest imports this module in every session of every environment mcptest is installed in, so
it holds the hooks only and imports nothing of mcptest's own until a suite file is collected.
Which YAML files are suites is opt-in, never guessed: names matching `mcptest_suites` (by
default `mcptest_*.yml` and `*.mcptest.yml`, `.yaml` too), or files named on the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path

    from mcptest.pytest_plugin.nodes import SuiteFile

DEFAULT_SUITES = ("mcptest_*.yml", "mcptest_*.yaml", "*.mcptest.yml", "*.mcptest.yaml")
YAML = (".yml", ".yaml")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mcptest", "mcptest suites (docs/python.md)")
    group.addoption(
        "--mcptest", action="append", default=[], dest="mcptest_options", metavar="NAME=VALUE",
        help="an option of `mcptest run` by its Python name (max_cost=0.10, "
             "require_judge=true); may repeat; wins over the ini's mcptest_options")
    parser.addini(
        "mcptest_suites", type="args", default=list(DEFAULT_SUITES),
        help="glob patterns of the suite files to collect, matched against the end of the "
             "path like python_files (default: mcptest_*.yml *.mcptest.yml, .yaml too)")
    parser.addini(
        "mcptest_options", type="linelist", default=[],
        help="NAME=VALUE lines: options of `mcptest run` for every suite (max_cost = 0.10)")
    parser.addini(
        "mcptest_run_per", type="string", default="file",
        help="file (default): one run per suite file, when its first item runs; session: one "
             "run for every file's items, when the first runs (faster, cannot stop at -x)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "mcptest: a test of an mcptest suite file")
    for line in [*config.getini("mcptest_options"), *config.getoption("mcptest_options")]:
        if "=" not in line:
            raise pytest.UsageError(f"mcptest option {line!r}: write NAME=VALUE")


def is_suite(path: Path, patterns: list[str]) -> bool:
    """Whether `path` is a suite file by name (`PurePath.match`: from the end of the path)."""
    return path.suffix in YAML and any(path.match(p) for p in patterns)


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> SuiteFile | None:
    if file_path.suffix not in YAML:
        return None
    if not (parent.session.isinitpath(file_path)
            or is_suite(file_path, parent.config.getini("mcptest_suites"))):
        return None
    from mcptest.pytest_plugin.nodes import SuiteFile

    return SuiteFile.from_parent(parent, path=file_path)
