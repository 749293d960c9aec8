"""The event-stream bound of run/sse_bound.py, read back by httpx's own SSE parser (the one the
MCP SDK uses): events within the bound arrive exactly as sent, however the stream is chunked and
whatever line endings it uses; an event past it becomes one TOO_LARGE error for the right id;
no event handed on is larger than the bound (docs/suites.md, "Answers too large")."""

from __future__ import annotations

import json

import httpx2
from hypothesis import given
from hypothesis import strategies as st

from mcptest.run.bounded_stdio import TOO_LARGE
from mcptest.run.sse_bound import SseBound

LINE = st.text(st.characters(codec="utf-8", exclude_characters="\r\n{}\"'"), max_size=40)
EVENT = st.lists(LINE, min_size=1, max_size=4)
ENDING = st.sampled_from([b"\n", b"\r\n", b"\r"])


def _parse(body: bytes) -> list[str]:
    response = httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=body,
                               request=httpx2.Request("GET", "http://127.0.0.1/sse"))
    return [sse.data for sse in httpx2.EventSource(response)]


def _through(bound: SseBound, body: bytes, cuts: list[int]) -> bytes:
    out = bytearray()
    start = 0
    for cut in [*sorted({c % (len(body) + 1) for c in cuts}), len(body)]:
        out += bound.feed(body[start:cut])
        start = cut
    return bytes(out + bound.end())


def _size(event: list[str]) -> int:
    return sum(len(f"data: {line}".encode()) + 1 for line in event)


@given(events=st.lists(EVENT, max_size=6), ending=ENDING, comments=st.booleans(),
       cuts=st.lists(st.integers(0, 10_000), max_size=8), limit=st.integers(20, 200))
def test_events_within_the_bound_pass_and_the_others_become_errors(
        events: list[list[str]], ending: bytes, comments: bool, cuts: list[int],
        limit: int) -> None:
    body = bytearray()
    for event in events:
        if comments:
            body += b": keep-alive" + ending
        for line in event:
            body += f"data: {line}".encode() + ending
        body += ending
    out = _through(SseBound(limit, request_id=7), bytes(body), cuts)
    got = _parse(out)
    assert len(got) == len(events)
    for data, event in zip(got, events, strict=True):
        if _size(event) <= limit:
            assert data == "\n".join(event)
        else:
            message = json.loads(data)
            assert message["id"] == 7 and message["error"]["code"] == TOO_LARGE
    for chunk in out.split(b"\n\n"):
        assert len(chunk) <= limit or b'"code":-32090' in chunk


def test_the_id_comes_from_the_event_itself_when_it_names_one() -> None:
    body = b'data: {"jsonrpc": "2.0", "id": "call-9", "result": {"text": "' + b"x" * 500 + b'"}}\n\n'
    [data] = _parse(_through(SseBound(100, request_id=None), body, [7, 130]))
    assert json.loads(data)["id"] == "call-9"
    assert "more than 100 bytes is over the 100-byte bound" in json.loads(data)["error"]["message"]


def test_without_an_id_the_event_is_told_as_invalid_output() -> None:
    body = b"data: " + b"y" * 500 + b"\n\ndata: after\n\n"
    got = _parse(_through(SseBound(100, request_id=None), body, []))
    assert got[0].startswith("a server-sent event of more than 100 bytes (over the 100-byte "
                             "bound) without a readable id: 'yyy")
    assert got[1] == "after"


def test_an_unfinished_line_past_the_bound_is_not_kept() -> None:
    bound = SseBound(1000, request_id=1)
    out = bound.feed(b"data: " + b"z" * 5000)
    assert b'"code":-32090' in out
    assert len(bound.feed(b"z" * 100_000)) == 0  # skipped as it streams, not held
    assert _parse(out + bound.feed(b"\n\ndata: next\n\n"))[1:] == ["next"]


def test_invalid_utf8_is_handed_on_replaced() -> None:
    out = _through(SseBound(100, request_id=1), b"data: \xff\xfe ok\n\n", [])
    assert _parse(out) == ["\ufffd\ufffd ok"]
