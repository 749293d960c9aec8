"""Opening the transport of one server: environment, child process or HTTP client, and errors.

Everything here turns suite settings into SDK transports, and SDK failures into one readable
line. The process environment arrives as a mapping (never read from `os.environ` here) so tests
and the runner decide what a server sees.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO, cast
from urllib.parse import urlsplit, urlunsplit

import httpx2
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED

from mcptest.errors import ServerNotReadyError
from mcptest.run.bounded_http import BoundedClient
from mcptest.run.bounded_stdio import bounded_stdio_client
from mcptest.run.negotiate import NegotiationError
from mcptest.run.stdio_spawn import resolve_value
from mcptest.suite.models import EnvRef, StdioServer

if TYPE_CHECKING:
    from collections.abc import Mapping
    from contextlib import AbstractAsyncContextManager, AsyncExitStack

    from mcptest.run.stderr_log import StderrLog
    from mcptest.run.stdio_spawn import EarlyServer, StdioPlan
    from mcptest.suite.models import RemoteServer

SSE_TRANSPORT_EVENT_BYTES = 1024 * 1024
"""The event limit the SDK's `sse_client` sets for itself (`sse_within_origin`'s default)."""


def safe_url(url: str) -> str:
    """The URL without userinfo, query or fragment: fit for an error message."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


@dataclass
class HttpStatusLog:
    """Remembers the last HTTP error status: the SDK's errors do not carry it."""

    last_error: str | None = None
    statuses: list[int] = field(default_factory=list)

    async def on_response(self, response: httpx2.Response) -> None:
        self.statuses.append(response.status_code)
        if response.status_code >= 400:
            line = (
                f"HTTP {response.status_code} {response.reason_phrase} from "
                f"{response.request.method} {safe_url(str(response.request.url))}"
            )
            challenge = response.headers.get("www-authenticate")
            if challenge:
                line += f" (WWW-Authenticate: {challenge.split(',')[0][:80]})"
            self.last_error = line


@dataclass
class RemotePlan:
    headers: dict[str, str]
    secrets: list[str]


def plan_remote(name: str, spec: RemoteServer, env: Mapping[str, str]) -> RemotePlan:
    """Resolve headers and the bearer token (its value never leaves this process's memory)."""
    headers: dict[str, str] = {}
    secrets: list[str] = []
    for key, value in spec.headers.items():
        headers[key] = resolve_value(value, env, f"servers.{name}.headers.{key}")
        if isinstance(value, EnvRef) and headers[key]:
            secrets.append(headers[key])
    if spec.auth is not None:
        var = spec.auth.bearer_token_env
        token = env.get(var)
        if not token:
            raise ServerNotReadyError(
                f"environment variable {var} (servers.{name}.auth.bearer_token_env) is not set"
            )
        headers["Authorization"] = f"Bearer {token}"
        secrets.append(token)
    return RemotePlan(headers=headers, secrets=secrets)


def _http_timeout(spec: RemoteServer) -> httpx2.Timeout:
    return httpx2.Timeout(spec.http.timeout, connect=spec.http.connect_timeout)


async def enter_remote(
    stack: AsyncExitStack, spec: RemoteServer, plan: RemotePlan, log: HttpStatusLog
) -> Any:
    """Open a Streamable HTTP or SSE transport; returns its (read, write) stream pair."""
    hooks = {"response": [log.on_response]}
    limit = result_bound(spec)
    if spec.transport == "sse":

        def factory(
            headers: dict[str, str] | None = None,
            timeout: httpx2.Timeout | None = None,
            auth: httpx2.Auth | None = None,
        ) -> httpx2.AsyncClient:
            return BoundedClient(
                limit, headers=headers, timeout=timeout, auth=auth, event_hooks=hooks
            )

        # The SSE stream idles between calls: keep it open at least the SDK's 5 minutes.
        cm: AbstractAsyncContextManager[Any] = sse_client(
            spec.url,
            headers=plan.headers,
            timeout=spec.http.connect_timeout,
            sse_read_timeout=max(spec.http.timeout, 300.0),
            httpx_client_factory=factory,
        )
        return await stack.enter_async_context(cm)
    client = BoundedClient(
        limit, headers=plan.headers, timeout=_http_timeout(spec), event_hooks=hooks
    )
    await stack.enter_async_context(client)
    return await stack.enter_async_context(
        streamable_http_client(spec.url, http_client=client, max_sse_event_size=limit))


def result_bound(spec: RemoteServer) -> int:
    """`max_result_bytes`, or the SDK's own event limit on the older SSE transport when lower
    (`sse_client` takes no limit of ours: an event past its 1 MiB would end the connection)."""
    if spec.transport == "sse":
        return min(spec.max_result_bytes, SSE_TRANSPORT_EVENT_BYTES)
    return spec.max_result_bytes


async def enter_stdio(
    stack: AsyncExitStack, plan: StdioPlan, errlog: StderrLog, max_line_bytes: int,
    early: EarlyServer | None = None,
) -> Any:
    """The bounded, linear stdio transport on POSIX (`bounded_stdio`), over the process started
    early when there is one; the SDK's elsewhere."""
    if sys.platform == "win32":
        params = StdioServerParameters(command=plan.command, args=plan.args, env=plan.env,
                                       cwd=plan.cwd)
        return await stack.enter_async_context(
            stdio_client(params, errlog=cast(TextIO, errlog.file)))
    return await stack.enter_async_context(
        bounded_stdio_client(plan, errlog.file, max_line_bytes, early))


def flatten(exc: BaseException) -> list[BaseException]:
    """The leaf exceptions of a (nested) exception group, in order."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for sub in exc.exceptions for leaf in flatten(sub)]
    return [exc]


def one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def root_cause(exc: BaseException) -> BaseException:
    """The most telling leaf: the first ordinary exception (not a cancellation), else the first."""
    leaves = flatten(exc)
    return next((leaf for leaf in leaves if isinstance(leaf, Exception)), leaves[0])


def one_line_error(exc: BaseException) -> str:
    """`Type: message` of an exception, one line."""
    text = str(exc) or repr(exc)
    return one_line(f"{type(exc).__name__}: {text}")


def startup_failure(
    spec: StdioServer | RemoteServer, exc: BaseException, stderr: str, http_error: str | None
) -> str:
    """One line saying why a server never became ready, starting with the cause."""
    cause = root_cause(exc)
    if isinstance(spec, StdioServer):
        program = spec.command[0]
        tail = f"; stderr: {stderr}" if stderr else ""
        if isinstance(cause, FileNotFoundError):
            return one_line(f"command not found: {program}")
        if isinstance(cause, PermissionError):
            return one_line(f"permission denied starting {program}")
        if isinstance(cause, MCPError) and cause.code == CONNECTION_CLOSED:
            return one_line(f"exited at start ({program}){tail}", 500)
        return one_line(f"{_cause_text(cause)}{tail}", 500)
    url = safe_url(spec.url)
    if http_error:
        return one_line(http_error)
    if isinstance(cause, httpx2.ConnectError):
        return one_line(f"cannot connect to {url} (connection refused or unreachable)")
    if isinstance(cause, httpx2.TimeoutException):
        return one_line(f"timed out talking to {url} ({type(cause).__name__})")
    return one_line(f"{_cause_text(cause)} ({url})", 500)


def _cause_text(cause: BaseException) -> str:
    if isinstance(cause, MCPError):
        return f"protocol error {cause.code}: {cause.error.message}"
    if isinstance(cause, NegotiationError):
        return f"protocol negotiation failed: {cause}"
    return one_line_error(cause)
