"""What a list of model calls may cost at most, before any is sent (the run header, `--explain`,
the unknown-price check of `--max-cost`).

Prices come from the suite's `judge.pricing`, then litellm's price table read as data, so
projecting never waits for the litellm import. The calls themselves are counted in one place,
`mcptest.judging.plan_projection`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcptest.llm.budget import lookup_price
from mcptest.llm.contracts import Projection
from mcptest.llm.openai_route import applies
from mcptest.llm.routing import Unroutable, route
from mcptest.suite.models import JudgeDefaults

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from mcptest.llm.budget import Price
    from mcptest.llm.routing import Route

PROJECTED_PROMPT_TOKENS = 2000
"""Prompt size assumed for the header's cost bound; the cap itself is enforced per call."""


@dataclass(frozen=True)
class PlannedCall:
    """One model request a run may send."""

    model: str | None
    base_url: str | None
    defaults: JudgeDefaults | None
    where: Any = None
    """Where it is written (a position), for the unknown-price message."""
    agent_turns: int = 0
    """0 for a judge call; for an agent loop its `max_turns` (each turn re-sends the growing
    conversation; agent turns are model calls but not judge calls)."""


def project_cost(calls: Iterable[PlannedCall], env: Mapping[str, str],
                 model_cost: Mapping[str, Any], *, prompt_tokens: int = PROJECTED_PROMPT_TOKENS
                 ) -> tuple[Projection, dict[str, Any]]:
    """The projection of `calls`, and model → where it is first used for unpriced models."""
    sent = deferred = 0
    total = 0.0
    unpriced: dict[str, Any] = {}
    # a run's calls name a few judges many times: each is routed and priced once (a 100-answer
    # panel run projects 300 calls of 3 models). Keyed by the defaults' identity: the entry's
    # settings are those defaults (or None's stand-in), so no other defaults can take that
    # identity while it is looked up.
    known: dict[tuple[str | None, str | None, int],
                tuple[Route | Unroutable, JudgeDefaults, Price | None]] = {}
    for c in calls:
        key = (c.model, c.base_url, id(c.defaults))
        if (hit := known.get(key)) is None:
            r = route(c.model, c.base_url, c.defaults, env)
            settings = c.defaults or JudgeDefaults()
            hit = known[key] = (r, settings, None if isinstance(r, Unroutable) else lookup_price(
                r.model, settings.pricing, model_cost, r.price_name))
        r, settings, price = hit
        if isinstance(r, Unroutable):
            deferred += 0 if c.agent_turns else 1
            continue
        sent += 0 if c.agent_turns else 1
        if price is None:
            unpriced.setdefault(r.model, c.where)
        elif not c.agent_turns:
            total += price.cost(prompt_tokens, settings.max_tokens)
        else:  # a rough upper estimate of the growing conversation
            total += c.agent_turns * price.cost(prompt_tokens * 2, settings.max_tokens)
    projection = Projection(calls=sent, cost_bound_usd=None if unpriced else total,
                            unpriced=sorted(unpriced), deferred=deferred)
    return projection, unpriced


def litellm_needed(calls: Iterable[PlannedCall], env: Mapping[str, str]) -> bool:
    """Whether any call would go through litellm (the others take the fast OpenAI-compatible
    route or are deferred), so a run that never needs it never starts its import."""
    seen: dict[tuple[str | None, str | None, int], object] = {}  # the value holds the defaults
    for c in calls:
        if (key := (c.model, c.base_url, id(c.defaults))) in seen:
            continue
        seen[key] = c.defaults
        r = route(c.model, c.base_url, c.defaults, env)
        if not isinstance(r, Unroutable) and not applies(r, env):
            return True
    return False
