"""One model cassette on disk: a test's recorded model requests and their answers, as one small,
stable JSON file meant to be committed and reviewed (docs/cassettes.md, "The file").

A request is kept as it was sent, redacted (`kind`, `model`, `messages`, `tools`, `params`); its
key is the SHA-256 of that canonical form, computed again on reading, so the file holds no
digest to go stale. Two things keep it small: a tool list is written once in `tools` and named
by its digest, and a request that continues an earlier one (an agent's next turn) names it in
`after` and holds only the messages it adds. The same bytes come out for the same answers:
keys sorted, requests in the order (kind, model, message count, key), the answers to one
request sorted, two-space indents.

A cassette is read back like every other file mcptest reads (`mcptest.readback`): a regular
file, bounded in bytes and nesting, validated against its shape.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mcptest.errors import ReadBackError
from mcptest.readback.files import decode_utf8, read_regular
from mcptest.readback.json_bounds import JsonLimits, check_json

if TYPE_CHECKING:
    from pathlib import Path

FORMAT = 1
MAX_BYTES = 16 << 20
LIMITS = JsonLimits(max_depth=96, max_values=2_000_000)
MAX_CONVERSATION_BYTES = 64 << 20
"""The requests' messages, each conversation spelt out in full (`after` chains expanded): a few
committed bytes cannot stand for a quadratic amount of work."""
ARGUMENT_LIMITS = JsonLimits(max_depth=64, max_values=200_000)


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def key_of(request: dict[str, Any], tools_text: str | None = None) -> str:
    """The request's key: SHA-256 of its canonical JSON (it is already redacted).

    `tools_text`, the canonical JSON of its tool list when known (a file's tool list is shared
    by many requests): the same key, without serializing that list again for each of them."""
    if tools_text is None or set(request) != _REQUEST_KEYS:
        return hashlib.sha256(canonical(request).encode()).hexdigest()
    h = hashlib.sha256()
    for name in sorted(_REQUEST_KEYS):  # canonical() sorts the keys, compact separators
        h.update(('{' if name == "kind" else ',').encode())
        h.update(f'"{name}":'.encode())
        h.update((tools_text if name == "tools" else canonical(request[name])).encode())
    h.update(b"}")
    return h.hexdigest()


_REQUEST_KEYS = frozenset({"kind", "model", "messages", "tools", "params"})


@dataclass
class CassetteExchange:
    """One distinct request and every answer it got, in the order they came."""

    request: dict[str, Any]
    replies: list[dict[str, Any]] = field(default_factory=list)
    known_key: str | None = None
    """The key, computed once (a request is never changed once it is kept)."""

    @property
    def key(self) -> str:
        if self.known_key is None:
            self.known_key = key_of(self.request)
        return self.known_key


@dataclass
class Recording:
    test: str
    definition: str
    """The test's definition hash when it was recorded: another one makes the cassette stale."""
    exchanges: list[CassetteExchange] = field(default_factory=list)


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    kind: Literal["judge", "chat"]
    model: str
    params: dict[str, Any] = Field(default_factory=dict)
    tools: str | None = None
    after: int | None = Field(default=None, ge=0)
    messages: list[dict[str, Any]] = Field(default_factory=list)
    replies: list[dict[str, Any]] = Field(min_length=1)


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    mcptest_cassette: Literal[1]
    test: str
    definition: str
    tools: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    requests: list[_Entry] = Field(default_factory=list)


def _order(e: CassetteExchange) -> tuple[str, str, int, str]:
    r = e.request
    return (r["kind"], r["model"], len(r["messages"]), e.key)


def cassette_text(rec: Recording) -> str:
    """The file's text (the same recording gives the same bytes)."""
    exchanges = sorted(rec.exchanges, key=_order)
    tools: dict[str, list[dict[str, Any]]] = {}
    entries: list[dict[str, Any]] = []
    for i, e in enumerate(exchanges):
        r = e.request
        # sorted: the same request sent at once several times answers in any order, and the
        # same answers must give the same bytes (a replay hands them out in this order)
        entry: dict[str, Any] = {"kind": r["kind"], "model": r["model"], "params": r["params"],
                                 "replies": sorted(e.replies, key=canonical)}
        if r["tools"]:
            name = hashlib.sha256(canonical(r["tools"]).encode()).hexdigest()[:12]
            tools[name] = r["tools"]
            entry["tools"] = name
        messages = r["messages"]
        after = max((j for j in range(i) if _prefix(exchanges[j].request["messages"], messages)),
                    key=lambda j: len(exchanges[j].request["messages"]), default=None)
        if after is not None:
            entry["after"] = after
            messages = messages[len(exchanges[after].request["messages"]):]
        entry["messages"] = messages
        entries.append(entry)
    doc = {"mcptest_cassette": FORMAT, "test": rec.test, "definition": rec.definition,
           "tools": tools, "requests": entries}
    return json.dumps(doc, sort_keys=True, ensure_ascii=False, indent=2) + "\n"


