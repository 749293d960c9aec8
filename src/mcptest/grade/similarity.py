"""`similar`: text close to a reference without a judge (docs/suites.md#similar).

rapidfuzz does the scoring (normalised edit distance and its token variants); a score is 0..1.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mcptest.grade.verdicts import Verdict, shorten_json

if TYPE_CHECKING:
    from mcptest.suite.models.trajectory import SimilarMatcher


def similarity(method: str, a: str, b: str) -> float:
    from rapidfuzz import fuzz

    scorer = {"ratio": fuzz.ratio, "token_set_ratio": fuzz.token_set_ratio,
              "token_sort_ratio": fuzz.token_sort_ratio,
              "partial_ratio": fuzz.partial_ratio}[method]
    return float(scorer(a, b)) / 100.0


def grade_similar(m: SimilarMatcher, value: Any) -> Verdict:
    spec = m.similar
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    a, b = (text, spec.to) if spec.case_sensitive else (text.casefold(), spec.to.casefold())
    score = similarity(spec.method, a, b)
    if score >= spec.threshold:
        return Verdict(True, expected=spec.to)
    return Verdict(False, f"similarity {score:.2f} ({spec.method}) is below {spec.threshold:g}: "
                          f"expected text like {shorten_json(spec.to)}, got {shorten_json(value)}",
                   spec.to)
