"""Target paths: parsing, resolution, and the message naming the first missing segment."""

from __future__ import annotations

import pytest

from mcptest.grade.targets import Missing, Resolved, TargetSyntaxError, parse_target, resolve

PRODUCED = {
    "result": {
        "content": [{"type": "text", "text": "hello"}, {"type": "text", "text": "bye"}],
        "isError": False,
        "structuredContent": {"temp": 21.5, "a.b": {"c": [1, 2, 3]}},
        "_meta": {"k": "v"},
    }
}


@pytest.mark.parametrize(
    ("path", "segments"),
    [
        ("result", ("result",)),
        ("result.content[0].text", ("result", "content", 0, "text")),
        ("result.content[-1]", ("result", "content", -1)),
        ('result.structuredContent["a.b"].c[2]', ("result", "structuredContent", "a.b", "c", 2)),
        ("tool_calls[0].args.city", ("tool_calls", 0, "args", "city")),
        ("result._meta.k", ("result", "_meta", "k")),
    ],
)
def test_parse(path: str, segments: tuple) -> None:
    assert parse_target(path) == segments


@pytest.mark.parametrize("bad", ["", ".result", "result.", "result..x", "result[x]", "a[0]b"])
def test_parse_rejects_malformed(bad: str) -> None:
    with pytest.raises(TargetSyntaxError):
        parse_target(bad)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("result.content[0].text", "hello"),
        ("result.content[-1].text", "bye"),
        ("result.isError", False),
        ("result.structuredContent.temp", 21.5),
        ('result.structuredContent["a.b"].c[-1]', 3),
        ("result._meta.k", "v"),
    ],
)
def test_resolve(path: str, value: object) -> None:
    assert resolve(PRODUCED, path) == Resolved(value)


@pytest.mark.parametrize(
    ("path", "fragment"),
    [
        ("result.content[5].text", "`result.content[5]`: index 5 out of range (an array of length 2)"),
        ("result.structuredContent.humidity",
         "`result.structuredContent.humidity`: no key `humidity` in an object with keys [temp, a.b]"),
        ("result.content[0].text.x", "`result.content[0].text.x`: no key `x` in a string of 5 chars"),
        ("result.isError[0]", "`result.isError[0]`: cannot index [0] into the boolean false"),
        ("jury.agreement", "`jury` is absent"),
        ("final", "`final` is not available here (available: result)"),
    ],
)
def test_missing_names_first_missing_segment(path: str, fragment: str) -> None:
    found = resolve(PRODUCED, path)
    assert isinstance(found, Missing)
    assert fragment in found.message


def test_result_absent_after_jsonrpc_error() -> None:
    found = resolve({"error": {"code": -32602, "message": "Unknown tool"}}, "result.content")
    assert isinstance(found, Missing)
    assert "JSON-RPC error -32602 (Unknown tool)" in found.message
