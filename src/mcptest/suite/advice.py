"""Load warnings: a suite that is valid but says something twice, and what we do about it.

Unlike `checks` these never stop a run; `validate` prints them and every report carries them
(`report.warnings`), each positioned as `file:line:col: key.path: message`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from mcptest.suite.models.matcher_kinds import matcher_kind
from mcptest.suite.models.rubrics import rubric_form
from mcptest.suite.positions import format_path

if TYPE_CHECKING:
    from mcptest.suite.load import LoadedSuite
    from mcptest.suite.models import LlmJuryMatcher, RubricBody, RubricPreset, RubricRef


def _num(x: float) -> str:
    return f"{x:g}"


def _family_warnings(loaded: LoadedSuite) -> list[str]:
    """A judge of the same vendor family as the model that wrote the answer may favour it: a
    warning, unless `strict_panel: true` already made it a load error (docs/jury.md)."""
    from mcptest.suite.families import model_family
    from mcptest.suite.raw_walk import eval_generators, eval_judges

    places: list[tuple[tuple[str | int, ...], str, list[str]]] = []
    for i, agent in enumerate(loaded.suite.agents):
        for j, a in enumerate(agent.expect):
            if matcher_kind(a.matcher) != "llm-jury":  # by kind: no matcher model imported
                continue
            m = cast("LlmJuryMatcher", a.matcher)
            if not m.llm_jury.strict_panel:
                for seat in ("jurors", "replacements"):  # a stand-in judges like a juror
                    for k, juror in enumerate(getattr(m.llm_jury, seat)):
                        places.append((("agents", i, "expect", j, "matcher", "llm-jury", seat,
                                        k, "model"), juror.model, agent.models))
    for i, spec in enumerate(loaded.suite.evals):
        if spec.judge is None or spec.judge.strict_panel:
            continue
        raw = spec.model_dump(mode="json", by_alias=True, exclude_none=True)
        for path, model in eval_judges(raw.get("judge", {}), ("evals", i, "judge")):
            places.append((path, model, eval_generators(raw)))
    out: list[str] = []
    for path, model, generators in places:
        family = model_family(model)
        twin = next((g for g in generators if family and model_family(g) == family), None)
        if twin is None:
            continue
        pos = loaded.positions.value(path)
        out.append(f"{pos}: {format_path(path)}: judge `{model}` is from the {family} family, "
                   f"like `{twin}` that writes the answer, and may favour it; prefer another "
                   "family (`strict_panel: true` makes this an error)")
    return out


def load_warnings(loaded: LoadedSuite) -> list[str]:
    """Every warning of one loaded suite: thresholds set twice, then same-family judges."""
    out: list[str] = []
    rubrics = loaded.suite.rubrics
    for i, spec in enumerate(loaded.suite.evals):
        if spec.threshold is None:
            continue
        rubric = spec.rubric
        own: float | None = None
        eval_wins = True
        where = "its rubric's"
        form = rubric_form(rubric)  # by form: no rubric model imported to ask
        if form == "ref":
            ref = cast("RubricRef", rubric)
            body = rubrics.get(ref.ref)
            if ref.threshold is not None:
                own, eval_wins, where = ref.threshold, False, "the rubric reference's"
            elif body is not None and body.threshold is not None:
                own, where = body.threshold, f"rubric `{ref.ref}`'s"
        elif form in ("preset", "body"):
            structured = cast("RubricPreset | RubricBody", rubric)
            if structured.threshold is not None:
                own, eval_wins = structured.threshold, form == "body"
        if own is None or own == spec.threshold:
            continue
        winner = (f"the eval's {_num(spec.threshold)} wins" if eval_wins
                  else f"{where} {_num(own)} wins")
        path = ("evals", i, "threshold")
        pos = loaded.positions.value(path)
        out.append(f"{pos}: {format_path(path)}: both the eval's `threshold` "
                   f"({_num(spec.threshold)}) and {where} ({_num(own)}) are set; {winner} "
                   "(docs/evals.md, Thresholds)")
    return out + _family_warnings(loaded)
