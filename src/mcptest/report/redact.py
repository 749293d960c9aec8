"""The one redaction module: secrets out of reports, logs, judge messages and the cache.

Two layers: the exact values the run knows are secret (bearer tokens, `{env: …}` headers, judge
API keys, any environment variable whose name says it is a key), and patterns of well-known key
formats, so a key a server echoes back is caught even when nobody declared it. `mcptest report
run.json` re-applies the pattern layer to saved runs; reporters apply it once more as a second
line of defence (`mask_key_shapes`).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from mcptest.report.models import Report, TestResult

REDACTED = "[REDACTED]"
MIN_SECRET_LEN = 4
"""Shorter values are not redacted: replacing every `abc` in a report would destroy it."""
SECRET_ENV_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD", re.IGNORECASE)
"""Environment variables whose value is a secret, by name (`OPENAI_API_KEY`, `GITHUB_TOKEN`)."""
MIN_ENV_SECRET_LEN = 8
"""By-name secrets shorter than this are settings, not keys (`TOKENIZERS_PARALLELISM=false`)."""
MIN_URL_TOKEN_LEN = 20
"""A URL's lone user name at least this long is a token (`https://ghp_…@github.com`); a shorter
one is a name (`postgres://postgres@localhost`), redacted nowhere."""
PROVIDER_KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",
                 "MISTRAL_API_KEY", "MCPTEST_JUDGE_API_KEY", "GITHUB_TOKEN", "INPUT_GITHUB-TOKEN")
"""Always secret, however short."""

_KEY_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # Anthropic first so the whole `sk-ant-…` goes, then OpenAI (`sk-…`, `sk-proj-…`).
    (re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{8,}"), REDACTED),
    (re.compile(r"\bsk-[A-Za-z0-9_\-]{16,}"), REDACTED),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), REDACTED),
    (re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}"), REDACTED),
    (re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), REDACTED),
    (re.compile(r"\bAIza[0-9A-Za-z_\-]{35}"), REDACTED),
    (re.compile(r"\bxox[abprs]-[A-Za-z0-9\-]{10,}"), REDACTED),
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


_URL_USERINFO = re.compile(r"(://|:\\/\\/)([^/\\\s\"'<>`?#]*)@")
"""A URL's userinfo (`scheme://user:password@`, also with JSON's escaped slashes), wherever a
URL is quoted: a suite's judge, juror or server URL as written, an error naming it. Its
authority ends at a path, query or fragment, a space or a quote, so an e-mail address after a
URL is not taken for one; userinfo runs to the last `@` in it (a password may hold `@`), as
`urlsplit` reads it. Anchored on the `://`: linear in the text, whatever it holds."""


def _masked_userinfo(match: re.Match[str]) -> str:
    """The password of a URL's userinfo, however short (it is one by its place), or a lone user
    name of a token's length, as `[REDACTED]`; a plain user name stays."""
    user, colon, password = match.group(2).partition(":")
    if colon and password and password != REDACTED:
        return f"{match.group(1)}{user}:{REDACTED}@"
    if not colon and len(user) >= MIN_URL_TOKEN_LEN and user != REDACTED:
        return f"{match.group(1)}{REDACTED}@"
    return match.group(0)


_SECRET_KEY = re.compile(
    r"(?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|secret[_-]?key|client[_-]?secret"
    r"|access[_-]?token|auth[_-]?token|password|passwd)", re.IGNORECASE)
"""A JSON key whose string value is a secret (`{"api_key": …}`, `{"db_password": …}`): the
names the text patterns know, as a whole key."""

_PLAIN = frozenset({int, float, bool, type(None)})
"""Value types that hold no text (checked before anything else: a report is mostly these)."""
_TRIGGER = re.compile(
    r"sk-|gh[pousr]_|github_pat_|AKIA|ASIA|AIza|xox|bearer|api|secret|token|passw",
    re.IGNORECASE,
)
"""Cheap pre-check: a string none of these occur in cannot match any key pattern."""


def _secret_pattern(secrets: Iterable[str]) -> re.Pattern[str] | None:
    values = sorted({s for s in secrets if s and len(s) >= MIN_SECRET_LEN}, key=len, reverse=True)
    if not values:
        return None
    return re.compile("|".join(re.escape(v) for v in values))


def secret_values(env: Mapping[str, str]) -> set[str]:
    """The values of `env` that are secrets: provider keys, anything named like a key, and the
    secret in any URL's userinfo (`OPENAI_BASE_URL=http://bob:PASSWORD@…`)."""
    found = {v for k, v in env.items()
             if (k in PROVIDER_KEYS and len(v) >= MIN_SECRET_LEN)
             or (SECRET_ENV_NAME.search(k) and len(v) >= MIN_ENV_SECRET_LEN)}
    found.update(s for v in env.values() if (s := url_secret(v)) is not None)
    return found


def url_secret(value: str) -> str | None:
    """The secret a URL carries in its userinfo: its password, held to the length of a secret
    named by its variable (`MIN_ENV_SECRET_LEN`: a CI's `mysql://root:root@db` must not make every
    `root` in a report `[REDACTED]`), or a lone user name of a token's length
    (`https://TOKEN@host`; `MIN_URL_TOKEN_LEN`); None for any other text."""
    if "@" not in value or "://" not in value:
        return None
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value.strip())
    except ValueError:
        return None
    if parts.password is not None:
        return parts.password if len(parts.password) >= MIN_ENV_SECRET_LEN else None
    user = parts.username or ""
    return user if len(user) >= MIN_URL_TOKEN_LEN else None


