"""The Action's inputs, read from `INPUT_<NAME>` variables and validated with clear errors.

The runner keeps hyphens in the variable names (`INPUT_MAX-COST`) and does not enforce
`required:`, so every rule lives here and every error names the input as the workflow spells it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from mcptest.api.options import parse_fail_on
from mcptest.errors import UsageError
from mcptest.reporters import FORMATS

if TYPE_CHECKING:
    from collections.abc import Mapping

CommentMode = Literal["update", "recreate", "off"]
Mode = Literal["run", "merge"]

#: Formats the Action may pass to the CLI besides the json and sarif it always asks for.
KNOWN_REPORTERS = tuple(f.name for f in FORMATS if f.action)

#: Where `report-to` may send the results besides the PR comment (docs/action.md).
REPORT_TARGETS = ("issue",)

_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off", ""}
_SHARD = re.compile(r"^(\d+)/(\d+)$")


class ActionInputs(BaseModel):
    """Validated inputs; field names are the input names with `_` for `-`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: Mode = "run"
    """`run` runs the suites; `merge` merges shard reports (docs/action.md, "Shards")."""
    suites: list[str] = Field(default_factory=list)
    max_cost: float | None = None
    reporters: list[str] = Field(default_factory=list)
    output_dir: str = "mcptest-results"
    sarif: str = "mcptest.sarif"
    comment: bool = True
    comment_mode: CommentMode = "update"
    github_token: str = Field(default="", repr=False)
    require_judge: bool = False
    distrust_changed_evidence: bool = False
    with_evals: bool = False
    lint: bool = False
    concurrency: int | None = None
    tag: list[str] = Field(default_factory=list)
    """Run only tests carrying one of these tags (`mcptest run --tag`)."""
    skip_tag: list[str] = Field(default_factory=list)
    """Leave out tests carrying any of these tags (`mcptest run --skip-tag`)."""
    shard: str | None = None
    shard_weights: str = ""
    shard_reports: list[str] = Field(default_factory=list)
    working_directory: str = "."
    report_to: list[str] = Field(default_factory=list)
    issue_label: str = "mcptest"
    baseline: str = ""
    """`auto`, a report path, or "" (docs/baseline.md)."""
    baseline_artifact: str = "mcptest-report"
    fail_on: str = "any-failure"
    """`any-failure` or `regressed`, and/or `not-measured` (comma-separated)."""
    models: Literal["record", "replay", "replay-or-record"] | None = None
    """Model cassettes (docs/cassettes.md); None: every model request is sent."""

    @property
    def wants_comment(self) -> bool:
        return self.comment and self.comment_mode != "off"


def _raw(env: Mapping[str, str], name: str) -> str:
    return env.get(f"INPUT_{name.upper()}", "").strip()


def split_list(value: str) -> list[str]:
    """Items separated by newlines or commas, blanks dropped, order kept."""
    return [item.strip() for item in re.split(r"[\n,]", value) if item.strip()]


def _bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    value = _raw(env, name).lower()
    if not value:
        return default
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise UsageError(f"input '{name}' must be true or false, got {value!r}")


#: Inputs that only shape a run; with `mode: merge` they must keep these (default) values.
_RUN_ONLY: dict[str, set[str]] = {
    "shard": {""}, "shard-weights": {""}, "max-cost": {""}, "concurrency": {""},
    "tag": {""}, "skip-tag": {""},
    "baseline": {""}, "fail-on": {"", "any-failure"},
    "with-evals": _FALSE, "lint": _FALSE, "require-judge": _FALSE, "models": {""},
    "distrust-changed-evidence": _FALSE,
}


def check_mode(env: Mapping[str, str], mode: str, shard_reports: list[str]) -> None:
    """`shard-reports` belongs to `mode: merge`, and a merge runs nothing, so the run's own
    inputs there would be silently ignored: both are errors (docs/action.md, "Shards")."""
    if mode == "run":
        if shard_reports:
            raise UsageError("input 'shard-reports' needs 'mode: merge'")
        return
    if not shard_reports:
        raise UsageError("input 'shard-reports' is required with 'mode: merge': the shard jobs' "
                         "JSON reports, files or globs")
    for name, defaults in _RUN_ONLY.items():
        if _raw(env, name).lower() not in defaults:
            raise UsageError(f"input '{name}' applies to a run, not to 'mode: merge' (set it on "
                             "the shard jobs)")


