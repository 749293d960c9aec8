"""Model names and temperatures a provider would refuse, caught before anything runs
(docs/judges.md, "Providers").

Two mistakes used to surface as run-time losses: a bare model name no provider family claims
(`llama-3.3-70b`: deferred, or sent where litellm guessed) and a temperature outside what the
juror's provider accepts (Anthropic takes 0..1: every Anthropic juror at 1.2 got a 400 and the
jury passed on the others). Both are load errors at the key that says it, naming the fix. A
model with a base URL (its own, the suite's `judge.base_url` or `MCPTEST_JUDGE_BASE_URL`) goes to
a gateway that takes any name and its own range, so it is not checked; in a run with no provider
key at all (a fork's pull request) an ambiguous name is deferred like every judge, its message
naming the same fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from mcptest.errors import SuiteError
from mcptest.llm.providers import PROVIDERS, ambiguity, temperature_range
from mcptest.suite.models.matcher_kinds import matcher_kind
from mcptest.suite.positions import KeyPath, format_path

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from pydantic import BaseModel

    from mcptest.plan import Plan
    from mcptest.suite.load import LoadedSuite
    from mcptest.suite.models import Assertion, LlmJudgeMatcher, LlmJuryMatcher, Suite

_KINDS = ("tools", "resources", "prompts", "lists", "agents")


@dataclass(frozen=True)
class _Seat:
    """One model name as written, and the temperature its requests are sent at."""

    model: str
    path: KeyPath
    base_url: str | None
    temperature: float | None = None
    temperature_path: KeyPath = ()


def _seats(suite: Suite) -> Iterator[_Seat]:
    judge = suite.judge
    base = judge.base_url if judge else None
    t: float | None = None
    t_path: KeyPath = ()
    if judge is not None and "temperature" in judge.model_fields_set:
        t, t_path = judge.temperature, ("judge", "temperature")
    if judge is not None and judge.model:
        yield _Seat(judge.model, ("judge", "model"), base, t, t_path)
    expects: list[tuple[KeyPath, list[Assertion]]] = [
        ((k, i, "expect"), test.expect) for k in _KINDS
        for i, test in enumerate(getattr(suite, k))]
    if suite.defaults is not None:
        expects.append((("defaults", "expect"), suite.defaults.expect))
    for where, expect in expects:
        for j, a in enumerate(expect):
            yield from _matcher_seats(a.matcher, (*where, j, "matcher"), base, t, t_path)
    for i, test in enumerate(suite.agents):
        for k, model in enumerate(test.models):
            yield _Seat(model, ("agents", i, "models", k), base, t, t_path)
    for server, block in suite.selection.items():
        st, st_path = t, t_path
        if block.temperature is not None:
            st, st_path = block.temperature, ("selection", server, "temperature")
        for k, model in enumerate(block.models):
            yield _Seat(model, ("selection", server, "models", k), base, st, st_path)
    for i, ev in enumerate(suite.evals):
        if ev.model:
            yield _Seat(ev.model, ("evals", i, "model"), base, t, t_path)
        judge_of = ev.judge
        if judge_of is None:
            continue
        jt, jt_path = t, t_path
        if judge_of.jury is not None and judge_of.jury.temperature is not None:
            jt, jt_path = judge_of.jury.temperature, ("evals", i, "judge", "jury", "temperature")
        own = judge_of.base_url or base
        if judge_of.model:
            yield _Seat(judge_of.model, ("evals", i, "judge", "model"), own, jt, jt_path)
        for k, model in enumerate(judge_of.panel or []):
            yield _Seat(model, ("evals", i, "judge", "panel", k), own, jt, jt_path)


def _matcher_seats(m: BaseModel, at: KeyPath, base: str | None, t: float | None,
                   t_path: KeyPath) -> Iterator[_Seat]:
    """The seats of an `llm-judge` (its escalation tiers too) or an `llm-jury`."""
    kind = matcher_kind(m)  # by the table's name: no judged matcher's model is loaded
    if kind == "llm-judge":
        spec = cast("LlmJudgeMatcher", m).llm_judge
        if spec.model:
            yield _Seat(spec.model, (*at, "llm-judge", "model"), spec.base_url or base, t, t_path)
        for k, tier in enumerate(spec.escalate or []):
            yield from _matcher_seats(tier, (*at, "llm-judge", "escalate", k), base, t, t_path)
    elif kind == "llm-jury":
        jury = cast("LlmJuryMatcher", m).llm_jury
        jt, jt_path = t, t_path
        if jury.temperature is not None:
            jt, jt_path = jury.temperature, (*at, "llm-jury", "temperature")
        for seat in ("jurors", "replacements"):
            for k, juror in enumerate(getattr(jury, seat)):
                yield _Seat(juror.model, (*at, "llm-jury", seat, k, "model"),
                            juror.base_url or base, jt, jt_path)


def _errors(loaded: LoadedSuite, gateway: bool, keyed: bool) -> Iterator[SuiteError]:
    for seat in _seats(loaded.suite):
        if seat.base_url or gateway:
            continue
        if (why := ambiguity(seat.model)) is not None:
            if not keyed:  # a key-free run (a fork's PR) defers it, saying the same
                continue
            yield SuiteError(why, loaded.positions.value(seat.path), format_path(seat.path))
            continue
        accepted = temperature_range(seat.model)
        if accepted is None or seat.temperature is None:
            continue
        provider, (low, high) = accepted
        if not low <= seat.temperature <= high:
            yield SuiteError(
                f"temperature {seat.temperature:g} is outside what {provider} accepts "
                f"({low:g}..{high:g}) for `{seat.model}`: give {high:g} or less, or route it "
                "through a gateway", loaded.positions.value(seat.temperature_path),
                format_path(seat.temperature_path))


def suite_model_errors(loaded: LoadedSuite, env: Mapping[str, str]) -> list[SuiteError]:
    """Every ambiguous model name and out-of-range temperature of one suite, once each
    (`mcptest validate` asks too: it is kept light, so nothing here imports the plan)."""
    gateway = bool(env.get("MCPTEST_JUDGE_BASE_URL"))
    keyed = any(env.get(k) for p in PROVIDERS.values() for k in p.keys)
    found: dict[tuple[str, str], SuiteError] = {}
    for e in _errors(loaded, gateway, keyed):
        found.setdefault((str(e.pos), e.message), e)
    return list(found.values())


def model_errors(plan: Plan, env: Mapping[str, str]) -> list[SuiteError]:
    """`suite_model_errors` of every suite of the plan."""
    return [e for loaded in plan.suites for e in suite_model_errors(loaded, env)]