def _prefix(short: list[Any], long: list[Any]) -> bool:
    return 0 < len(short) < len(long) and long[:len(short)] == short


def read(path: Path, shown: str) -> Recording:
    """The recording in `path`; `ReadBackError` for a file that is not a cassette."""
    raw = read_regular(path, shown, max_bytes=MAX_BYTES, kind="a model cassette")
    check_json(raw, shown, LIMITS)
    try:
        doc = _File.model_validate_json(decode_utf8(raw, shown))
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ReadBackError(f"not a model cassette: {first['msg']}", shown, path=where) from None
    full: list[list[dict[str, Any]]] = []
    sizes: list[int] = []
    total = 0
    tool_texts = {name: canonical(tools) for name, tools in doc.tools.items()}
    exchanges = []
    for i, entry in enumerate(doc.requests):
        if entry.after is not None and entry.after >= i:
            raise ReadBackError("`after` must name an earlier request", shown,
                                path=f"requests.{i}.after")
        if entry.tools is not None and entry.tools not in doc.tools:
            raise ReadBackError(f"no tool list {entry.tools!r} in `tools`", shown,
                                path=f"requests.{i}.tools")
        sizes.append((sizes[entry.after] if entry.after is not None else 0)
                     + len(canonical(entry.messages)))
        total += sizes[-1]
        if total > MAX_CONVERSATION_BYTES:
            raise ReadBackError(
                f"the requests' conversations, spelt out, pass {MAX_CONVERSATION_BYTES >> 20} "
                "MiB (too many turns chained with `after`)", shown, path=f"requests.{i}")
        for j, reply in enumerate(entry.replies):
            _check_reply(entry.kind, reply, shown, f"requests.{i}.replies.{j}")
        messages = (full[entry.after] if entry.after is not None else []) + entry.messages
        full.append(messages)
        request = {"kind": entry.kind, "model": entry.model, "messages": messages,
                   "tools": doc.tools[entry.tools] if entry.tools else [],
                   "params": entry.params}
        tools_text = tool_texts[entry.tools] if entry.tools else "[]"
        exchanges.append(CassetteExchange(request, list(entry.replies),
                                          key_of(request, tools_text)))
    return Recording(doc.test, doc.definition, exchanges)


_TEXTS = ("content", "refusal", "stop", "stop_reason")
_COUNTS = ("prompt_tokens", "completion_tokens")


def _check_reply(kind: str, reply: dict[str, Any], shown: str, where: str) -> None:
    """A recorded answer holds what a model's answer holds: texts, token counts ≥ 0, tool calls
    whose arguments are bounded JSON text; `ReadBackError` naming the file and key otherwise."""
    def bad(key: str, what: str) -> ReadBackError:
        return ReadBackError(f"not a model cassette: {what}", shown, path=f"{where}.{key}")

    allowed = {*_TEXTS, *_COUNTS, *(("tool_calls",) if kind == "chat" else ())}
    for key, value in reply.items():
        if key not in allowed:
            raise bad(key, f"`{key}` is not part of a recorded {kind} answer")
        if key in _TEXTS and not (value is None or isinstance(value, str)):
            raise bad(key, "must be a string or null")
        if key in _COUNTS and not (type(value) is int and 0 <= value < 1 << 53):
            raise bad(key, "a token count must be a whole number ≥ 0")
    calls = reply.get("tool_calls", [])
    if not isinstance(calls, list):
        raise bad("tool_calls", "must be a list")
    for k, call in enumerate(calls):
        if not isinstance(call, dict) or not all(
                isinstance(call.get(f), str) for f in ("id", "name", "arguments")):
            raise bad(f"tool_calls.{k}", "a tool call has string `id`, `name` and `arguments`")
        try:
            check_json(call["arguments"].encode(), shown, ARGUMENT_LIMITS)
        except ReadBackError as e:  # bounds only: JSON a model got wrong is its own affair
            raise bad(f"tool_calls.{k}.arguments", e.message) from None


def write_cassette(path: Path, text: str) -> bool:
    """Write `text` atomically unless the file already holds it; whether it changed. The old
    file is read as any cassette is (a link to `/dev/zero` is just a file to replace), and the
    new one is written to a temporary file created exclusively beside it, then renamed over it:
    no committed link, the file's or a `.tmp` one, is ever written through."""
    data = text.encode()
    with contextlib.suppress(ReadBackError):
        if read_regular(path, str(path), max_bytes=len(data), kind="a model cassette") == data:
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return True
