"""What a suite names that the server's answer does not have (docs/suites.md, "Names the
server does not have"). A target missing from a normal answer is the suite's mistake (a typo
in the path, gap `suite`, with "did you mean"); on an error answer (`isError`, a JSON-RPC error)
it is the error's consequence, so the test fails once, saying what the tool answered, instead
of once per missing key. A tool the server does not list is said once per test, with the
nearest name it does list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.grade.diagnose import TARGET_MISSING, is_tool_error
from mcptest.suite.messages import did_you_mean

if TYPE_CHECKING:
    from mcptest.grade.targets import Missing
    from mcptest.report.models import AssertionResult

NOT_CHECKED = "not checked: the tool answered with an error"


def missing_message(found: Missing, produced: dict[str, Any]) -> str:
    """What a missing target's assertion says; the `target not found` prefix only when the
    answer is not an error (an error answer explains its own missing keys)."""
    if found.explained or is_tool_error(produced):
        return found.message
    return TARGET_MISSING + found.message


def tool_error_line(produced: dict[str, Any], limit: int = 200) -> str:
    """The error a tool answered with, on one line: the JSON-RPC error's message, or the text
    content of an `isError` result."""
    error = produced.get("error")
    if isinstance(error, dict):
        text = f"JSON-RPC error {error.get('code')}: {error.get('message')}"
    else:
        content = (produced.get("result") or {}).get("content") or []
        text = " ".join(str(c.get("text")) for c in content
                        if isinstance(c, dict) and c.get("type") == "text") or "(no text)"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def settle_error_answer(results: dict[int, AssertionResult], produced: dict[str, Any],
                        missing: set[int]) -> None:
    """On an error answer, the deterministic results say the error once: the first failure
    names it, and the assertions in `missing` (their target is absent) are skipped (`not
    checked`) once another failure carries the reason."""
    if not is_tool_error(produced):
        return
    said = f'the tool answered with an error: "{tool_error_line(produced)}"'
    failed = [i for i in sorted(results) if results[i].status == "failed"]
    absent = [i for i in failed if i in missing]
    present = [i for i in failed if i not in missing]
    first = present[0] if present else (absent[0] if absent else None)
    if first is None:
        return
    a = results[first]
    message = a.message or ""
    if first in absent:
        message = f"{said}, so {message}"
    elif tool_error_line(produced) not in message:
        message = f"{message} ({said})"
    results[first] = a.model_copy(update={"message": message})
    for i in absent:
        if i != first:
            results[i] = results[i].model_copy(update={
                "status": "skipped", "message": f"{NOT_CHECKED} (#{first} says which)"})


def unknown_name(kind: str, name: str, server: str, listed: list[str]) -> str | None:
    """`unknown tool `forcast` on server `ex` (did you mean `forecast`?)`, or None when the
    server lists `name`. `kind`: tool, prompt, resource template."""
    if name in listed:
        return None
    offered = f"it lists {len(listed)}" if listed else "it lists none"
    return (f"unknown {kind} `{name}` on server `{server}`{did_you_mean(name, listed)}; "
            f"{offered}")


def expects_error(expect: list[Any]) -> bool:
    """Whether a test asserts on an error answer (`error…`, or `result.isError` exactly true):
    then an unknown tool is what it calls on purpose."""
    for a in expect:
        target = str(getattr(a, "target", ""))
        matcher = getattr(a, "matcher", None)
        if target.split(".")[0].split("[")[0] == "error":
            return True
        if target == "result.isError" and getattr(matcher, "exact", None) is True:
            return True
    return False
