"""The client side of the protocol: `client:` at the top level, on a server or on a test
(docs/suites.md#the-client-side).

What mcptest declares to a server (capabilities), the roots it lists, and the answers it gives
when a server asks for an elicitation or a sampling, in either era: pushed requests (handshake
servers) or `InputRequiredResult` rounds (2026-07-28).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from mcptest.suite.models.base import Strict, check_regex

Capability = Literal["sampling", "elicitation", "roots", "tasks"]
CAPABILITIES: tuple[str, ...] = ("sampling", "elicitation", "roots", "tasks")
LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert",
                   "emergency"]


class ElicitationMatch(Strict):
    """Which elicitation requests an answer is for; every given key must match."""

    message: str | None = Field(default=None, description="Regex searched in the request's "
                                                          "message.")
    mode: Literal["form", "url"] | None = Field(default=None, description="form or url.")

    _regex = field_validator("message")(check_regex)


class ElicitationAnswer(Strict):
    """The answer to the elicitation requests it matches (the first matching answer wins)."""

    match: ElicitationMatch | None = Field(
        default=None, description="Which requests; none: every elicitation request.")
    action: Literal["accept", "decline", "cancel"] = Field(description="accept, decline or "
                                                                       "cancel.")
    content: dict[str, Any] | None = Field(
        default=None,
        description="With accept: the form's values, checked against the requested schema "
                    "before they are sent (default: the schema's defaults).")

    @model_validator(mode="after")
    def _content_with_accept(self) -> ElicitationAnswer:
        if self.content is not None and self.action != "accept":
            raise ValueError(f"`content` goes with `action: accept`, not `{self.action}`")
        return self


class SamplingMatch(Strict):
    """Which sampling requests an answer is for; every given key must match."""

    text: str | None = Field(default=None, description="Regex searched in the text of the "
                                                       "request's messages.")
    system: str | None = Field(default=None, description="Regex searched in its system "
                                                         "prompt.")

    _regex = field_validator("text", "system")(check_regex)


class SamplingAnswer(Strict):
    """A scripted `text`, or a `model` asked through mcptest's model client."""

    match: SamplingMatch | None = Field(
        default=None, description="Which requests; none: every sampling request.")
    text: str | None = Field(default=None, description="The assistant's answer, as written.")
    model: str | None = Field(
        default=None, min_length=1,
        description="A model to answer with (routed, pooled and budgeted like a judge).")
    stop_reason: str = Field(default="endTurn", min_length=1,
                             description="The answer's stopReason (scripted text only).")

    @model_validator(mode="after")
    def _text_or_model(self) -> SamplingAnswer:
        if (self.text is None) == (self.model is None):
            raise ValueError("give exactly one of `text` (scripted) and `model` (a live model)")
        return self


class Root(Strict):
    """One root: a URI, or a path (relative to the suite file) sent as a file:// URI."""

    uri: str | None = Field(default=None, description="The root's file:// URI.")
    path: str | None = Field(default=None, min_length=1,
                             description="A folder, relative to the suite file.")
    name: str | None = Field(default=None, description="Its display name.")

    @field_validator("uri")
    @classmethod
    def _file_uri(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith("file://"):
            raise ValueError(f"a root is a file:// URI, got {v[:80]!r} (or give `path:`, a "
                             "folder relative to the suite file)")
        return v

    @model_validator(mode="after")
    def _one_place(self) -> Root:
        if (self.uri is None) == (self.path is None):
            raise ValueError("a root needs exactly one of `uri` and `path`")
        return self


def _roots(v: Any) -> Any:
    """A plain string in `roots:` is a URI."""
    if isinstance(v, list):
        return [{"uri": item} if isinstance(item, str) else item for item in v]
    return v


class ClientAnswers(Strict):
    """What every `client:` block may say."""

    capabilities: list[Capability] | None = Field(
        default=None,
        description="Capabilities to declare: sampling, elicitation, roots, tasks (default: "
                    "those the answers and tests need; [] declares none).")
    roots: list[Root] | None = Field(
        default=None, description="The roots listed to the server (a string is a URI).")
    elicitation: list[ElicitationAnswer] = Field(
        default_factory=list, description="Answers to elicitation requests, first match wins.")
    sampling: list[SamplingAnswer] = Field(
        default_factory=list, description="Answers to sampling requests, first match wins.")

    @field_validator("roots", mode="before")
    @classmethod
    def _plain_roots(cls, v: Any) -> Any:
        return _roots(v)

    @field_validator("capabilities")
    @classmethod
    def _once_each(cls, v: list[str] | None) -> list[str] | None:
        return sorted(set(v), key=CAPABILITIES.index) if v is not None else None


class ServerClient(ClientAnswers):
    """`client:` of a server or of the whole suite."""

    log_level: LogLevel | None = Field(
        default=None,
        description="Ask the server for log notifications from this level up "
                    "(`notifications.log[i]`).")


class PerTestClient(ClientAnswers):
    """`client:` of one test: answers first, then its server's, then the suite's."""

    progress: bool = Field(
        default=False,
        description="Send a progress token (also sent when a target reads "
                    "`notifications.progress`).")
    request_state: Literal["echo", "tampered"] = Field(
        default="echo",
        description="tampered: send the InputRequiredResult's requestState altered, and check "
                    "that the server rejects it.")


class TaskSpec(Strict):
    """How a tool test treats a task the server creates (the tasks extension)."""

    cancel: bool = Field(default=False,
                         description="Send tasks/cancel right after the task is created.")