def read_inputs(env: Mapping[str, str]) -> ActionInputs:
    """Read and validate every input; raises `UsageError` naming the first bad one."""
    mode = _raw(env, "mode").lower() or "run"
    if mode not in ("run", "merge"):
        raise UsageError(f"input 'mode' must be run or merge, got {mode!r}")
    suites = split_list(_raw(env, "suites"))
    if not suites and mode == "run":
        raise UsageError(
            "input 'suites' is required: one or more suite files or globs, "
            "separated by newlines or commas"
        )

    max_cost: float | None = None
    if raw := _raw(env, "max-cost"):
        try:
            max_cost = float(raw.removeprefix("$"))
        except ValueError:
            raise UsageError(f"input 'max-cost' must be a number of USD, got {raw!r}") from None
        if not max_cost >= 0 or max_cost == float("inf"):
            raise UsageError(f"input 'max-cost' must be a finite amount ≥ 0, got {raw!r}")

    reporters = split_list(_raw(env, "reporters"))
    unknown = [r for r in reporters if r not in KNOWN_REPORTERS]
    if unknown:
        raise UsageError(
            f"input 'reporters' has unknown format(s) {', '.join(unknown)}; "
            f"known: {', '.join(KNOWN_REPORTERS)}"
        )

    comment_mode = _raw(env, "comment-mode").lower() or "update"
    if comment_mode not in ("update", "recreate", "off"):
        raise UsageError("input 'comment-mode' must be update, recreate or off, "
                         f"got {comment_mode!r}")

    concurrency: int | None = None
    if raw := _raw(env, "concurrency"):
        if not raw.isdigit() or int(raw) < 1:
            raise UsageError(f"input 'concurrency' must be a whole number ≥ 1, got {raw!r}")
        concurrency = int(raw)

    shard = _raw(env, "shard") or None
    if shard is not None:
        match = _SHARD.match(shard)
        if not match or not 1 <= int(match[1]) <= int(match[2]):
            raise UsageError(f"input 'shard' must look like i/n with 1 ≤ i ≤ n, got {shard!r}")

    report_to = split_list(_raw(env, "report-to"))
    if unknown_targets := [t for t in report_to if t not in REPORT_TARGETS]:
        raise UsageError(f"input 'report-to' has unknown target(s) {', '.join(unknown_targets)}"
                         f"; known: {', '.join(REPORT_TARGETS)}")
    issue_label = _raw(env, "issue-label") or "mcptest"
    if "," in issue_label or "\n" in issue_label or len(issue_label) > 50:
        raise UsageError(f"input 'issue-label' must be one label name, got {issue_label!r}")

    output_dir = _raw(env, "output-dir") or "mcptest-results"
    working_directory = _raw(env, "working-directory") or "."
    for name, value in (("output-dir", output_dir), ("working-directory", working_directory)):
        if "\n" in value or "\x00" in value:
            raise UsageError(f"input '{name}' must be a single path")

    fail_on = ",".join(split_list(_raw(env, "fail-on"))) or "any-failure"
    try:
        parse_fail_on(fail_on)
    except ValueError as e:
        raise UsageError(f"input 'fail-on' {e}") from None

    models = _raw(env, "models").lower() or None
    if models not in (None, "record", "replay", "replay-or-record"):
        raise UsageError(f"input 'models' must be record, replay or replay-or-record, got "
                         f"{models!r}")

    shard_reports = split_list(_raw(env, "shard-reports"))
    check_mode(env, mode, shard_reports)

    return ActionInputs(
        mode=mode,
        suites=suites or shard_reports,  # a merge's comment is keyed by `suites` when given
        max_cost=max_cost,
        reporters=list(dict.fromkeys(reporters)),
        output_dir=output_dir,
        sarif=_raw(env, "sarif") if "INPUT_SARIF" in env else "mcptest.sarif",
        comment=_bool(env, "comment", True),
        comment_mode=comment_mode,
        github_token=_raw(env, "github-token"),
        require_judge=_bool(env, "require-judge", False),
        distrust_changed_evidence=_bool(env, "distrust-changed-evidence", False),
        with_evals=_bool(env, "with-evals", False),
        lint=_bool(env, "lint", False),
        concurrency=concurrency,
        tag=list(dict.fromkeys(split_list(_raw(env, "tag")))),
        skip_tag=list(dict.fromkeys(split_list(_raw(env, "skip-tag")))),
        shard=shard,
        shard_weights=_raw(env, "shard-weights"),
        shard_reports=shard_reports,
        working_directory=working_directory,
        report_to=list(dict.fromkeys(report_to)),
        issue_label=issue_label,
        baseline=_raw(env, "baseline"),
        baseline_artifact=_raw(env, "baseline-artifact") or "mcptest-report",
        fail_on=fail_on,
        models=models,
    )
