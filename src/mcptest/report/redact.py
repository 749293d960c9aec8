"""Secret redaction over a whole report, before any reporter sees its text.

Two layers: the exact values the run knows are secret (bearer tokens, `{env: …}` headers, judge
API keys), and patterns of well-known key formats, so a key a server echoes back is caught even
when nobody declared it. `mcptest report run.json` re-applies the pattern layer to saved runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from mcptest.report.models import Report

REDACTED = "[REDACTED]"
MIN_SECRET_LEN = 4
"""Shorter values are not redacted: replacing every `abc` in a report would destroy it."""

_KEY_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # Anthropic first so the whole `sk-ant-…` goes, then OpenAI (`sk-…`, `sk-proj-…`).
    (re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{8,}"), REDACTED),
    (re.compile(r"\bsk-[A-Za-z0-9_\-]{16,}"), REDACTED),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), REDACTED),
    (re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}"), REDACTED),
    (re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), REDACTED),
    (re.compile(r"\bAIza[0-9A-Za-z_\-]{35}"), REDACTED),
    (re.compile(r"\b(Bearer\s+)[A-Za-z0-9._~+/=\-]{8,}", re.IGNORECASE), rf"\g<1>{REDACTED}"),
    (
        re.compile(
            r"\b((?:api[_-]?key|apikey|secret[_-]?key|client[_-]?secret|access[_-]?token"
            r"|auth[_-]?token|password|passwd)[\"']?\s*[:=]\s*[\"']?)"
            r"(?!\[REDACTED\])[^\s\"'&,;]{4,}",
            re.IGNORECASE,
        ),
        rf"\g<1>{REDACTED}",
    ),
)


def _secret_pattern(secrets: Iterable[str]) -> re.Pattern[str] | None:
    values = sorted({s for s in secrets if s and len(s) >= MIN_SECRET_LEN}, key=len, reverse=True)
    if not values:
        return None
    return re.compile("|".join(re.escape(v) for v in values))


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with every known secret and every key-shaped token replaced by `[REDACTED]`."""
    return _redact_str(text, _secret_pattern(secrets))


def _redact_str(text: str, known: re.Pattern[str] | None) -> str:
    if len(text) < MIN_SECRET_LEN:
        return text
    if known is not None:
        text = known.sub(REDACTED, text)
    for pattern, replacement in _KEY_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def _redact_value(value: Any, known: re.Pattern[str] | None) -> Any:
    if isinstance(value, str):
        return _redact_str(value, known)
    if isinstance(value, dict):
        return {_redact_value(k, known): _redact_value(v, known) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact_value(v, known) for v in value]
    return value


def redact_report(report: Report, secrets: Iterable[str] = ()) -> Report:
    """A copy of `report` with secrets redacted in every string, however deeply nested.

    Covers free-form fields too (`args`, `response`, `spec`, `expected`, `actual`, dict keys).
    Pure: the input report is left as it was.
    """
    known = _secret_pattern(secrets)
    data = _redact_value(report.model_dump(mode="python"), known)
    return Report.model_validate(data)


def redact_patterns(report: Report) -> Report:
    """Only the key-pattern layer, for saved reports whose secret values are unknown."""
    return redact_report(report, ())
