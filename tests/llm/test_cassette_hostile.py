"""Cassettes a pull request wrote (issue 34): what a reply holds is checked against its meaning,
the work reading implies is bounded (keys computed once, chains not quadratic, diffs cut before
difflib), and a recording never writes through a committed link."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from mcptest.errors import ReadBackError
from mcptest.llm.call import ChatTurn
from mcptest.llm.cassette import Cassettes, NotRecorded, Tape
from mcptest.llm.cassette_diff import explain_gap
from mcptest.llm.cassette_file import key_of, read

USER = {"role": "user", "content": "Add 2 and 3."}


def cassette(path: Path, requests: list[dict[str, Any]],
             tools: dict[str, Any] | None = None) -> Path:
    path.write_text(json.dumps({"mcptest_cassette": 1, "test": "t", "definition": "d",
                                "tools": tools or {}, "requests": requests}))
    return path


def entry(**over: Any) -> dict[str, Any]:
    return {"kind": "chat", "model": "m", "params": {}, "messages": [USER],
            "replies": [{"content": "hi"}], **over}


@pytest.mark.parametrize(("reply", "path", "says"), [
    ({"content": "x", "prompt_tokens": "many"}, "replies.0.prompt_tokens", "whole number ≥ 0"),
    ({"content": "x", "completion_tokens": -5}, "replies.0.completion_tokens", "≥ 0"),
    ({"content": {"text": "x"}}, "replies.0.content", "must be a string or null"),
    ({"content": "x", "cost": 1}, "replies.0.cost", "not part of a recorded chat answer"),
    ({"tool_calls": [{"id": "a", "name": "add", "arguments": "[" * 100_000 + "]" * 100_000}]},
     "replies.0.tool_calls.0.arguments", "nesting is too deep"),
    ({"tool_calls": {"id": "a"}}, "replies.0.tool_calls", "must be a list"),
])
def test_a_reply_that_means_nothing_is_refused_naming_the_file(
        tmp_path: Path, reply: dict[str, Any], path: str, says: str) -> None:
    file = cassette(tmp_path / "c.json", [entry(replies=[reply])])
    with pytest.raises(ReadBackError) as caught:
        read(file, "cassettes/s/c.json")
    assert caught.value.file == "cassettes/s/c.json"
    assert caught.value.path == f"requests.0.{path}" and says in caught.value.message


def test_chained_turns_are_bounded_by_the_conversations_they_spell(tmp_path: Path) -> None:
    turns = [entry(messages=[USER] if i == 0 else [{"role": "user", "content": "x" * 100}],
                   **({"after": i - 1} if i else {})) for i in range(20_001)]
    file = cassette(tmp_path / "c.json", turns)
    with pytest.raises(ReadBackError) as caught:
        read(file, "c.json")
    assert "conversations, spelt out, pass 64 MiB" in caught.value.message


def test_a_shared_tool_list_is_serialized_once_and_keys_stay_the_same(tmp_path: Path) -> None:
    tools = [{"type": "function", "function": {"name": f"t{i}", "description": "d" * 100}}
             for i in range(2_000)]
    requests = [entry(tools="big", messages=[{"role": "user", "content": str(i)}])
                for i in range(500)]
    rec = read(cassette(tmp_path / "c.json", requests, {"big": tools}), "c.json")
    assert all(x.known_key is not None for x in rec.exchanges)
    assert rec.exchanges[7].key == key_of(rec.exchanges[7].request)  # computed the long way


def test_a_diff_of_a_huge_listing_shows_the_lines_around_the_change() -> None:
    tools = [{"type": "function", "function": {"name": f"t{i}", "description": f"tool {i}"}}
             for i in range(10_000)]
    changed = [*tools[:5_000], {"type": "function", "function": {
        "name": "t5000", "description": "changed"}}, *tools[5_001:]]
    now = {"kind": "chat", "model": "m", "messages": [USER], "tools": changed, "params": {}}
    text = explain_gap(now, [{**now, "tools": tools}])
    assert '-      "description": "tool 5000",\n+      "description": "changed",' in text
    assert "@@ -3500" in text and len(text.splitlines()) < 70  # line 35,00x of the listing


def test_recording_replaces_committed_links_and_never_writes_through_them(
        tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    folder = tmp_path / "suite" / "cassettes" / "s"
    folder.mkdir(parents=True)
    target = folder / "adds.json"
    (folder / ".adds.json.tmp").symlink_to(outside / "owned.json")
    target.symlink_to("/dev/zero")
    t = Tape(test="s.yml::agent::adds", definition="d", path=target, shown="adds.json")
    tapes = Cassettes("record")
    request = {"kind": "chat", "model": "m", "messages": [USER], "tools": [], "params": {}}
    with tapes.playing(t):
        tapes.replay(request)
        tapes.record(request, ChatTurn("5", [], 1, 1, None), lambda v: v)
    assert tapes.save([t.test]) == ["adds.json"]
    assert not target.is_symlink() and read(target, "adds.json").exchanges
    assert list(outside.iterdir()) == []
    assert sorted(os.listdir(folder)) == [".adds.json.tmp", "adds.json"]


def test_a_replay_of_a_refused_cassette_names_it(tmp_path: Path) -> None:
    folder = tmp_path / "cassettes"
    folder.mkdir()
    path = cassette(folder / "adds.json", [entry(replies=[{"prompt_tokens": "many"}])])
    t = Tape(test="s.yml::agent::adds", definition="d", path=path, shown="cassettes/adds.json")
    tapes = Cassettes("replay")
    request = {"kind": "chat", "model": "m", "messages": [USER], "tools": [], "params": {}}
    with tapes.playing(t), pytest.raises(NotRecorded) as caught:
        tapes.replay(request)
    assert "cassettes/adds.json: requests.0.replies.0.prompt_tokens" in str(caught.value)
