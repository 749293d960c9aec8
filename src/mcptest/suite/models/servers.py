"""Servers (stdio and remote) and `variables:` (docs/suites.md, `servers`)."""

from __future__ import annotations

import shlex
from typing import Annotated, Any, Literal

from pydantic import (
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

from mcptest.suite.durations import Duration
from mcptest.suite.models.base import Strict, check_regex
from mcptest.suite.models.client import ServerClient

DEFAULT_MAX_RESULT_BYTES = 8 * 1024 * 1024
ResultBound = Annotated[int, Field(
    ge=1024, le=1024 ** 3,
    description="Largest tool answer, in bytes, this server may send (default 8 MiB); a "
                "larger one errors its test and is skipped unread.",
)]


class EnvRef(Strict):
    """A value read from the environment at run time: `{env: NAME}`."""

    env: str = Field(min_length=1, description="Name of the environment variable.")


class StdioServer(Strict):
    """A server mcptest starts as a child process and speaks to over stdin/stdout."""

    command: list[str] = Field(
        min_length=1, description="argv; a string is split like a shell would split it."
    )
    env: dict[str, str | EnvRef] = Field(
        default_factory=dict, description="Extra environment for the child (literal or {env})."
    )
    inherit_env: bool | list[str] = Field(
        default=False,
        description=(
            "Which of our environment variables the child inherits besides HOME, LOGNAME, PATH, "
            "SHELL, TERM and USER: true for all, or a list of names."
        ),
    )
    cwd: str | None = Field(default=None, description="Working directory of the child.")
    protocol: Literal["auto", "legacy", "2026-07-28"] = Field(
        default="auto", description="Protocol negotiation: probe, initialize handshake, or pinned."
    )
    startup_timeout: Duration = Field(default=30.0, description="Seconds to become ready.")
    max_result_bytes: ResultBound = DEFAULT_MAX_RESULT_BYTES
    client: ServerClient | None = Field(
        default=None, description="Capabilities declared to this server and the client's "
                                  "answers (docs/suites.md#the-client-side).")

    @field_validator("command", mode="before")
    @classmethod
    def _split_string(cls, v: Any) -> Any:
        if isinstance(v, str):
            return shlex.split(v)
        return v


class BearerAuth(Strict):
    bearer_token_env: str = Field(
        min_length=1, description="Name of the variable holding the token (never the token)."
    )


class HttpSettings(Strict):
    timeout: Duration = Field(default=30.0, description="Read timeout in seconds.")
    connect_timeout: Duration = Field(default=10.0, description="Connect timeout in seconds.")


class ReadyCheck(Strict):
    """When a started server counts as ready (docs/suites.md, "Servers mcptest starts")."""

    url: str | None = Field(
        default=None, pattern=r"^https?://",
        description="Ready when this URL answers with any HTTP status below 500.",
    )
    log_regex: str | None = Field(
        default=None, description="Ready when the server's output (stdout or stderr) matches.",
    )
    tcp: str | None = Field(
        default=None, pattern=r"^[^\s:]+:\S+$",
        description="Ready when host:port accepts a TCP connection.",
    )

    _regex = field_validator("log_regex")(check_regex)

    @field_validator("tcp")
    @classmethod
    def _port(cls, v: str | None) -> str | None:
        port = v.rpartition(":")[2] if v is not None else "1"
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"tcp needs host:port with a port from 1 to 65535, got {v!r}")
        return v

    @model_validator(mode="after")
    def _exactly_one(self) -> ReadyCheck:
        given = [k for k in ("url", "log_regex", "tcp") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("ready needs exactly one of url, log_regex or tcp")
        return self


class StartSpec(Strict):
    """A process mcptest starts before connecting to `url`, and stops (with its children) after."""

    command: list[str] = Field(
        min_length=1, description="argv; a string is split like a shell would split it."
    )
    env: dict[str, str | EnvRef] = Field(
        default_factory=dict, description="Extra environment for the process (literal or {env})."
    )
    inherit_env: bool | list[str] = Field(
        default=False,
        description="As for stdio servers: true for all of our environment, or a list of names.",
    )
    cwd: str | None = Field(default=None, description="Working directory, relative to the suite.")
    ready: ReadyCheck | None = Field(
        default=None, description="Readiness check; default: the server's `url` answers.",
    )
    timeout: Duration = Field(default=30.0, description="Seconds the process has to become ready.")

    @field_validator("command", mode="before")
    @classmethod
    def _split_string(cls, v: Any) -> Any:
        return shlex.split(v) if isinstance(v, str) else v


class RemoteServer(Strict):
    """A server reached over Streamable HTTP (default) or legacy SSE."""

    url: str = Field(pattern=r"^https?://", description="http(s) URL of the MCP endpoint.")
    transport: Literal["streamable-http", "sse"] = "streamable-http"
    auth: BearerAuth | None = None
    headers: dict[str, str | EnvRef] = Field(default_factory=dict)
    http: HttpSettings = Field(default_factory=HttpSettings)
    protocol: Literal["auto", "legacy", "2026-07-28"] = "auto"
    startup_timeout: Duration = Field(default=30.0, description="Seconds to become ready.")
    max_result_bytes: ResultBound = DEFAULT_MAX_RESULT_BYTES
    start: StartSpec | None = Field(
        default=None, description="Start this process first; stop it and its children at the end.",
    )
    client: ServerClient | None = Field(
        default=None, description="Capabilities declared to this server and the client's "
                                  "answers (docs/suites.md#the-client-side).")


def _server_kind(v: Any) -> str | None:
    if isinstance(v, dict):
        if "command" in v:
            return "stdio"
        if "url" in v:
            return "remote"
        return None
    if isinstance(v, StdioServer):
        return "stdio"
    if isinstance(v, RemoteServer):
        return "remote"
    return None


Server = Annotated[
    Annotated[StdioServer, Tag("stdio")] | Annotated[RemoteServer, Tag("remote")],
    Discriminator(
        _server_kind,
        custom_error_type="server_kind",
        custom_error_message="a server needs either `command` (stdio) or `url` (HTTP)",
    ),
]


# ---------------------------------------------------------------------------------------------
# variables

class FromEnv(Strict):
    from_env: str = Field(min_length=1)
    default: str | int | float | bool | None = None


Variable = str | int | float | bool | FromEnv
