"""`mcptest merge`: combine the JSON reports of CI shards into one."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.cli.output import write_reports
from mcptest.cli.output_flags import add_single_output
from mcptest.cli.output_paths import check_outputs
from mcptest.errors import UsageError
from mcptest.grade.juror_independence import with_effective_jurors
from mcptest.judging.run_agreement import agreements
from mcptest.report.build import JudgeTotals, build_report

if TYPE_CHECKING:
    import argparse

    from mcptest.report.models import Report, ServerReport, TestResult


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("reports", nargs="+", type=Path, help="JSON reports of the shards")
    add_single_output(p, default="json")
    p.set_defaults(handler=run)


def check_shards(reports: list[Report], paths: list[Path]) -> None:
    """Shard reports must be the shards of one run (same test list, same split), each once, all
    of them: anything else is an error (exit 2), not a smaller pass (docs/action.md, "Shards")."""
    shards = [(r.shard, p) for r, p in zip(reports, paths, strict=True) if r.shard is not None]
    if not shards:
        return
    if len(shards) != len(reports):
        plain = [str(p) for r, p in zip(reports, paths, strict=True) if r.shard is None]
        raise UsageError(f"merge: {', '.join(plain)} not from a sharded run, the others are")
    first, first_path = shards[0]
    differ = [str(p) for s, p in shards[1:] if (s.count, s.plan) != (first.count, first.plan)]
    if differ:
        raise UsageError(f"merge: {', '.join(differ)} not from the same run as {first_path} "
                         "(a different split or a different list of tests); merge the shards "
                         "of one run")
    caps = {s.run_max_cost_usd for s, _ in shards}
    if len(caps) > 1:
        raise UsageError("merge: the shards were given different run caps (--max-cost "
                         f"{', '.join(sorted(f'{c}' for c in caps))}); merge the shards of one run")
    n = first.count
    given: dict[int, list[str]] = {}
    for s, p in shards:
        given.setdefault(s.index, []).append(str(p))
    twice = {i: ps for i, ps in given.items() if len(ps) > 1}
    if twice:
        raise UsageError("merge: " + "; ".join(f"shard {i}/{n} given more than once ("
                                               f"{', '.join(ps)})"
                                               for i, ps in sorted(twice.items())))
    missing = sorted(set(range(1, n + 1)) - set(given))
    if missing:
        raise UsageError("merge: missing shard(s) " + ", ".join(f"{i}/{n}" for i in missing)
                         + "; a merged run needs every shard's report")


def in_plan_order(tests: list[TestResult], reports: list[Report]) -> list[TestResult]:
    """The rows in the order of the unsharded run; rows it does not list keep their order
    after them."""
    order = {tid: k for r in reports if r.shard for k, tid in enumerate(r.shard.plan)}
    if not order:
        return tests
    return sorted(tests, key=lambda t: order.get(t.id, len(order)))


_SERVER_RANK = {"failed": 0, "ready": 1, "not_started": 2}


def one_per_server(reports: list[Report]) -> list[ServerReport]:
    """Each server once, as the unsharded run lists it: every shard starts its own copy, and the
    one that failed (else the one that was ready) tells what happened."""
    best: dict[tuple[str, str], ServerReport] = {}
    for s in (s for r in reports for s in r.servers):
        key = (s.suite_file, s.name)
        if key not in best or _SERVER_RANK[s.status] < _SERVER_RANK[best[key].status]:
            best[key] = s
    return list(best.values())


def run(args: argparse.Namespace) -> int:
    from mcptest.report.io import ValuesBudget, read_report

    check_outputs([(args.reporter, args.output)], [Path(p) for p in args.reports],
                  input_kind="a report being read")
    budget = ValuesBudget()  # the shards are one run: together they are bounded as one report
    reports = [read_report(p, budget=budget) for p in args.reports]
    check_shards(reports, args.reports)
    # a test present in two shards (overlapping runs) is kept once: the first one
    by_id: dict[str, TestResult] = {}
    for r in reports:
        for t in r.tests:
            by_id.setdefault(t.id, t)
    tests = with_effective_jurors(in_plan_order(list(by_id.values()), reports))
    caps = [r.summary.max_cost_usd for r in reports if r.summary.max_cost_usd is not None]
    run_caps = {r.shard.run_max_cost_usd for r in reports if r.shard is not None}
    run_cap = next(iter(run_caps)) if len(run_caps) == 1 else None  # one cap, sliced
    merged = build_report(
        suites=sorted({s for r in reports for s in r.suites}),
        tests=tests,
        servers=one_per_server(reports),
        started_at=min(r.started_at for r in reports),
        finished_at=max(r.finished_at for r in reports),
        duration_ms=max(r.summary.duration_ms for r in reports),
        judge=JudgeTotals(
            calls=sum(r.summary.judge_calls for r in reports),
            cache_hits=sum(r.summary.cache_hits for r in reports),
            cost_usd=sum(r.summary.cost_usd for r in reports),
            max_cost_usd=run_cap if run_cap is not None else sum(caps) if caps else None,
            budget_stopped=any(r.summary.budget_stopped for r in reports),
            projected_calls=sum(r.summary.projected_judge_calls for r in reports),
            **agreements(tests),
        ),
        warnings=[w for r in reports for w in r.warnings],
    )
    write_reports(merged, [(args.reporter, args.output)])
    return merged.summary.exit_code
