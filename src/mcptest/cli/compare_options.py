"""Options for repeats and baselines, shared by `run`, `eval` and `diff` (docs/baseline.md)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.compare.gate_options import DEFAULT_ALPHA, CompareOptions
from mcptest.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable


def _bounded(parse: Callable[[str], float], low: float, high: float, what: str
             ) -> Callable[[str], float]:
    """An argparse type: `parse` the text, and keep it within [low, high]."""
    def convert(text: str) -> float:
        try:
            value = parse(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low:g} and {high:g}, got {text}")
        return value
    return convert


_rate = _bounded(float, 0, 1, "a number")
_count = _bounded(int, 1, 100, "a whole number")


def _repeat(text: str) -> int | str:
    """`N`, `adaptive` or `adaptive:MAX` (2 ≤ MAX ≤ 100)."""
    if text == "adaptive":
        return text
    if text.startswith("adaptive:"):
        most = _bounded(int, 2, 100, "a whole number")(text.removeprefix("adaptive:"))
        return f"adaptive:{int(most)}"
    return int(_count(text))


def add_compare_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("baseline comparison")
    g.add_argument("--fail-on", default="any-failure", metavar="WHAT",
                   help="exit 1 on any failing test (any-failure, the default), or only on "
                        "regressions (regressed); add not-measured (comma-separated) to also "
                        "fail on a row none of whose runs produced a verdict")
    g.add_argument("--max-score-drop", type=_rate, metavar="X",
                   help="also fail when a row's judged score fell by more than X (0..1)")
    g.add_argument("--alpha", "--q", dest="alpha", type=_rate, default=DEFAULT_ALPHA,
                   help="q, the false discovery rate across the rows tested for a regression "
                        f"(Benjamini-Hochberg; default {DEFAULT_ALPHA})")


def add_run_compare_arguments(p: argparse.ArgumentParser) -> None:
    """`--repeat`, `--min-pass-rate` and `--baseline` for `run` and `eval`."""
    g = p.add_argument_group("repeats")
    g.add_argument("--repeat", type=_repeat, default=1, metavar="N",
                   help="run each test N times (a test's own `repeat:` wins); `adaptive` or "
                        "`adaptive:MAX`: once, then again only while its answer is open, at "
                        "most MAX runs (default 10; docs/statistics.md)")
    g.add_argument("--min-pass-rate", type=_rate, default=1.0, metavar="X",
                   help="share of scored repetitions that must pass (default 1.0)")
    g.add_argument("--min-pass-rate-on",
                   choices=["estimate", "lower_bound", "corrected_lower_bound"],
                   default="lower_bound",
                   help="hold --min-pass-rate against the lower end of the row's 95%% "
                        "interval (default: the judge-corrected one where a calibration "
                        "record measured the judge, else Wilson's; corrected_lower_bound is "
                        "its older spelling) or the pass rate itself (estimate); a rate of 1 "
                        "is decided by the count (docs/baseline.md)")
    g.add_argument("--cache-repeats", action="store_true",
                   help="let repetitions after the first read the judge cache")
    p.add_argument("--baseline", type=Path, metavar="REPORT",
                   help="compare with this JSON report of an earlier run")
    p.add_argument("--baseline-note", metavar="TEXT",
                   help="one line the reports show about the baseline (where, how stale)")
    add_compare_arguments(p)


def compare_options(args: argparse.Namespace) -> CompareOptions:
    """`mcptest diff`'s comparison (`run` and `eval` read theirs from `Options`)."""
    from mcptest.api.options import parse_fail_on

    try:
        fail_on, not_measured = parse_fail_on(args.fail_on)
    except ValueError as e:
        raise UsageError(f"--fail-on {e}") from None
    return CompareOptions(alpha=args.alpha, fail_on=fail_on, fail_on_not_measured=not_measured,
                          max_score_drop=args.max_score_drop)