def mask_key_shapes(text: str) -> str:
    """Only the key-pattern layer, for text whose secret values are unknown (reporters)."""
    return _redact_str(text, None)


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with every known secret and every key-shaped token replaced by `[REDACTED]`."""
    return _redact_str(text, _secret_pattern(secrets))


def _redact_str(text: str, known: re.Pattern[str] | None, found: set[str] | None = None) -> str:
    """`text` redacted; with `found`, the values the key patterns caught are added to it."""
    if len(text) < MIN_SECRET_LEN:
        return text
    if known is not None:
        text = known.sub(REDACTED, text)
    if "@" in text and ("://" in text or ":\\/\\/" in text):
        text = _URL_USERINFO.sub(_masked_userinfo, text)
    if _TRIGGER.search(text) is None:
        return text
    for pattern, replacement in _KEY_PATTERNS:
        if found is None:
            text = pattern.sub(replacement, text)
            continue

        def caught(match: re.Match[str]) -> str:
            prefix = match.group(1) if match.re.groups else ""
            assert found is not None
            found.add(match.group(0)[len(prefix):])
            return prefix + REDACTED

        text = pattern.sub(caught, text)
    return text


@functools.cache
def _test_result() -> type[TestResult]:
    """`TestResult`, imported on first use (this module sits below the report models)."""
    from mcptest.report.models import TestResult
    return TestResult


@functools.cache
def _field_names(model: type[BaseModel]) -> tuple[str, ...]:
    """A model's field names, read once per model class (pydantic's `model_fields` is a
    property that builds its answer on every read)."""
    return tuple(model.model_fields)


class _Redactor:
    """One redaction pass; remembers strings it has seen (reports repeat many of them).

    A value comes back as the very same object when nothing in it changed, so redacting a
    report of 10,000 clean rows costs no second copy of it (docs/reports.md, "Scale").

    A secret caught by shape or by key in one place of a test's row (`api_key=…` in the
    answer's text, `{"password": …}` in its `structuredContent`) is a known secret everywhere
    in that row: the row is redacted again with it (`_row`), so the same value does not stay in
    clear in the structured answer, an assertion's `actual` or a judge's reason.
    """

    def __init__(self, values: frozenset[str]) -> None:
        self.values = values
        self.known = _secret_pattern(values)
        self.seen: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.found: set[str] = set()
        self.in_row = False

    def text(self, value: str) -> str:
        done = self.seen.get(value)
        if done is None:
            caught: set[str] = set()
            done = self.seen[value] = (_redact_str(value, self.known, caught), tuple(caught))
        self.found.update(done[1])
        return value if done[0] == value else done[0]

    def _item(self, key: Any, value: Any) -> Any:
        if (type(value) is str and type(key) is str and len(value) >= MIN_SECRET_LEN
                and REDACTED not in value and _SECRET_KEY.fullmatch(key)):
            self.found.add(value)
            return REDACTED
        return self.value(value)

    def value(self, value: Any) -> Any:
        kind = type(value)
        if kind in _PLAIN:  # most of a report's values: nothing to redact, asked first
            return value
        if kind is str:
            return self.text(value)
        if kind is dict:
            pairs = [(self.value(k), self._item(k, v)) for k, v in value.items()]
            if all(k2 is k and v2 is v for (k2, v2), (k, v) in zip(pairs, value.items(),
                                                                   strict=True)):
                return value
            return dict(pairs)
        if kind is list or kind is tuple:
            items = [v if type(v) in _PLAIN else self.value(v) for v in value]
            return value if all(a is b for a, b in zip(items, value, strict=True)) else items
        if isinstance(value, BaseModel):
            return self.model(value)
        if isinstance(value, str):  # str subclasses (enums) are rare; keep them exact
            return self.text(value)
        return value

    def model(self, model: BaseModel) -> BaseModel:
        if not self.in_row and isinstance(model, _test_result()):
            return self._row(model)
        changed = {}
        values = model.__dict__  # the fields' values (getattr's descriptor lookup, skipped)
        for name in _field_names(type(model)):
            old = values[name]
            if type(old) in _PLAIN:  # asked here too: most fields, and a call saved on each
                continue
            new = self.value(old)
            if new is not old:
                changed[name] = new
        return model.model_copy(update=changed) if changed else model

    def _row(self, row: TestResult) -> BaseModel:
        outer, self.found, self.in_row = self.found, set(), True
        try:
            clean = self.model(row)
            extra = frozenset(self.found - self.values)
        finally:
            self.found, self.in_row = outer, False
        if not extra:
            return clean
        again = _Redactor(self.values | extra)
        again.in_row = True
        return again.model(row)


def redact_value(value: Any, secrets: Iterable[str] = ()) -> Any:
    """A copy of any JSON-like value with every string redacted (a judge candidate, a surface
    snapshot); a secret caught by shape or key anywhere in it is redacted everywhere in it."""
    known = frozenset(secrets)
    first = _Redactor(known)
    clean = first.value(value)
    extra = first.found - known
    return _Redactor(known | extra).value(value) if extra else clean


def redact_report(report: Report, secrets: Iterable[str] = ()) -> Report:
    """A copy of `report` with secrets redacted in every string, however deeply nested.

    Covers free-form fields too (`args`, `response`, `spec`, `expected`, `actual`, dict keys).
    Pure: the input report is left as it was.
    """
    from mcptest.report.models import Report
    clean = _Redactor(frozenset(secrets)).model(report)
    assert isinstance(clean, Report)
    return clean


def redact_patterns(report: Report) -> Report:
    """Only the key-pattern layer, for saved reports whose secret values are unknown."""
    return redact_report(report, ())
