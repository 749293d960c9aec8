"""The cassette store and its file (llm/cassette.py, llm/cassette_file.py): one file per test,
the same bytes for the same answers, small (a tool list once, a turn holds only what it adds),
redacted as reports are, read back as a hostile file, and a replay that cannot answer says why
with the first differing message as a diff."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcptest.llm.call import ChatTurn, Reply, ToolCall
from mcptest.llm.cassette import Cassettes, NotRecorded, Tape
from mcptest.llm.cassette_codec import encode, stable_id
from mcptest.llm.cassette_file import CassetteExchange, Recording, cassette_text, key_of, read
from mcptest.report.redact import redact_value

TOOLS = [{"type": "function", "function": {"name": "add", "description": "Add two integers.",
                                            "parameters": {"type": "object"}}}]
PARAMS = {"temperature": 0.0, "max_tokens": 1024}


def chat(*messages: dict[str, Any], tools: list[dict[str, Any]] = TOOLS) -> dict[str, Any]:
    return {"kind": "chat", "model": "gpt-4o", "messages": list(messages), "tools": tools,
            "params": PARAMS}


USER = {"role": "user", "content": "Add 2 and 3."}
CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": "{}"}}]}


def result(n: int) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": "call_1",
            "content": json.dumps({"structuredContent": {"result": n}, "isError": False})}


def turn(content: str | None = None, *calls: str) -> ChatTurn:
    return ChatTurn(content, [ToolCall(f"c{k}", n, "{}") for k, n in enumerate(calls)], 10, 5,
                    0.001)


def tape(tmp_path: Path, test: str = "s.yml::agent::adds", definition: str = "d1") -> Tape:
    path = tmp_path / "cassettes" / "s" / f"{test.rsplit(':', 1)[-1]}.json"
    return Tape(test=test, definition=definition, path=path, shown=path.name)


def record(tmp_path: Path, *exchanges: tuple[dict[str, Any], ChatTurn], **kw: Any) -> Tape:
    t = tape(tmp_path, **kw)
    tapes = Cassettes("record")
    with tapes.playing(t):
        for request, reply in exchanges:
            assert tapes.replay(request) is None
            tapes.record(request, reply, lambda v: v)
    assert tapes.save([t.test]) == [t.shown]
    return t


def test_an_agent_conversation_is_stored_once_per_turn_and_reads_back(tmp_path: Path) -> None:
    first, second = chat(USER), chat(USER, CALL, result(5))
    t = record(tmp_path, (first, turn(None, "add")), (second, turn("2 + 3 = 5.")))
    doc = json.loads(t.path.read_text())
    assert list(doc["tools"].values()) == [TOOLS]  # the tool list once, named by its digest
    one, two = doc["requests"]
    assert one["messages"] == [USER] and "after" not in one
    assert two["after"] == 0 and two["messages"] == [CALL, result(5)]  # only what it adds
    assert one["replies"] == [{"completion_tokens": 5, "prompt_tokens": 10, "tool_calls": [
        {"arguments": "{}", "id": stable_id(key_of(first), 0), "name": "add"}]}]
    assert two["replies"] == [{"completion_tokens": 5, "content": "2 + 3 = 5.",
                               "prompt_tokens": 10}]
    back = read(t.path, t.shown)
    assert [e.request for e in back.exchanges] == [first, second]
    assert (back.test, back.definition) == ("s.yml::agent::adds", "d1")


def test_the_same_answers_give_the_same_bytes_whatever_the_order(tmp_path: Path) -> None:
    a = CassetteExchange(chat(USER), [{"content": "x"}])
    b = CassetteExchange(chat(USER, CALL, result(5)), [{"content": "y"}])
    c = CassetteExchange({**chat(USER), "kind": "judge", "tools": []}, [{"content": "z"}])
    one = cassette_text(Recording("t", "d", [a, b, c]))
    assert one == cassette_text(Recording("t", "d", [c, b, a]))
    assert one.endswith("}\n") and '  "mcptest_cassette": 1' in one


def test_a_replay_answers_in_order_and_says_when_answers_run_out(tmp_path: Path) -> None:
    request = chat(USER)
    t = record(tmp_path, (request, turn("one")), (request, turn("two")))
    tapes = Cassettes("replay")
    with tapes.playing(t):
        assert [tapes.replay(request)["content"] for _ in range(2)] == ["one", "two"]
        with pytest.raises(NotRecorded, match="model turn 1 of gpt-4o was asked 3 times; the "
                                              "cassette recorded 2 answer"):
            tapes.replay(request)
    assert tapes.replayed == 2
    assert tapes.missed(t.test) is not None and tapes.missed(t.test).startswith(
        f"model replay ({t.shown}): model turn 1 of gpt-4o was asked 3 times")


def test_a_changed_tool_result_shows_the_first_differing_turn_as_a_diff(tmp_path: Path
                                                                         ) -> None:
    t = record(tmp_path, (chat(USER), turn(None, "add")),
               (chat(USER, CALL, result(5)), turn("5")))
    tapes = Cassettes("replay")
    with tapes.playing(t), pytest.raises(NotRecorded) as caught:
        tapes.replay(chat(USER, CALL, result(6)))
    assert str(caught.value) == (
        f"model replay ({t.shown}): model turn 2 of gpt-4o is not in the cassette: message 3 "
        "(tool) differs from the recording\n"
        "--- recorded\n+++ now\n@@ -3,5 +3,5 @@\n     \"isError\": false,\n"
        "     \"structuredContent\": {\n-      \"result\": 5\n+      \"result\": 6\n     }\n   },")


def test_a_changed_description_shows_the_tools_that_differ(tmp_path: Path) -> None:
    t = record(tmp_path, (chat(USER), turn(None, "add")))
    changed = [{"type": "function", "function": {**TOOLS[0]["function"],
                                                 "description": "Sum two numbers."}}]
    tapes = Cassettes("replay")
    with tapes.playing(t), pytest.raises(NotRecorded) as caught:
        tapes.replay(chat(USER, tools=changed))
    text = str(caught.value)
    assert "model turn 1 of gpt-4o is not in the cassette: the tools offered differ" in text
    assert '-      "description": "Add two integers.",\n+      "description": "Sum two ' \
           'numbers.",' in text


def test_missing_stale_and_damaged_cassettes_each_say_so(tmp_path: Path) -> None:
    request = chat(USER)
    missing = tape(tmp_path, test="s.yml::agent::missing")
    recorded = record(tmp_path, (request, turn("x")))
    stale = Tape(recorded.test, "d2", recorded.path, recorded.shown)
    damaged = tape(tmp_path, test="s.yml::agent::damaged")
    damaged.path.write_text('{"mcptest_cassette": 1, "test": "x", "definition": "d1", '
                            '"requests": [{"kind": "chat", "model": "m", "after": 3, '
                            '"replies": [{}]}]}')
    deep = tape(tmp_path, test="s.yml::agent::deep")
    deep.path.write_text("[" * 500 + "]" * 500)
    said = {}
    for t in (missing, stale, damaged, deep):
        tapes = Cassettes("replay")
        with tapes.playing(t), pytest.raises(NotRecorded) as caught:
            tapes.replay(request)
        said[t.test.rsplit(":", 1)[-1]] = str(caught.value)
    assert said["missing"].endswith(f"no cassette for this test at {missing.shown}: record "
                                    "it with `mcptest run --models record`")
    assert "is stale: the test changed since it was recorded (definition d1, now d2)" in said[
        "adds"]
    assert "`after` must name an earlier request" in said["damaged"]
    assert "nest" in said["deep"], said["deep"]


def test_secrets_are_redacted_in_the_file_and_a_replay_still_matches(tmp_path: Path) -> None:
    secret = "hunter2-very-secret"
    leaking = chat(USER, CALL, {"role": "tool", "tool_call_id": "call_1",
                                "content": f"the password is {secret}"})

    def redact(v: Any) -> Any:
        return redact_value(v, {secret})

    t = tape(tmp_path)
    tapes = Cassettes("record")
    with tapes.playing(t):
        tapes.record(redact(leaking), turn(f"It is {secret}."), redact)
    tapes.save([t.test])
    text = t.path.read_text()
    assert secret not in text and text.count("[REDACTED]") == 2
    again = Cassettes("replay")
    with again.playing(t):  # the client keys the live request after the same redaction
        assert again.replay(redact(leaking)) == {"completion_tokens": 5,
                                                 "content": "It is [REDACTED].",
                                                 "prompt_tokens": 10}


def test_a_recording_that_lost_a_request_keeps_the_old_file(tmp_path: Path) -> None:
    t = record(tmp_path, (chat(USER), turn("old")))
    before = t.path.read_bytes()
    tapes = Cassettes("record")
    with tapes.playing(t):
        tapes.replay(chat(USER))
        tapes.lost()  # the provider failed: no answer to keep
    assert tapes.save([t.test]) == [] and t.path.read_bytes() == before
    nothing = Cassettes("record")  # the test no longer asks a model: its file goes
    with nothing.playing(t):
        pass
    assert nothing.save([t.test]) == [t.shown] and not t.path.exists()


def test_replies_keep_what_replays_need_and_never_a_cost() -> None:
    reply = Reply(content='{"score": 1}', refusal=None, prompt_tokens=3, completion_tokens=2,
                  reported_cost=0.5, stop=None, stop_reason="stop")
    assert encode(reply) == {"content": '{"score": 1}', "prompt_tokens": 3,
                             "completion_tokens": 2, "stop_reason": "stop"}
