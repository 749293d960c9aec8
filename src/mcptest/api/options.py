"""`Options`: the options of `mcptest run`, named and defaulted as its flags are.

The CLI fills it from argv, Python callers (`mcptest.run(paths, max_cost=0.1)`) and the pytest
plugin from keywords; a bad value is a `UsageError` naming the option as its caller wrote it
(`--max-cost` on the command line, `max_cost` in Python), never a pydantic error.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from mcptest.compare.gate_options import DEFAULT_ALPHA, CompareOptions, FailOn
from mcptest.errors import UsageError
from mcptest.grade.repeat_options import RepeatOptions
from mcptest.plan import parse_shard

if TYPE_CHECKING:
    from collections.abc import Mapping

CLI = "cli"
"""Validation context key: names in messages are spelled as flags (`--max-cost`)."""


class Options(BaseModel):
    """What a run may be asked besides its suite files: one field per flag of `mcptest run`
    (docs/python.md). Selection, judges, repeats and a baseline; reporters are the caller's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # selection
    filter: str | None = None
    """Tests whose name contains this (case-insensitive), or `re:PATTERN`."""
    tag: tuple[str, ...] = ()
    """Tests carrying any of these tags."""
    skip_tag: tuple[str, ...] = ()
    """Leave out tests carrying any of these tags."""
    shard: str | None = None
    """`i/n`: the i-th of n deterministic shards."""
    shard_weights: Path | None = None
    """A previous JSON report whose durations balance `shard`."""
    with_evals: bool = False
    """Also run the suites' evals."""
    # judges
    max_cost: float | None = None
    """USD cap of the whole run; with `shard`, each shard spends at most its slice of it."""
    max_cost_per_shard: float | None = None
    """USD cap of this process alone, whatever the other shards spend (the old meaning)."""
    """Hard cap on judge spend for the whole run, in USD."""
    concurrency: int | None = None
    """Judge calls in flight at once (None: the suites' `judge.concurrency`, else 8)."""
    require_judge: bool = False
    redact_candidates: bool = False
    require_calibration: bool = False
    on_shift: Literal["escalate", "advisory"] = "escalate"
    """When a cascade's run does not look like its labels: send its verdicts to the last tier,
    or make them advisory (docs/cascade.md, "When the guarantee does not apply")."""
    no_cache: bool = False
    cache_dir: Path = Path(".mcptest/cache")
    # model cassettes (docs/cassettes.md)
    models: Literal["record", "replay", "replay-or-record"] | None = None
    """Record every model request to per-test cassettes, answer them from the cassettes, or
    both (send only what is missing); None: every request is sent, nothing is recorded."""
    cassette_dir: Path | None = None
    """Where the cassettes go (None: `cassettes/` beside each suite file)."""
    evidence_base: str | None = None
    """A git ref: cassettes and calibration records that differ from the merge-base with it
    are named, and each verdict resting on one says so (None: `origin/$GITHUB_BASE_REF` on a
    GitHub pull request, else no comparison)."""
    distrust_changed_evidence: bool = False
    """A replay from a changed cassette is not a pass, a changed record's cascade is advisory
    (on by itself on a fork's pull request)."""
    evidence_changed_files: Path | None = None
    """A file listing the pull request's changed files, used when git cannot tell (the
    Action's, from the GitHub API; docs/cassettes.md, "What is trusted")."""
    # repeats
    repeat: Annotated[int, Field(ge=1, le=100)] | Annotated[
        str, Field(pattern=r"^adaptive(:([2-9]|[1-9][0-9]|100))?$")] = 1
    """N runs of every test, or `adaptive` / `adaptive:MAX` (docs/statistics.md)."""
    min_pass_rate: float = Field(default=1.0, ge=0, le=1)
    min_pass_rate_on: Literal["estimate", "lower_bound", "corrected_lower_bound"] = "lower_bound"
    """Hold `min_pass_rate` against the lower end of the row's interval (the default: the
    judge-corrected one where a calibration record measured the judge, else Wilson's;
    `corrected_lower_bound` is its older spelling), or the pass rate itself (`estimate`)
    (docs/baseline.md, "The gate holds the interval")."""
    cache_repeats: bool = False
    # baseline
    baseline: Path | None = None
    baseline_note: str | None = None
    fail_on: str = "any-failure"
    """`any-failure` or `regressed`, and/or `not-measured`, comma-separated."""
    max_score_drop: float | None = Field(default=None, ge=0, le=1)
    alpha: float = Field(default=DEFAULT_ALPHA, ge=0, le=1)
    """q: the false discovery rate across the rows tested against the baseline."""

    @field_validator("fail_on")
    @classmethod
    def _fail_on(cls, v: str) -> str:
        try:
            parse_fail_on(v)
        except ValueError as e:
            raise PydanticCustomError("option", str(e)) from None
        return v

    @field_validator("concurrency")
    @classmethod
    def _at_least_one(cls, v: int | None) -> int | None:
        if v is not None and v < 1:
            raise PydanticCustomError("option", "must be at least 1")
        return v

    @field_validator("max_cost", "max_cost_per_shard")
    @classmethod
    def _usd(cls, v: float | None) -> float | None:
        if v is not None and not (0 <= v < math.inf):
            raise PydanticCustomError(
                "option", "must be a finite number of USD, not negative; got {v}", {"v": repr(v)})
        return v

    @field_validator("shard")
    @classmethod
    def _shard(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                parse_shard(v)
            except UsageError:
                raise PydanticCustomError(
                    "option", "must look like i/n with 1 ≤ i ≤ n, got {v}", {"v": repr(v)}
                ) from None
        return v

    @model_validator(mode="after")
    def _one_cap(self) -> Options:
        if self.max_cost is not None and self.max_cost_per_shard is not None:
            raise PydanticCustomError(
                "caps", "give the run's cap (--max-cost, sliced over the shards) or each "
                "shard's own (--max-cost-per-shard), not both")
        return self

    @model_validator(mode="after")
    def _needs_baseline(self) -> Options:
        if self.baseline is None and (
                parse_fail_on(self.fail_on)[0] != "any-failure"
                or self.max_score_drop is not None):
            raise PydanticCustomError(
                "option", "fail_on='regressed' and max_score_drop need a baseline")
        return self

    @model_validator(mode="wrap")
    @classmethod
    def _usage_error(cls, data: Any, handler: Any, info: ValidationInfo) -> Any:
        try:
            return handler(data)
        except ValidationError as e:
            cli = bool(info.context and info.context.get(CLI))
            raise UsageError("\n".join(_message(err, cli) for err in e.errors())) from None

    @property
    def repeats(self) -> RepeatOptions:
        adaptive = None
        if isinstance(self.repeat, str):
            _, _, most = self.repeat.partition(":")
            adaptive = int(most) if most else 0  # each row's own default (adaptive_most)
        return RepeatOptions(repeat=self.repeat if isinstance(self.repeat, int) else 1,
                             min_pass_rate=self.min_pass_rate,
                             min_pass_rate_on=self.min_pass_rate_on,
                             cache_repeats=self.cache_repeats, adaptive=adaptive)

    @property
    def comparison(self) -> CompareOptions:
        fail_on, not_measured = parse_fail_on(self.fail_on)
        return CompareOptions(alpha=self.alpha, fail_on=fail_on,
                              fail_on_not_measured=not_measured,
                              max_score_drop=self.max_score_drop)

    @property
    def shard_pair(self) -> tuple[int, int] | None:
        return parse_shard(self.shard) if self.shard is not None else None


def parse_fail_on(value: str) -> tuple[FailOn, bool]:
    """`--fail-on`: (`any-failure` or `regressed`, whether `not-measured` is named)."""
    items = {x.strip() for x in value.split(",") if x.strip()}
    unknown = items - {"any-failure", "regressed", "not-measured"}
    if unknown or not items or {"any-failure", "regressed"} <= items:
        raise ValueError("must be any-failure or regressed, and/or not-measured "
                         f"(comma-separated), got {value!r}")
    return ("regressed" if "regressed" in items else "any-failure"), "not-measured" in items


def _message(err: Any, cli: bool) -> str:
    """One line per bad option; names spelled as the caller wrote them."""
    loc = [str(p) for p in err.get("loc", ()) if not isinstance(p, int)]
    name = loc[0] if loc else ""
    if cli and name:
        name = "--" + name.replace("_", "-")
    if err.get("type") == "extra_forbidden":
        return f"unknown option {name!r} (the options are: {', '.join(Options.model_fields)})"
    if cli and err.get("type") == "option" and not loc:
        return "--fail-on regressed and --max-score-drop need --baseline"
    if not name:
        return str(err["msg"])
    return f"{name} {err['msg']}" if err.get("type") == "option" else f"{name}: {err['msg']}"


def options_of(values: Mapping[str, Any], *, cli: bool = False) -> Options:
    """`Options` from `values` (keywords, or the flags of a parsed command line: keys that are
    not options are left out then); raises `UsageError`."""
    if cli:
        values = {k: v for k, v in values.items() if k in Options.model_fields}
    return Options.model_validate(dict(values), context={CLI: cli})
