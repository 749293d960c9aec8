"""`mcptest calibrate SUITE --labels FILE`: measure a judge against human labels.

Runs the suite's judge (or jury) on every labelled candidate through the one model client
(budget, cache), prints the confusion table, the figures and the disagreements, and writes the
calibration record (JSON) and the same text as markdown (docs/calibration.md). `--check`
measures nothing: it says whether the existing record still matches the suite (exit 1 if not).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcptest.cli.output_flags import AliasedStore, alias_note
from mcptest.cli.run_arguments import add_suite_arguments, suite_files
from mcptest.errors import UsageError
from mcptest.exit_codes import ExitCode

if TYPE_CHECKING:  # imported when a command runs, not when the CLI starts
    from collections.abc import Sequence

    from mcptest.calibrate.labels import Label
    from mcptest.calibrate.record import CalibrationRecord, DriftCheck
    from mcptest.calibrate.target import Target
    from mcptest.llm.engine import JudgeEngine


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_suite_arguments(p)
    p.add_argument("--labels", type=Path, metavar="FILE",
                   help="labels file (YAML `labels: [...]` or JSONL); required unless --check")
    p.add_argument("--test", metavar="NAME",
                   help="the test whose judge to calibrate, when the suite has several judges")
    p.add_argument("--output", "--out", dest="output", type=Path, action=AliasedStore,
                   metavar="PATH",
                   help="record to write (default: the judge's `calibration.file`, else "
                        "LABELS.calibration.json); the markdown goes beside it"
                        + alias_note("--out"))
    p.add_argument("--check", action="store_true",
                   help="only check that the record matches the suite (exit 1 when stale)")
    p.add_argument("--check-drift", action="store_true",
                   help="judge the labels again (no cache) and compare with the record's "
                        "verdicts; a drifted record is stale (exit 1; docs/calibration.md)")
    p.add_argument("--target-agreement", type=_share, metavar="SHARE",
                   help="an `escalate:` cascade: the agreement with the labels each tier must "
                        "keep where it is trusted (default 0.9; docs/cascade.md)")
    p.add_argument("--risk", type=_share, metavar="SHARE",
                   help="an `escalate:` cascade: the chance the guarantee fails because the "
                        "labels were unlucky (default 0.1)")
    p.add_argument("--plan-rows", type=int, default=100, metavar="N",
                   help="label planner: judged tests in a run (default 100)")
    p.add_argument("--plan-rate", type=_share, metavar="SHARE",
                   help="label planner: the run's judged pass rate (default: the judge's pass "
                        "share on the labels)")
    p.add_argument("--plan-width", type=_share, default=0.05, metavar="W",
                   help="label planner: the corrected rate's target half-width (default 0.05)")
    p.add_argument("--plan-drop", type=_share, default=0.10, metavar="D",
                   help="label planner: a drop between two runs to detect (default 0.10)")
    p.add_argument("--max-cost", type=float, metavar="USD", help="hard cap on judge spend")
    p.add_argument("--concurrency", type=int, metavar="N", help="judge calls in flight")
    p.add_argument("--no-cache", action="store_true", help="do not write the cache")
    p.add_argument("--cache-dir", type=Path, default=Path(".mcptest/cache"), metavar="DIR",
                   help="judge verdict cache the verdicts are written to for later runs "
                        "(default .mcptest/cache); calibrate never answers from it")
    p.set_defaults(handler=run)


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}")
    return value


def _out_path(args: argparse.Namespace, default: Path | None) -> Path:
    if args.output is not None:
        return Path(args.output)
    if default is not None:
        return default
    labels: Path | None = args.labels
    if labels is None:
        raise UsageError("no record to check: give --output, or `calibration.file` in the suite")
    return labels.with_name(labels.stem + ".calibration.json")


def _check(out: Path, expected_hash: str) -> int:
    from mcptest.calibrate.record import RecordError, read_record

    try:
        record = read_record(out)
    except FileNotFoundError:
        print(f"{out}: missing: no calibration record")
        return int(ExitCode.TESTS_FAILED)
    except RecordError as e:
        print(f"{out}: unreadable: {e}")
        return int(ExitCode.TESTS_FAILED)
    if record.identity_hash != expected_hash:
        print(f"{out}: stale: the rubric, threshold, judges or prompt changed since it was "
              f"recorded ({record.identity_hash} ≠ {expected_hash}); run `mcptest calibrate` "
              "again")
        return int(ExitCode.TESTS_FAILED)
    kappa = record.verdict.kappa  # three decimals, as the record's table shows it
    print(f"{out}: current ({record.labels} labels, κ "
          f"{'n/a' if kappa is None else f'{kappa:.3f}'})")
    return int(ExitCode.OK)


def _check_drift(args: argparse.Namespace, target: Any, out: Path, env: dict[str, str]) -> int:
    """`--check-drift`: the labels judged again, fresh, against the record's verdicts; the
    result is written into the record (a drifted one is stale) and exit 1 when it drifted."""
    import anyio

    from mcptest.calibrate.cascade_measure import cascade_spec
    from mcptest.calibrate.drift import compare_verdicts, versions_changed
    from mcptest.calibrate.labels import load_labels
    from mcptest.calibrate.measure import judge_labels, label_verdicts
    from mcptest.calibrate.record import read_record, write_record
    from mcptest.llm.contracts import JudgeOptions
    from mcptest.llm.engine import JudgeEngine

    if _check(out, target.identity.hash) != ExitCode.OK:
        return int(ExitCode.TESTS_FAILED)
    record = read_record(out)
    cascade = cascade_spec(target) is not None
    if record.verdicts is None or (cascade and (record.cascade is None or any(
            t.verdicts is None for t in record.cascade.tiers))):
        what = "no verdicts of the cascade and of each tier" if cascade else "no verdicts"
        raise UsageError(f"{out} keeps {what} to compare with (written before they were "
                         "kept): run `mcptest calibrate` once more, then --check-drift")
    labels = load_labels(args.labels if args.labels is not None else Path(record.labels_file))
    engine = JudgeEngine(JudgeOptions(max_cost=args.max_cost, cache_dir=None, env=env))
    if cascade:
        check = _cascade_drift(target, labels, engine, record)
    else:
        judged = anyio.run(judge_labels, target, labels, engine)  # fresh: never the cache
        check = compare_verdicts(record.verdicts,
                                 label_verdicts(labels, [j.verdict for j in judged]))
    check = check.model_copy(update={"versions_changed": versions_changed(
        record.provider_versions, engine.versions())})
    write_record(record.model_copy(update={"drift": check}), out)
    print(f"{out}: {'drifted' if check.stale else 'no drift'}: {check.reason}")
    for tier in check.tiers:
        print(f"{out}: tier {tier.tier}: {'drifted' if tier.stale else 'no drift'}: "
              f"{tier.reason}")
    for change in check.versions_changed:
        print(f"{out}: the provider's model version changed: {change}")
    return int(ExitCode.TESTS_FAILED if check.stale else ExitCode.OK)


def _cascade_drift(target: Target, labels: Sequence[Label], engine: JudgeEngine,
                   record: CalibrationRecord) -> DriftCheck:
    """Every tier judged again on every label, as calibrate judged them (fresh), compared with
    each tier's verdicts and, through the record's thresholds, with the cascade's."""
    import anyio

    from mcptest.calibrate.cascade_measure import judge_tiers
    from mcptest.calibrate.drift import cascade_verdicts, compare_cascade
    from mcptest.calibrate.measure import label_verdicts

    assert record.cascade is not None and record.verdicts is not None
    tiers = record.cascade.tiers
    outputs = anyio.run(judge_tiers, target, labels, engine)
    own = cascade_verdicts(outputs, [t.threshold for t in tiers])
    return compare_cascade(record.verdicts, label_verdicts(labels, own),
                           [t.verdicts or {} for t in tiers],
                           [label_verdicts(labels, [o.passed for o in out]) for out in outputs])


