"""`mcptest eval`: run the suites' rubric evals (`--explain` prints the plan and calls nothing)."""

from __future__ import annotations

import argparse

from mcptest.cli.commands.run import execute
from mcptest.cli.options import add_run_arguments, suite_files


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("eval", help="run rubric evals")
    add_run_arguments(p)
    p.add_argument("--explain", action="store_true",
                   help="print the scoring plan and projected judge calls; call nothing")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.explain:
        return explain(args)
    return execute(args, evals=True, tools=False, agents=False)


def explain(args: argparse.Namespace) -> int:
    """The plan per eval, without starting a server or calling a provider."""
    import os

    from mcptest.plan import build_plan, parse_shard
    from mcptest.suite.load import load_suites

    suites = load_suites(suite_files(args), env=dict(os.environ))
    plan = build_plan(suites, filter=args.filter, tags=args.tag,
                      shard=parse_shard(args.shard) if args.shard else None,
                      tools=False, evals=True, agents=False)
    for t in plan.tests:
        print(f"{t.id}: judge calls {t.judge_calls}")
    print(f"total: {len(plan.tests)} eval(s), {plan.judge_calls} judge call(s)")
    return 0
