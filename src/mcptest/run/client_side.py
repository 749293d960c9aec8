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

import contextvars
import re
from dataclasses import dataclass, field
from typing import Any, Literal

import mcp_types as types
from mcp.client.session import ClientRequestContext
from pydantic import BaseModel

from mcptest.llm.cassette import Tape, playing_tape
from mcptest.llm.cassette import current as current_tape
from mcptest.run.client_config import ClientConfig, roots_of
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
MAX_RECORDED = 1000
"""A server asking in a loop cannot grow a test's record without bound."""


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

    def begin(self, test: PerTestClient | None) -> None:
        """The answers of `test` come first until the next `begin`; a model answering sampling
        records into (or replays from) the cassette of the row running now."""
        self._test = test
        self._tape = current_tape()

    def take(self) -> Exchange:
        """Everything recorded since the last `take()`."""
        out, self._now = self._now, Exchange()
        return out

    def _blocks(self) -> list[ClientAnswers]:
        return [b for b in (self._test, self.config.answers) if b is not None]

    def _record(self, into: list[dict[str, Any]], entry: dict[str, Any]) -> None:
        if len(into) < MAX_RECORDED:
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
            problem = _schema_problem(content, params.requested_schema)
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
                if m is not None and m.message is not None and not re.search(
                        m.message, params.message):
                    continue
                return answer
        return None

    def _sampling_answer(self, params: types.CreateMessageRequestParams) -> SamplingAnswer | None:
        text, system = _texts(params), params.system_prompt or ""
        for block in self._blocks():
            for answer in block.sampling:
                m = answer.match
                if m is not None and m.text is not None and not re.search(m.text, text):
                    continue
                if m is not None and m.system is not None and not re.search(m.system, system):
                    continue
                return answer
        return None


def _defaults(schema: dict[str, Any]) -> dict[str, Any]:
    """The `default` of each property of a requested schema."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return {}
    return {k: v["default"] for k, v in props.items() if isinstance(v, dict) and "default" in v}


def _schema_problem(content: dict[str, Any], schema: dict[str, Any]) -> str | None:
    """Why `content` does not fit the requested schema (None: it fits, or the schema is bad)."""
    from jsonschema import FormatChecker  # only when a form is answered: not at start-up
    from jsonschema.exceptions import best_match
    from jsonschema.validators import validator_for

    try:
        cls = validator_for(schema)
        cls.check_schema(schema)
    except Exception:  # the server's schema is not ours to judge here
        return None
    error = best_match(cls(schema, format_checker=FormatChecker()).iter_errors(content))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where + ': ' if where else ''}{error.message[:200]}"
