"""What the plugin keeps for a pytest session: the run's options and the budget left.

The options come from the ini's `mcptest_options` and `--mcptest NAME=VALUE`, by the Python names
of `mcptest run`'s flags (`Options`). Selection is pytest's (`-k`, `-m`), and a baseline compares
whole runs, so those options are refused here. `max_cost` is one cap for the session: every
file's run spends from the session's one budget ledger (docs/python.md, "pytest").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

from mcptest.api.options import Options, options_of
from mcptest.errors import UsageError
from mcptest.llm.budget import BudgetLedger

if TYPE_CHECKING:
    from mcptest.pytest_plugin.nodes import Batch

SELECTION = ("filter", "tag", "skip_tag", "shard", "shard_weights")
WHOLE_RUN = ("baseline", "baseline_note", "fail_on", "max_score_drop", "alpha")


@dataclass
class PluginSession:
    """One per pytest session (in `config.stash`): parsed once, spent as files run."""

    options: Options
    per_session: bool = False
    """`mcptest_run_per = session`: one run for every file's kept items (docs/python.md)."""
    batch: Batch | None = None
    """That one run, once it started."""
    markers: set[str] = field(default_factory=set)
    """Tags registered as markers so far."""
    ledger: BudgetLedger = field(init=False)
    """The session's budget: every file's run reserves and spends from it (`llm/budget.py`)."""

    def __post_init__(self) -> None:
        self.ledger = BudgetLedger(self.options.max_cost)


_KEY = pytest.StashKey[PluginSession]()


def plugin_session(config: pytest.Config) -> PluginSession:
    """The session's state, made on first use (a bad option is a `UsageError` then)."""
    if _KEY not in config.stash:
        per = config.getini("mcptest_run_per")
        if per not in ("file", "session"):
            raise UsageError(f"mcptest_run_per = {per!r}: write file or session")
        config.stash[_KEY] = PluginSession(options=_options(config), per_session=per == "session")
    return config.stash[_KEY]


def _options(config: pytest.Config) -> Options:
    values: dict[str, Any] = {"with_evals": True}  # every test of a file is an item
    for line in [*config.getini("mcptest_options"), *config.getoption("mcptest_options")]:
        name, _, value = line.partition("=")
        name = name.strip()
        if name in SELECTION:
            raise UsageError(f"mcptest option {name!r}: pytest selects the tests (-k, -m)")
        if name in WHOLE_RUN:
            raise UsageError(f"mcptest option {name!r}: a baseline compares whole runs; "
                             "use `mcptest run --baseline`")
        values[name] = value.strip()
    return options_of(values)
