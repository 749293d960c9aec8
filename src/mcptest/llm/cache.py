"""On-disk verdict cache, one JSON file per key, safe to keep between CI runs.

The key covers everything that could change a verdict: model, the endpoint it is asked at, the
full prompt messages (nonce blanked), rubric, candidate, sampling settings, repetition index and
`PROMPT_VERSION`. Only good
verdicts are stored (errors never), and files are written atomically so a killed run never
leaves a half-written entry.

The folder is meant to be saved between CI runs (`actions/cache`), so it is text at rest: the
judge's `reason` and `evidence`, which may quote a secret the candidate held, are redacted with
the reports' own redaction (`mcptest.report.redact`) before they are written (docs/judges.md).
Only the key's digest is stored, never the candidate or the prompt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from mcptest.llm.judge_reply import JudgeVerdict
from mcptest.llm.prompt import PROMPT_VERSION
from mcptest.report.redact import redact_text

if TYPE_CHECKING:
    from collections.abc import Iterable

    from mcptest.suite.models import JudgeDefaults

DEFAULT_CACHE_DIR = Path(".mcptest/cache")


def verdict_sampling(settings: JudgeDefaults) -> dict[str, Any]:
    """The suite's judge settings that can change a verdict: temperature, the token limit and,
    when it is off, structured output (left out at its default so entries written before it was
    keyed keep their keys). The threshold is not here: it is applied to the cached score."""
    out: dict[str, Any] = {"temperature": settings.temperature, "max_tokens": settings.max_tokens}
    if not settings.structured_output:
        out["structured_output"] = False
    return out


class CacheKey(BaseModel):
    model_config = ConfigDict(frozen=True)

    model: str
    messages: list[dict[str, str]]
    rubric: str
    candidate: str
    sampling: dict[str, Any]
    repetition: int
    prompt_version: str = PROMPT_VERSION
    reference: str | None = None
    """The test's reference as the judge saw it; left out of the digest when there is none, so
    entries written before references existed keep their keys."""
    endpoint: str | None = None
    """The base URL the request goes to (a gateway, a provider's base-URL variable): one
    gateway's `gpt-4o` is not another's. None (the provider's own endpoint) is left out of the
    digest, as `reference` is."""

    def digest(self) -> str:
        unset = {k for k in ("reference", "endpoint") if getattr(self, k) is None}
        blob = json.dumps(self.model_dump(exclude=unset or None),
                          sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()


class _Entry(BaseModel):
    model_config = ConfigDict(extra="ignore")

    key: str
    model: str
    prompt_version: str
    verdict: dict[str, Any]


class VerdictCache:
    """Reads and writes verdicts under `root/judge/<2 hex>/<sha256>.json`."""

    def __init__(self, root: Path, secrets: Iterable[str] = ()) -> None:
        self.root = root
        self.secrets = tuple(secrets)
        """Known secret values of the run; key-shaped tokens are redacted without being listed."""

    def _path(self, digest: str) -> Path:
        return self.root / "judge" / digest[:2] / f"{digest}.json"

    def get(self, key: CacheKey) -> JudgeVerdict | None:
        digest = key.digest()
        try:
            raw = self._path(digest).read_text(encoding="utf-8")
            entry = _Entry.model_validate_json(raw)
            if entry.key != digest:
                return None
            return JudgeVerdict.model_validate(entry.verdict)
        except (OSError, ValidationError, ValueError):
            return None  # a missing or damaged entry is a miss, never an error

    def _redacted(self, verdict: JudgeVerdict) -> JudgeVerdict:
        evidence = verdict.evidence
        return verdict.model_copy(update={
            "reason": redact_text(verdict.reason, self.secrets),
            "evidence": None if evidence is None else redact_text(evidence, self.secrets),
        })

    def put(self, key: CacheKey, verdict: JudgeVerdict) -> None:
        digest = key.digest()
        path = self._path(digest)
        entry = _Entry(key=digest, model=key.model, prompt_version=key.prompt_version,
                       verdict=self._redacted(verdict).model_dump(by_alias=True))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(entry.model_dump_json())
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError:
            return  # a read-only or full disk only costs us the cache
