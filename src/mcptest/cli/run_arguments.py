"""Options shared by `run` and `eval`: suite files, selection, judges, reporters."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.api.paths import DEFAULT_FILES, suite_paths
from mcptest.cli.output_flags import add_reporter_outputs
from mcptest.cli.output_paths import check_outputs
from mcptest.errors import UsageError

if TYPE_CHECKING:
    import argparse


def add_suite_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="*", type=Path, metavar="FILE",
                   help="suite files (default: mcptest.yaml or mcptest.yml here)")
    p.add_argument("--config", action="append", type=Path, default=[], metavar="FILE",
                   help="a suite file (same as a FILE argument); may repeat")


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    add_suite_arguments(p)
    sel = p.add_argument_group("selection")
    sel.add_argument("--filter", metavar="TEXT",
                     help="run tests whose name contains TEXT (case-insensitive), or re:PATTERN")
    sel.add_argument("--tag", action="append", default=[], metavar="TAG",
                     help="run tests carrying TAG; may repeat (any of them)")
    sel.add_argument("--skip-tag", action="append", default=[], metavar="TAG",
                     help="leave out tests carrying TAG; may repeat")
    sel.add_argument("--shard", metavar="I/N", help="run the I-th of N deterministic shards")
    sel.add_argument("--shard-weights", type=Path, metavar="REPORT.json",
                     help="balance --shard by the test durations of a previous JSON report")
    judge = p.add_argument_group("judges")
    judge.add_argument("--max-cost-per-shard", type=float, metavar="USD",
                       help="with --shard: cap this shard alone (--max-cost is the whole run's)")
    judge.add_argument("--max-cost", type=float, metavar="USD",
                       help="hard cap on judge spend for the whole run")
    judge.add_argument("--concurrency", type=int, metavar="N",
                       help="judge calls in flight at once (default: the suites' "
                            "judge.concurrency, else 8)")
    judge.add_argument("--require-judge", action="store_true",
                       help="fail LLM assertions that cannot reach a judge instead of deferring")
    judge.add_argument("--redact-candidates", action="store_true",
                       help="mask the run's known secrets (and key-shaped tokens) in what is "
                            "sent to judges")
    judge.add_argument("--on-shift", choices=("escalate", "advisory"), default="escalate",
                       help="when a cascade's run does not look like its labels: send its "
                            "verdicts to the last tier (default) or make them advisory")
    judge.add_argument("--require-calibration", action="store_true",
                       help="fail verdicts of judges gated by `calibration:` whose record is "
                            "missing, stale or below its floor (default: advisory)")
    judge.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    judge.add_argument("--cache-dir", type=Path, default=Path(".mcptest/cache"), metavar="DIR",
                       help="judge verdict cache (default .mcptest/cache)")
    tapes = p.add_argument_group("model cassettes")
    tapes.add_argument("--models", choices=("record", "replay", "replay-or-record"),
                       help="record every model request (agents, judges, juries, sampling) to "
                            "per-test cassettes, replay them with no model call and $0 while "
                            "the servers run live, or replay and record what is missing")
    tapes.add_argument("--cassette-dir", type=Path, metavar="DIR",
                       help="where cassettes go (default: cassettes/ beside each suite file)")
    tapes.add_argument("--evidence-base", metavar="REF",
                       help="name the cassettes and calibration records that differ from the "
                            "merge-base with this git ref (default on a GitHub pull request: "
                            "origin/$GITHUB_BASE_REF)")
    tapes.add_argument("--distrust-changed-evidence", action="store_true",
                       help="a replay from a changed cassette is not a pass and a changed "
                            "record's cascade is advisory (on by itself for a fork's pull "
                            "request)")
    tapes.add_argument("--evidence-changed-files", type=Path, metavar="PATH",
                       help="when git cannot tell what changed since the merge-base (no git, "
                            "a shallow checkout), the pull request's changed files listed in "
                            "this file: one path a line or JSON, relative to the repository "
                            "root ($GITHUB_WORKSPACE, else the current directory)")
    talk = p.add_mutually_exclusive_group()
    talk.add_argument("-v", "--verbose", action="store_true",
                      help="one line per finished test on stderr, also on a terminal")
    talk.add_argument("-q", "--quiet", action="store_true",
                      help="no header or progress on stderr: only the report (and errors)")
    add_reporter_outputs(p, default="pretty")


def suite_files(args: argparse.Namespace) -> list[Path]:
    return suite_paths([*args.files, *args.config])


def reporter_outputs(args: argparse.Namespace) -> list[tuple[str, Path | None]]:
    outputs = [(fmt, Path(path) if path else None) for fmt, path in (args.outputs or [])]
    if not outputs:
        outputs = [("pretty", None)]
    if sum(1 for _, path in outputs if path is None) > 1:
        raise UsageError("only one --reporter may write to stdout; give the others an --output")
    files = [*args.files, *args.config]
    check_outputs(outputs, files or [Path(n) for n in DEFAULT_FILES if Path(n).is_file()])
    return outputs
