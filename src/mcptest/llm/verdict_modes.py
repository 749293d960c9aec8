"""What one juror is asked to return in a verdict mode, and how its answer is read
(docs/jury.md, "Verdict modes").

A mode changes three things of a judge call: the output contract in the prompt, the JSON schema
sent as `response_format` (structured output), and how the reply is read. An answer outside the
mode (a label not listed, a score outside the range, a missing `pass`) is not a verdict: the
engine retries once with a stricter prompt, then reports the juror as failed mechanically, so
replacements and deferral rules apply as for any broken reply.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

_TAIL = ('"reason": "<one sentence>", "evidence": "<short quote from the candidate or empty>", '
         '"abstain": <bool>}. Set "abstain" to true only when you cannot judge the candidate '
         'at all.')
_COMMON: dict[str, Any] = {
    "reason": {"type": "string"},
    "evidence": {"type": "string"},
    "abstain": {"type": "boolean"},
}


class VerdictMode(BaseModel):
    """`boolean` (pass/fail), `labeled` (one of `labels`) or `numeric` (a score in
    [`low`, `high`]); the default judge contract (score and pass) is no mode at all."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["boolean", "labeled", "numeric"]
    labels: tuple[str, ...] = ()
    low: float = 0.0
    high: float = 1.0

    def contract(self) -> str:
        """The output contract the prompt states (twice: system and user message)."""
        if self.kind == "labeled":
            listed = ", ".join(json.dumps(x, ensure_ascii=False) for x in self.labels)
            head = f'{{"label": <exactly one of {listed}>, '
        elif self.kind == "numeric":
            head = f'{{"score": <number from {self.low:g} to {self.high:g}>, '
        else:
            head = '{"pass": <bool: true when the candidate meets the rubric>, '
        return "Reply with one JSON object and nothing else: " + head + _TAIL

    def json_schema(self) -> dict[str, Any]:
        """The verdict's JSON schema for `response_format: json_schema` (strict)."""
        first: dict[str, Any]
        if self.kind == "labeled":
            first = {"label": {"type": "string", "enum": list(self.labels)}}
        elif self.kind == "numeric":
            first = {"score": {"type": "number", "minimum": self.low, "maximum": self.high}}
        else:
            first = {"pass": {"type": "boolean"}}
        props = {**first, **_COMMON}
        return {"type": "object", "properties": props, "required": list(props),
                "additionalProperties": False}

    def read(self, obj: dict[str, Any]) -> dict[str, Any]:
        """The reply's object in the shape of `llm.verdict.Verdict`; ValueError when it is not
        a verdict of this mode."""
        out: dict[str, Any] = {k: obj[k] for k in ("reason", "evidence", "abstain") if k in obj}
        if out.get("abstain") is True or str(out.get("abstain")).lower() == "true":
            return out
        if self.kind == "labeled":
            label = obj.get("label")
            if not isinstance(label, str):
                raise ValueError("a labeled verdict needs `label`")
            match = {x.casefold(): x for x in self.labels}.get(label.strip().casefold())
            if match is None:
                raise ValueError(f"label {label[:60]!r} is not one of {list(self.labels)}")
            return {**out, "label": match}
        if self.kind == "numeric":
            score = obj.get("score")
            if isinstance(score, bool) or not isinstance(score, int | float):
                raise ValueError("a numeric verdict needs a number `score`")
            if not self.low <= score <= self.high:
                raise ValueError(f"score {score:g} is outside [{self.low:g}, {self.high:g}]")
            scaled = (score - self.low) / (self.high - self.low)
            return {**out, "score": scaled, "value": float(score)}
        passed = obj.get("pass", obj.get("passed"))
        if isinstance(passed, str) and passed.lower() in ("true", "false"):
            passed = passed.lower() == "true"
        if not isinstance(passed, bool):
            raise ValueError("a pass/fail verdict needs a boolean `pass`")
        return {**out, "pass": passed}


def mode_format(fmt: dict[str, Any] | None, mode: VerdictMode | None) -> dict[str, Any] | None:
    """The `response_format` to send: the mode's own schema in place of the default one."""
    if mode is None or fmt is None or fmt.get("type") != "json_schema":
        return fmt
    return {"type": "json_schema",
            "json_schema": {"name": "verdict", "schema": mode.json_schema(), "strict": True}}


def weaker_format(fmt: dict[str, Any] | None) -> dict[str, Any] | None:
    """After an endpoint rejected `fmt`: `json_schema` falls back to `json_object` (the schema
    stays described in the prompt), `json_object` to no `response_format` (docs/judges.md)."""
    if fmt is not None and fmt.get("type") == "json_schema":
        return {"type": "json_object"}
    return None