_NO_VERDICT = ("the judge gave no verdict on any of {} label(s): calibrate asks the judge "
               "(every tier of a cascade) about each label, so it needs the judges' keys or "
               "MCPTEST_JUDGE_BASE_URL (or the budget or judge errors stopped it); nothing was "
               "written. To see a calibration without a key: mcptest demo-judge calibrate … "
               "(a scripted judge, docs/judges.md)")


def run(args: argparse.Namespace) -> int:
    import anyio

    from mcptest.calibrate.cascade import check_labels
    from mcptest.calibrate.cascade_measure import build_cascade_record, cascade_spec, judge_tiers
    from mcptest.calibrate.labels import load_labels
    from mcptest.calibrate.measure import build_record, judge_labels
    from mcptest.calibrate.record import write_record
    from mcptest.calibrate.record_markdown import plain, render_markdown
    from mcptest.calibrate.target import select_target
    from mcptest.judging.judging import pool_limits
    from mcptest.llm.contracts import JudgeOptions
    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import build_plan
    from mcptest.suite.load import load_suites

    env = dict(os.environ)
    plan = build_plan(load_suites(suite_files(args), env=env), tools=True, evals=True,
                      agents=False)
    target = select_target(plan, args.test)
    out = _out_path(args, target.record_path)
    if args.check:
        return _check(out, target.identity.hash)
    if args.check_drift:
        return _check_drift(args, target, out, env)
    if args.labels is None:
        raise UsageError("--labels FILE is required (or --check)")
    cascade = cascade_spec(target)
    if cascade is None and (args.target_agreement is not None or args.risk is not None):
        raise UsageError("--target-agreement and --risk choose the thresholds of an `escalate:` "
                         "cascade; this judge has no `escalate:` (docs/cascade.md)")
    agreement = 0.9 if args.target_agreement is None else args.target_agreement
    risk = 0.1 if args.risk is None else args.risk
    labels = load_labels(args.labels)
    if cascade is not None:  # before anything is spent
        check_labels(len(labels), agreement, risk, 1 + len(cascade.escalate or []))
    concurrency, per_model = pool_limits(plan, args.concurrency)
    engine = JudgeEngine(JudgeOptions(
        concurrency=concurrency, per_model_concurrency=per_model, max_cost=args.max_cost,
        cache_dir=None if args.no_cache else args.cache_dir, cache_reads=False, env=env))
    engine.start()
    if cascade is not None:
        outputs = anyio.run(judge_tiers, target, labels, engine)
        if all(o.passed is None for out in outputs for o in out):
            raise UsageError(_NO_VERDICT.format(len(labels)))
        record = build_cascade_record(target, labels, outputs, args.labels.as_posix(),
                                      agreement, risk)
    else:
        judged = anyio.run(judge_labels, target, labels, engine)
        if all(j.verdict is None for j in judged):
            raise UsageError(_NO_VERDICT.format(len(labels)))
        record = build_record(target, labels, judged, args.labels.as_posix())
    record = record.model_copy(update={"provider_versions": engine.versions()})
    write_record(record, out)
    out.with_suffix(".md").write_text(render_markdown(record), encoding="utf-8")
    sys.stdout.write(render_markdown(record, plain))
    if cascade is None:
        from mcptest.calibrate.label_plan import PlanAsk, plan_text

        sys.stdout.write("\n" + plan_text(record, PlanAsk(
            rows=max(args.plan_rows, 1), rate=args.plan_rate, half_width=args.plan_width,
            drop=args.plan_drop)))
    print(f"\nwrote {out} and {out.with_suffix('.md')}", file=sys.stderr)
    return int(ExitCode.OK)
