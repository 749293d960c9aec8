"""Our own retries around one model request (litellm's are unreliable; we pass num_retries=0).

Retried: 429, 5xx, connection errors (a refused or unroutable connection too: it costs nothing)
and timeouts, at most `max_tries` sends, with exponential backoff and jitter, waiting at least
what the provider's retry hint asks (`mcptest.llm.provider_errors`), and never past `max_total`
seconds from the first send. Everything else (4xx, bad model name, auth) fails at once (a
rejected structured-output format is re-sent weaker by the engine, not here). Failures arrive
as `ProviderError`s of our own tree: `mcptest.llm.call` maps litellm's exceptions where it calls
litellm, so nothing here matches exception classes by name.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import anyio
from pydantic import BaseModel, ConfigDict, Field

from mcptest.errors import FailureKind, JudgeError, ProviderError

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

__all__ = ["Classified", "FailureKind", "RetriesExhausted", "RetryPolicy", "classify",
           "with_retries"]

T = TypeVar("T")


class RetryPolicy(BaseModel):
    model_config = ConfigDict(frozen=True)

    max_tries: int = Field(default=4, ge=1, le=10)
    base_delay: float = Field(default=0.5, ge=0)
    max_delay: float = Field(default=20.0, ge=0)
    max_total: float = Field(default=180.0, gt=0)
    """No new try starts (and no wait is begun) past this many seconds after the first send."""


@dataclass(frozen=True)
class Classified:
    """What a failed call was, and whether (and after how long) it is worth retrying."""

    kind: FailureKind
    retryable: bool
    retry_after: float | None
    message: str


def classify(exc: BaseException) -> Classified:
    """How a failed send failed, and whether another try may help."""
    if isinstance(exc, ProviderError):
        retryable = exc.kind in ("timeout", "rate_limit", "server", "transport", "unreachable")
        return Classified(exc.kind, retryable, exc.retry_after, str(exc)[:300])
    if isinstance(exc, TimeoutError):
        return Classified("timeout", True, None, "timeout")
    if isinstance(exc, ConnectionError | OSError):
        return Classified("transport", True, None, f"{type(exc).__name__}: {exc}"[:300])
    return Classified("transport", False, None, f"{type(exc).__name__}: {exc}"[:300])


def backoff(attempt: int, policy: RetryPolicy, rng: random.Random) -> float:
    """Delay before try `attempt + 1` (attempt counts from 1): exponential, jittered ±50%."""
    base = min(policy.max_delay, policy.base_delay * 2.0 ** (attempt - 1))
    return base * rng.uniform(0.5, 1.5)


class RetriesExhausted(JudgeError):
    """Every allowed try failed; `last` says how the last one failed."""

    def __init__(self, last: Classified, tries: int) -> None:
        self.last = last
        self.tries = tries
        super().__init__(f"{last.message} after {tries} tr{'y' if tries == 1 else 'ies'}")


async def with_retries(send: Callable[[], Awaitable[T]], policy: RetryPolicy,
                       rng: random.Random | None = None,
                       passthrough: tuple[type[BaseException], ...] = ()) -> T:
    """Call `send` until it succeeds or the policy gives up (raises `RetriesExhausted`).

    Exceptions of a `passthrough` type are ours (budget refusal, …) and propagate unchanged.
    """
    start = time.monotonic()
    attempt = 0
    while True:
        attempt += 1
        try:
            return await send()
        except passthrough:
            raise
        except Exception as exc:
            c = classify(exc)
            if not c.retryable or attempt >= policy.max_tries:
                raise RetriesExhausted(c, attempt) from exc
            rng = rng or random.Random()  # seeded from the OS: only when a retry waits
            delay = backoff(attempt, policy, rng)
            if c.retry_after is not None:
                delay = max(delay, c.retry_after)
            if time.monotonic() - start + delay > policy.max_total:
                raise RetriesExhausted(c, attempt) from exc
            await anyio.sleep(delay)
