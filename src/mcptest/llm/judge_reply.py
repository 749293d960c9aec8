"""Turn a judge's reply into a validated verdict, or say precisely why it cannot.

Replies come as structured output, JSON mode or free text with a fenced block. We strip fences,
take the last JSON object in the text (a judge that thinks aloud puts its verdict last), and
validate it. A plain refusal is an abstention; anything else unparseable is a parse failure,
never a pass and never a silent 0. An answer cut at the token limit is never read at all
(`read_verdict`, docs/judges.md "The verdict").
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from mcptest.errors import JudgeError

if TYPE_CHECKING:
    from mcptest.llm.call import Reply
    from mcptest.llm.verdict_modes import VerdictMode

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.DOTALL)
_REFUSAL = re.compile(
    r"\b(I['’]?m sorry|I am sorry|I can(?:no|['’])t|I cannot|I am unable|I['’]m unable|"
    r"I won['’]t|I will not|unable to (?:help|assist|comply|grade|evaluate))\b",
    re.IGNORECASE,
)


class JudgeVerdict(BaseModel):
    """One judge's answer. `score` is always set unless the judge abstained."""

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    score: float | None = Field(default=None, ge=0, le=1)
    passed: bool | None = Field(default=None, alias="pass")
    reason: str = ""
    evidence: str | None = None
    abstain: bool = False
    label: str | None = None
    """A labeled verdict's label (docs/jury.md, "Verdict modes"); its `score` is None."""
    value: float | None = None
    """A numeric verdict's score as the juror gave it, in the jury's `score_range`."""

    @model_validator(mode="after")
    def _score_from_pass(self) -> JudgeVerdict:
        if self.abstain or self.label is not None:
            return self
        if self.score is None:
            if self.passed is None:
                raise ValueError("a verdict needs `score` or `pass`")
            # A pass-only verdict scores 1.0 / 0.0 (docs/§5.3).
            return self.model_copy(update={"score": 1.0 if self.passed else 0.0})
        return self


class ParseFailure(JudgeError, ValueError):
    """The reply held no valid verdict."""


class CutOff(JudgeError):
    """The answer was cut at the token limit: whatever it says, it is not the judge's verdict
    (a draft it quoted before thinking on would read as one)."""

    def __init__(self, reason: str | None) -> None:
        self.reason = reason
        super().__init__(reason or "cut")


def read_verdict(reply: Reply, mode: VerdictMode | None = None) -> JudgeVerdict:
    """The verdict of a whole answer: a cut answer raises `CutOff`, an answer the provider
    stopped as a refusal (Anthropic's `stop_reason: refusal`, Gemini's `SAFETY`, a
    `content_filter`) abstains whatever text came before, the rest is parsed."""
    if reply.stop == "length":
        raise CutOff(reply.stop_reason)
    if reply.stop == "refusal":
        why = reply.refusal or f"the provider stopped the answer ({reply.stop_reason})"
        return JudgeVerdict(abstain=True, reason=("refused: " + why)[:500])
    return parse_verdict(reply.content, reply.refusal, mode)


def _json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in `text`, in order (balanced braces, strings respected)."""
    decoder = json.JSONDecoder()
    found: list[dict[str, Any]] = []
    i = 0
    while True:
        start = text.find("{", i)
        if start < 0:
            return found
        try:
            obj, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            i = start + 1
            continue
        if isinstance(obj, dict):
            found.append(obj)
        i = end


def _normalise(obj: dict[str, Any]) -> dict[str, Any]:
    out = dict(obj)
    if "pass" not in out and isinstance(out.get("passed"), bool):
        out["pass"] = out["passed"]
    if out.get("evidence") == "":
        out["evidence"] = None
    for key in ("pass", "abstain"):
        if isinstance(out.get(key), str) and out[key].lower() in ("true", "false"):
            out[key] = out[key].lower() == "true"
    return out


def parse_verdict(content: str | None, refusal: str | None = None,
                  mode: VerdictMode | None = None) -> JudgeVerdict:
    """Parse a reply. Raises `ParseFailure` when there is no usable verdict."""
    if refusal:
        return JudgeVerdict(abstain=True, reason=("refused: " + refusal)[:500])
    text = (content or "").strip()
    if not text:
        raise ParseFailure("empty reply")
    fenced = _FENCE.findall(text)
    candidates = [o for block in fenced for o in _json_objects(block)] or _json_objects(text)
    errors: list[str] = []
    for obj in reversed(candidates):
        try:
            return JudgeVerdict.model_validate(_normalise(mode.read(obj) if mode else obj))
        except ValidationError as e:
            errors.append(e.errors()[0]["msg"])
        except ValueError as e:  # not a verdict of the jury's mode
            errors.append(str(e))
    if not candidates and _REFUSAL.search(text):
        return JudgeVerdict(abstain=True, reason=("refused: " + text)[:500])
    if errors:
        raise ParseFailure(f"invalid verdict: {errors[0]}")
    raise ParseFailure("no JSON object in the reply")
