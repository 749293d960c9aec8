"""Suite regexes matched with a time bound (docs/suites.md, Limits).

A pattern like `(a+)+$` against untrusted server text backtracks for longer than the universe
has left, and Python's `re` holds the GIL while it does, so neither a timeout nor SIGTERM gets
through. The `regex` package matches the same syntax and stops a match at a deadline; a match
that runs out of time is a failed check that says so, and the run goes on.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from mcptest.errors import McpTestError

if TYPE_CHECKING:
    import regex

MATCH_TIMEOUT_S = 1.0
"""Longest one suite regex may search one text."""


class RegexTimeout(McpTestError):
    """A match ran out of time (catastrophic backtracking, or a very long text)."""

    def __init__(self, pattern: str) -> None:
        super().__init__(
            f"matching /{pattern}/ took longer than {MATCH_TIMEOUT_S:g}s and was stopped "
            "(a pattern that backtracks catastrophically, such as (a+)+$?)"
        )


@lru_cache(maxsize=1024)
def _compiled(pattern: str) -> regex.Pattern[str]:
    # V0 keeps Python `re` semantics; patterns were checked with `re` when the suite loaded.
    import regex  # here: an import a run without suite regexes does not pay

    return regex.compile(pattern, regex.V0)


def search(pattern: str, text: str, *, timeout: float = MATCH_TIMEOUT_S) -> bool:
    """Whether `pattern` matches anywhere in `text`; raises `RegexTimeout` past `timeout`."""
    try:
        return _compiled(pattern).search(text, timeout=timeout) is not None
    except TimeoutError:
        raise RegexTimeout(pattern) from None
