"""`mcptest merge`: combine the JSON reports of CI shards into one."""

from __future__ import annotations

import argparse
from pathlib import Path

from mcptest.cli.output import write_reports
from mcptest.cli.output_paths import check_outputs
from mcptest.report.build import JudgeTotals, build_report
from mcptest.report.models import TestResult
from mcptest.reporters import REPORTERS


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("merge", help="combine shard reports into one")
    p.add_argument("reports", nargs="+", type=Path, help="JSON reports of the shards")
    p.add_argument("--format", default="json", choices=list(REPORTERS))
    p.add_argument("--output", type=Path, help="file to write (default: stdout)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mcptest.report.io import read_report

    check_outputs([(args.format, args.output)], [Path(p) for p in args.reports],
                  input_kind="a report being read")
    reports = [read_report(p) for p in args.reports]
    # a test present in two shards (overlapping runs) is kept once: the first one
    by_id: dict[str, TestResult] = {}
    for r in reports:
        for t in r.tests:
            by_id.setdefault(t.id, t)
    tests = list(by_id.values())
    caps = [r.summary.max_cost_usd for r in reports if r.summary.max_cost_usd is not None]
    merged = build_report(
        suites=sorted({s for r in reports for s in r.suites}),
        tests=tests,
        servers=[s for r in reports for s in r.servers],
        started_at=min(r.started_at for r in reports),
        finished_at=max(r.finished_at for r in reports),
        duration_ms=max(r.summary.duration_ms for r in reports),
        judge=JudgeTotals(
            calls=sum(r.summary.judge_calls for r in reports),
            cache_hits=sum(r.summary.cache_hits for r in reports),
            cost_usd=sum(r.summary.cost_usd for r in reports),
            max_cost_usd=sum(caps) if caps else None,
            budget_stopped=any(r.summary.budget_stopped for r in reports),
            projected_calls=sum(r.summary.projected_judge_calls for r in reports),
        ),
        warnings=[w for r in reports for w in r.warnings],
    )
    write_reports(merged, [(args.format, args.output)])
    return merged.summary.exit_code
