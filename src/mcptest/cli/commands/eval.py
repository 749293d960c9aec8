"""`mcptest eval`: run the suites' rubric evals (`--explain` prints the plan and calls nothing)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.cli.commands.run import execute
from mcptest.cli.compare_options import add_run_compare_arguments
from mcptest.cli.run_arguments import add_run_arguments, suite_files

if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping

    from mcptest.plan import PlannedTest
    from mcptest.suite.models import EvalSpec


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_run_arguments(p)
    add_run_compare_arguments(p)
    p.add_argument("--explain", action="store_true",
                   help="print the scoring plan and projected judge calls; call nothing")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.explain:
        return explain(args)
    # the judge documents run `mcptest eval --max-cost 0.50 tests/judge.yml` on tool tests
    # with llm-judge assertions: those tool tests run here too (docs/evals.md)
    return execute(args, evals=True, tools=True, agents=False, judged_tools_only=True)


def _who(model: str | None, base_url: str | None, test: PlannedTest,
         env: Mapping[str, str]) -> str:
    from mcptest.llm.routing import Unroutable, route

    r = route(model, base_url, test.suite.suite.judge, env)
    if isinstance(r, Unroutable):
        return f"{r.model or '(no model)'} [deferred: no key or gateway]"
    return r.model + (" via gateway" if r.gateway else "")


def _decided_by(spec: EvalSpec, threshold: float) -> str:
    """How the row is decided: its verdict mode (docs/evals.md, "Verdict modes") or the
    threshold; a labeled row has no threshold."""
    j = spec.judge
    if j is not None and j.labels:
        passing = ", ".join(j.passing_labels) if j.passing_labels else "none: passed unknown"
        return f"labeled verdict, plurality of {', '.join(j.labels)} (passing: {passing})"
    if j is not None and j.verdict_kind == "categorical":
        return f"boolean verdict, majority of pass/fail (tie_break {j.tie_break})"
    if j is not None and j.verdict_kind == "numeric":
        return f"numeric verdict, {j.aggregate} ≥ threshold {threshold:.2f}"
    return f"threshold {threshold:.2f}"


def explain_lines(test: PlannedTest, env: Mapping[str, str],
                  times: int = 1) -> tuple[list[str], bool]:
    """What one eval row would grade, by whom, and how many judge calls it makes; and whether
    that count is exact (else an upper bound)."""
    from mcptest.evals.projection import project_eval
    from mcptest.suite.models import EvalSpec

    spec = test.spec
    assert isinstance(spec, EvalSpec)
    p = project_eval(spec, test.suite.suite.rubrics, model=test.model)
    r = p.rubric
    lines = [f"{test.name}  ({test.location.file}:{test.location.line})",
             f"  rubric: {p.rubric.form}, {_decided_by(spec, r.threshold)}"
             + (", strict" if r.strict else "") + f", from {r.source}"]
    if r.body is not None and r.body.criteria is not None:
        for c in r.body.criteria:
            flags = [f for f, on in (("required", c.required), ("guard", c.guard),
                                     ("when", c.when is not None)) if on]
            flags += [f"weight {c.weight:g}"] if c.weight != 1 else []
            flags += [f"threshold {c.threshold:.2f}"] if c.threshold is not None else []
            lines.append(f"    - {c.name}" + (f" ({', '.join(flags)})" if flags else ""))
        if r.body.aggregation != "mean" or r.body.require_evidence:
            lines.append(f"    aggregation {r.body.aggregation}"
                         + (", evidence required" if r.body.require_evidence else ""))
    elif r.text is not None:
        lines.append("    " + " ".join(r.text.split())[:160])
    candidate = p.candidate
    if spec.response is None and not (test.model or spec.model):
        from mcptest.llm.routing import resolve_model

        agent = resolve_model(None, test.suite.suite.judge, env) or "no model: deferred"
        candidate = f"live agent run ({agent}, the default model)"
    lines.append(f"  candidate: {candidate}")
    if test.prompt:
        lines.append(f"  prompt: {test.prompt}")
    judges = sorted({_who(s.model, s.base_url, test, env) for s in p.seats})
    size = f" × {len(p.seats)} ({p.mode})" if len(p.seats) > 1 else ""
    if spec.judge is not None and spec.judge.early_stop and len(p.seats) > 1:
        size += ", early stop: asked in waves"  # docs/evals.md, "Early stop"
    lines.append(f"  judge: {', '.join(judges)}{size}")
    bound = "" if p.exact else "up to "
    per = f"{p.questions} question(s) per grading"
    if times > 1:
        lines.append(f"  judge calls: {bound}{p.calls * times} ({per}; {p.calls} a repetition "
                     f"× {times} repetitions)")
    else:
        lines.append(f"  judge calls: {bound}{p.calls} ({per})")
    return lines, p.exact


def tool_lines(test: PlannedTest, times: int = 1) -> list[str]:
    """A tool test with judged assertions: which kinds it sends (its calls count in the total)."""
    from mcptest.suite.models import matcher_kind

    kinds = [matcher_kind(a.assertion.matcher) for a in test.assertions if a.is_llm]
    return [f"{test.name}  ({test.location.file}:{test.location.line})",
            f"  tool test: {len(kinds)} judged assertion(s): {', '.join(kinds)}"
            + (f", × {times} repetitions" if times > 1 else "")]


def explain(args: argparse.Namespace) -> int:
    """The plan per eval, without starting a server or calling a provider."""
    import os

    from mcptest.api.flow import plan_for
    from mcptest.api.options import options_of
    from mcptest.cli.output import to_stdout
    from mcptest.judging.plan_projection import project
    from mcptest.repeats import planned_times

    env = dict(os.environ)
    options = options_of(vars(args), cli=True)
    plan = plan_for(suite_files(args), options, env, tools=True, evals=True, agents=False,
                    judged_tools_only=True)
    def times(t: PlannedTest) -> int:
        return planned_times(t, options.repeats)

    out: list[str] = []
    upper = False
    for t in plan.tests:
        if t.kind == "eval":
            lines, exact = explain_lines(t, env, times(t))
            out += lines
            upper = upper or not exact
        else:
            out += tool_lines(t, times(t))
    proj, _ = project(plan, env, times)
    bound = "unknown (unpriced: " + ", ".join(sorted(proj.unpriced)) + ")" if proj.unpriced \
        else f"${proj.cost_bound_usd or 0.0:.4f}"
    evals = sum(1 for t in plan.tests if t.kind == "eval")
    tools = len(plan.tests) - evals
    cases = sum(1 for t in plan.tests if t.case is not None)
    rows = (f"{evals} eval row(s)" + (f", {tools} judged tool test(s)" if tools else "")
            + (f" ({cases} from case tables)" if cases else ""))
    total = (f"total: {rows}, {'up to ' if upper else ''}{proj.calls} judge call(s), "
             f"cost bound {bound}")
    if proj.deferred:
        total += f"; {proj.deferred} call(s) would be deferred (no key or gateway)"
    if args.max_cost is not None:
        total += f"; cap ${args.max_cost:.4f}"
    out.append(total)
    to_stdout("\n".join(out) + "\n")
    return 0
