"""What a custom judge receives (docs/cascade.md, "Custom judges"), as types.

`TypedDict`s, so the context is the plain dict judges always got (indexing, `.get`, `json.dumps`
for command judges keep working) and a judge typed `def judge(ctx: mcptest.JudgeContext)` is
checked by mypy or pyright. Nothing here imports more than `typing`: a judge module may import
it at no cost. (No `from __future__ import annotations`: Python 3.11 reads `NotRequired`
only from evaluated annotations, and `__optional_keys__` must list the keys that may be absent.)
"""

from typing import Any, NotRequired, TypedDict


class JudgeItem(TypedDict):
    """The item a custom judge grades (`context["metadata"]`)."""

    test: str
    test_id: str
    tags: list[str]
    server: str | None
    servers: NotRequired[list[str]]
    """Agent tests: the servers the agent may use."""
    tool: NotRequired[str]
    """Tool tests: the tool called."""
    prompt: NotRequired[str | None]
    """Agent tests and evals: the prompt."""
    response: Any
    """Everything the test produced: the tool's whole answer, or the agent's transcript."""
    case: str | None
    """The case's name in a table of cases, else None."""


class JudgeContext(TypedDict):
    """The one document both kinds of custom judge receive."""

    candidate: Any
    """The target's value."""
    output: Any
    """Alias of `candidate`."""
    rubric: str | None
    """The matcher's `rubric:`, if any."""
    criteria: str | None
    """Alias of `rubric`."""
    input: Any
    """The tool's `args`, or the agent's prompt."""
    target: str
    test: str
    test_id: str
    suite_file: str
    reference: Any
    """The test's `reference:` (its file's value), or None."""
    metadata: JudgeItem
