"""Pure scoring rules of an eval (docs/evals.md, Gates): predicates, evidence, aggregation,
gates."""

from __future__ import annotations

import math
import re
import statistics
from typing import TYPE_CHECKING

from mcptest.grade import bounded_regex
from mcptest.suite.models import Aggregation, LikertScale, WhenContains, WhenRegex

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mcptest.report.models import CriterionResult

_WS = re.compile(r"\s+")
_QUOTES = (('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’"), ("«", "»"))


def when_holds(when: WhenContains | WhenRegex | None, candidate: str) -> bool:
    """Deterministic: no model call. No predicate → the criterion always applies."""
    if when is None:
        return True
    if isinstance(when, WhenContains):
        return when.contains in candidate
    try:  # bounded in time (docs/suites.md, Limits); a runaway pattern does not apply
        return bounded_regex.search(when.regex, candidate)
    except bounded_regex.RegexTimeout:
        return False


def normalise_ws(text: str) -> str:
    return _WS.sub(" ", text).strip()


def evidence_found(span: str | None, candidate: str) -> bool:
    """True when the quoted span occurs verbatim in the candidate, whitespace-normalised.

    One pair of surrounding quotes the judge may have added is ignored; case is not.
    """
    if span is None:
        return False
    s = normalise_ws(span)
    for left, right in _QUOTES:
        if len(s) >= 2 and s.startswith(left) and s.endswith(right):
            s = s[len(left):-len(right)].strip()
            break
    return bool(s) and s in normalise_ws(candidate)


def aggregate(scores: Sequence[tuple[float, float]], how: Aggregation) -> float:
    """Combine (score, weight) pairs; `mean` and `geometric` are weighted."""
    if not scores:
        raise ValueError("nothing to aggregate")
    values = [s for s, _ in scores]
    if how == "min":
        return min(values)
    if how == "max":
        return max(values)
    if how == "median":
        return float(statistics.median(values))
    total = sum(w for _, w in scores)
    if how == "geometric":
        if any(s <= 0 for s in values):
            return 0.0
        return math.exp(sum(w * math.log(s) for s, w in scores) / total)
    return sum(s * w for s, w in scores) / total


def display(score: float | None, scale: object) -> str | None:
    """How a person reads the score: `4.2/5`, `84%`, or `0.84` (gating always uses 0..1)."""
    if score is None:
        return None
    if isinstance(scale, LikertScale):
        lo, hi = scale.likert.min, scale.likert.max
        return f"{lo + score * (hi - lo):.1f}/{hi}"
    if scale == "percent":
        return f"{score * 100:.0f}%"
    return f"{score:.2f}"


def decide_criteria(criteria: list[CriterionResult], *, threshold: float, strict: bool,
           how: Aggregation, gated: Sequence[str] = ()) -> tuple[float | None, bool, str, bool]:
    """(score, passed, why, vacuous) from judged criteria; skipped ones leave the aggregate.

    `gated`: extra reasons that fail the eval whatever the score (missing evidence).
    """
    scored = [c for c in criteria if not c.guard and c.status != "skipped" and c.score is not None]
    problems: list[str] = list(gated)
    for c in criteria:
        if c.guard and c.status == "failed":
            problems.append(f"guard `{c.name}` holds ({c.score:.2f} ≥ {c.threshold:.2f})")
        elif c.required and c.status == "failed":
            problems.append(f"required `{c.name}` scored {c.score:.2f} < {c.threshold:.2f}")
    if not scored:
        if problems:
            return None, False, "; ".join(problems), False
        return None, True, "vacuous pass: no criterion applied to this candidate", True
    score = aggregate([(c.score or 0.0, c.weight) for c in scored], how)
    if score < threshold:
        problems.insert(0, f"score {score:.2f} < threshold {threshold:.2f}")
    if strict:
        imperfect = [c.name for c in scored if (c.score or 0.0) < 1.0]
        if imperfect:
            problems.append("strict: not perfect on " + ", ".join(f"`{n}`" for n in imperfect))
    if problems:
        return score, False, "; ".join(problems), False
    return score, True, f"score {score:.2f} ≥ threshold {threshold:.2f}", False
