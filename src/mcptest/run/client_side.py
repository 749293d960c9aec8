"""The client's half of one connection: the MCP SDK's sampling, elicitation and roots callbacks,
answering from the suite's `client:` blocks, and a record of what the server asked and notified
(docs/suites.md#the-client-side).

The same callbacks serve both eras: the SDK calls them for requests a handshake-era server
pushes, and `run/rounds.py` routes the `inputRequests` of a 2026-07-28 `InputRequiredResult`
through the SDK's `dispatch_input_request`, which calls them too. Each request is recorded with
the answer given, so what the server asked becomes a target (`client.elicitations[0].message`).

Calls on one connection run one after another, so what arrives belongs to the test in flight:
`take()` hands over everything recorded since the previous `take()` (a request that arrives
between two tests is shown on the next one).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import mcp_types as types

from mcptest.grade import bounded_regex, bounded_schema
from mcptest.llm.cassette import Tape, playing_tape
from mcptest.llm.cassette import current as current_tape
from mcptest.run.client_config import ClientConfig, roots_of

if TYPE_CHECKING:
    from mcp.client.session import ClientRequestContext
    from pydantic import BaseModel

    from mcptest.suite.models.client import (
        ClientAnswers,
        ElicitationAnswer,
        PerTestClient,
        SamplingAnswer,
    )

Via = Literal["push", "input_required", "task"]
VIA: contextvars.ContextVar[Via] = contextvars.ContextVar("mcptest_via", default="push")
"""How the request being answered arrived (set by the code that routes embedded requests)."""
SCRIPTED_MODEL = "mcptest-scripted"
SAMPLING_TIMEOUT_S = 120.0
MAX_SAMPLING_TOKENS = 1 << 30
"""A `maxTokens` past this is not a number of tokens (the suite's own limit applies below it)."""
MAX_RECORDED = 1000
"""A server asking in a loop cannot grow a test's record without bound."""
MAX_RECORDED_BYTES = 1 << 20
"""Nor can a server sending large notifications or forms: past this many bytes (as JSON) in
one test, an entry keeps only its small fields and `omitted_bytes`."""
_KEPT_WHEN_OMITTED = ("via", "mode", "message", "level", "logger", "progress", "total",
                      "progressToken", "problem")


def _wire(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def _refused(message: str) -> types.ErrorData:
    return types.ErrorData(code=types.INVALID_REQUEST, message=f"mcptest: {message}")


def _texts(params: types.CreateMessageRequestParams) -> str:
    """The text of a sampling request's messages, one message per line."""
    out: list[str] = []
    for message in params.messages:
        blocks = message.content if isinstance(message.content, list) else [message.content]
        out.extend(b.text for b in blocks if isinstance(b, types.TextContent))
    return "\n".join(out)


@dataclass
class Exchange:
    """What one test's server asked and notified, and what went wrong answering it."""

    elicitations: list[dict[str, Any]] = field(default_factory=list)
    sampling: list[dict[str, Any]] = field(default_factory=list)
    roots_requests: int = 0
    progress: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Requests no answer matched, or whose scripted answer could not be sent."""
    room: int = MAX_RECORDED_BYTES
    """Bytes the entries above may still take."""

    def produced(self, *, client: bool, notifications: bool) -> dict[str, Any]:
        """The targets: `client.*` and `notifications.*`, each when asked for or not empty."""
        out: dict[str, Any] = {}
        if client or self.elicitations or self.sampling or self.roots_requests:
            out["client"] = {"elicitations": self.elicitations, "sampling": self.sampling,
                             "roots_requests": self.roots_requests}
        if notifications or self.progress or self.log:
            out["notifications"] = {"progress": self.progress, "log": self.log}
        return out


class ClientSide:
    """Answers a server's requests for one connection and records them."""

    def __init__(self, config: ClientConfig) -> None:
        self.config = config
        self._test: PerTestClient | None = None
        self._tape: Tape | None = None
        self._deadline = 0.0
        self._now = Exchange()

    # -- the SDK's ClientSession arguments -------------------------------------------------------

    def session_kwargs(self) -> dict[str, Any]:
        """Callbacks for the declared capabilities only (the SDK declares what it is given)."""
        caps = self.config.capabilities
        kwargs: dict[str, Any] = {}
        if "sampling" in caps:
            kwargs["sampling_callback"] = self.sample
        if "elicitation" in caps:
            kwargs["elicitation_callback"] = self.elicit
        if "roots" in caps:
            kwargs["list_roots_callback"] = self.list_roots
        if "tasks" in caps:
            kwargs["extensions"] = {"io.modelcontextprotocol/tasks": {}}
        if self.config.answers.log_level is not None:
            kwargs["log_level"] = self.config.answers.log_level
        return kwargs

    # -- per test --------------------------------------------------------------------------------

    def begin(self, test: PerTestClient | None, timeout: float | None = None) -> None:
        """The answers of `test` come first until the next `begin`; a model answering sampling
        records into (or replays from) the cassette of the row running now. Checking a server's
        form ends within `timeout` (the test's own) and `bounded_schema.DEADLINE_S`."""
        self._test = test
        self._tape = current_tape()
        self._deadline = time.monotonic() + (bounded_schema.DEADLINE_S if timeout is None
                                             else timeout)

    def take(self) -> Exchange:
        """Everything recorded since the last `take()`."""
        out, self._now = self._now, Exchange()
        return out

    def _blocks(self) -> list[ClientAnswers]:
        return [b for b in (self._test, self.config.answers) if b is not None]

    def _record(self, into: list[dict[str, Any]], entry: dict[str, Any]) -> None:
        if len(into) >= MAX_RECORDED:
            return
        size = len(json.dumps(entry, default=str))
        if size > self._now.room:
            entry = {k: _short(entry[k]) for k in _KEPT_WHEN_OMITTED if k in entry}
            entry["omitted_bytes"] = size
        else:
            self._now.room -= size
        into.append(entry)

    # -- notifications (from the transport tap, in wire order) -----------------------------------

    def received(self, item: Any) -> None:
        message = getattr(item, "message", None)
        if not isinstance(message, types.JSONRPCNotification):
            return
        params = dict(message.params or {})
        if message.method == "notifications/progress":
            self._record(self._now.progress, params)
        elif message.method == "notifications/message":
            self._record(self._now.log, params)

    # -- callbacks -------------------------------------------------------------------------------

    async def list_roots(self, context: ClientRequestContext) -> types.ListRootsResult:
        self._now.roots_requests += 1
        answers = next((b for b in self._blocks() if b.roots is not None), self.config.answers)
        return types.ListRootsResult(roots=roots_of(answers, self.config.base_dir))

    async def elicit(self, context: ClientRequestContext,
                     params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        asked = {**_wire(params), "via": VIA.get()}
        answer = self._elicitation_answer(params)
        if answer is None:
            return self._unanswered(self._now.elicitations, asked, "an elicitation",
                                    params.message)
        result = types.ElicitResult(action=answer.action)
        if answer.action == "accept" and isinstance(params, types.ElicitRequestFormParams):
            content = answer.content if answer.content is not None else _defaults(
                params.requested_schema)
            problem = await self._schema_problem(content, params.requested_schema)
            if problem is not None:
                text = (f"the accepted content does not fit the requested schema ({problem}); "
                        f"request: {params.message[:120]!r}")
                return self._unanswered(self._now.elicitations, asked, None, text)
            result = types.ElicitResult(action="accept", content=content)
        self._record(self._now.elicitations, {**asked, "response": _wire(result)})
        return result

    async def sample(self, context: ClientRequestContext,
                     params: types.CreateMessageRequestParams
                     ) -> types.CreateMessageResult | types.ErrorData:
        asked = {**_wire(params), "via": VIA.get()}
        if not 1 <= params.max_tokens <= MAX_SAMPLING_TOKENS:
            return self._unanswered(self._now.sampling, asked, None, (
                f"the server asked for maxTokens {params.max_tokens}: a sampling request must "
                f"allow between 1 and {MAX_SAMPLING_TOKENS:,} tokens"))
        answer = self._sampling_answer(params)
        if answer is None:
            return self._unanswered(self._now.sampling, asked, "a sampling", _texts(params))
        if answer.model is not None:
            if self.config.sampler is None:
                return self._unanswered(self._now.sampling, asked, None, (
                    f"sampling with model {answer.model!r} needs a run's model client "
                    "(`mcptest run`); here only scripted `text:` answers work"))
            with playing_tape(self._tape):  # the connection's task, not the test's
                reply = await self.config.sampler.sample(answer.model, _wire(params),
                                                         SAMPLING_TIMEOUT_S)
            if isinstance(reply, types.ErrorData):
                return self._unanswered(self._now.sampling, asked, None, reply.message)
            result = reply
        else:
            result = types.CreateMessageResult(
                role="assistant", content=types.TextContent(type="text", text=answer.text or ""),
                model=SCRIPTED_MODEL, stop_reason=answer.stop_reason)
        self._record(self._now.sampling, {**asked, "response": _wire(result)})
        return result

    async def _schema_problem(self, content: dict[str, Any],
                              schema: dict[str, Any]) -> str | None:
        """`bounded_schema.problem` in a thread (the event loop and the test's timeout go on),
        ending by the test's deadline."""
        left = min(bounded_schema.DEADLINE_S, self._deadline - time.monotonic())
        if left <= 0:
            return "the test's time ran out before the form could be checked"
        try:
            return await asyncio.wait_for(asyncio.to_thread(
                bounded_schema.problem, content, schema, deadline_s=left), left + 0.5)
        except TimeoutError:
            return f"checking the form against the server's schema took longer than {left:.1f}s"

    def _unanswered(self, into: list[dict[str, Any]], asked: dict[str, Any], kind: str | None,
                    detail: str) -> types.ErrorData:
        if kind is not None:
            detail = (f"the server asked for {kind} that no `client.{kind.split()[-1]}` answer "
                      f"matches: {detail[:160]!r}")
        if len(self._now.problems) < 20:
            self._now.problems.append(detail)
        self._record(into, {**asked, "response": None, "problem": detail})
        return _refused(detail)

    def _elicitation_answer(self, params: types.ElicitRequestParams) -> ElicitationAnswer | None:
        for block in self._blocks():
            for answer in block.elicitation:
                m = answer.match
                if m is not None and m.mode is not None and m.mode != params.mode:
                    continue
                if m is not None and m.message is not None and not _found(
                        m.message, params.message):
                    continue
                return answer
        return None

    def _sampling_answer(self, params: types.CreateMessageRequestParams) -> SamplingAnswer | None:
        text, system = _texts(params), params.system_prompt or ""
        for block in self._blocks():
            for answer in block.sampling:
                m = answer.match
                if m is not None and m.text is not None and not _found(m.text, text):
                    continue
                if m is not None and m.system is not None and not _found(m.system, system):
                    continue
                return answer
        return None


def _defaults(schema: dict[str, Any]) -> dict[str, Any]:
    """The `default` of each property of a requested schema."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return {}
    return {k: v["default"] for k, v in props.items() if isinstance(v, dict) and "default" in v}


def _short(value: Any) -> Any:
    """A kept field of an omitted entry: a string cut to 200 characters, a number as is."""
    if isinstance(value, str):
        return value[:200]
    return value if isinstance(value, int | float | bool) or value is None else "…"


def _found(pattern: str, text: str) -> bool:
    """A suite's `match:` regex against a server's text, bounded (a match out of time: no match)."""
    try:
        return bounded_regex.search(pattern, text)
    except bounded_regex.RegexTimeout:
        return False
