"""What mcptest is, as a client, to one server: the capabilities it declares and the answers it
gives (docs/suites.md#the-client-side).

A connection declares its capabilities once (the handshake era fixes them for the connection),
so they are worked out per server from the suite: the server's `client.capabilities`, else the
suite's, else what the answers and tests need (an elicitation answer anywhere for this server
declares `elicitation`, a `roots:` list `roots`, a test with `task:` `tasks`). A test whose own
`client.capabilities` differ gets a connection of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import mcp_types as types

from mcptest.suite.models.client import CAPABILITIES, ClientAnswers, PerTestClient, ServerClient

if TYPE_CHECKING:
    from mcptest.suite.models import Suite

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"


class Sampler(Protocol):
    """Answers a sampling request with a live model, through the run's model client."""

    async def sample(self, model: str, params: dict[str, Any],
                     timeout: float) -> types.CreateMessageResult | types.ErrorData: ...


@dataclass(frozen=True)
class ClientConfig:
    """The client's side of one connection."""

    capabilities: frozenset[str] = frozenset()
    answers: ServerClient = field(default_factory=ServerClient)
    """The server's answers, then the suite's (merged; first match wins)."""
    base_dir: Path = Path()
    sampler: Sampler | None = None

    def with_capabilities(self, capabilities: frozenset[str]) -> ClientConfig:
        return replace(self, capabilities=capabilities)

    def client_capabilities(self) -> types.ClientCapabilities:
        """The handshake's capability ad: what the MCP SDK builds from the callbacks it is given
        (what a 2026-07-28 request's `_meta` carries), plus 2025-11-25's `tasks`, which only
        the handshake era knows."""
        caps = self.capabilities
        return types.ClientCapabilities(
            sampling=types.SamplingCapability() if "sampling" in caps else None,
            elicitation=types.ElicitationCapability(
                form=types.FormElicitationCapability(), url=types.UrlElicitationCapability())
            if "elicitation" in caps else None,
            roots=types.RootsCapability(list_changed=True) if "roots" in caps else None,
            extensions={TASKS_EXTENSION: {}} if "tasks" in caps else None,
            tasks=_handshake_tasks(caps),
        )


def _handshake_tasks(caps: frozenset[str]) -> types.ClientTasksCapability | None:
    """`tasks` of protocol 2025-11-25, declared in the handshake with `tasks`: the requests a
    server may send as tasks (sampling, elicitation, when those are declared too). mcptest
    answers such a request at once with its result, which that protocol allows a receiver to do;
    servers that gate tools on it (server-everything's `*-async` tools) list them."""
    if "tasks" not in caps:
        return None
    return types.ClientTasksCapability(requests=types.ClientTasksRequestsCapability(
        sampling=types.TasksSamplingCapability(
            create_message=types.TasksCreateMessageCapability())
        if "sampling" in caps else None,
        elicitation=types.TasksElicitationCapability(
            create=types.TasksCreateElicitationCapability())
        if "elicitation" in caps else None))


NO_CLIENT = ClientConfig()


def merged(*blocks: ClientAnswers | None) -> ServerClient:
    """Answers of the given blocks in order (the first block's come first)."""
    given = [b for b in blocks if b is not None]
    roots = next((b.roots for b in given if b.roots is not None), None)
    caps = next((b.capabilities for b in given if b.capabilities is not None), None)
    level = next((b.log_level for b in given if isinstance(b, ServerClient) and b.log_level),
                 None)
    return ServerClient(
        capabilities=caps, roots=roots, log_level=level,
        elicitation=[a for b in given for a in b.elicitation],
        sampling=[a for b in given for a in b.sampling])


def needed(block: ClientAnswers | None) -> set[str]:
    """The capabilities a block's answers need."""
    if block is None:
        return set()
    out = {"elicitation"} if block.elicitation else set()
    out |= {"sampling"} if block.sampling else set()
    return out | ({"roots"} if block.roots is not None else set())


def tests_of(suite: Suite, server: str) -> list[tuple[PerTestClient | None, bool]]:
    """Each test of `server`: its `client:` block and whether it has `task:`."""
    out: list[tuple[PerTestClient | None, bool]] = []
    for test in suite.tools:
        if test.server == server:
            out.append((test.client, test.task is not None))
    for resource in suite.resources:
        if resource.server == server:
            out.append((resource.client, False))
    for prompt in suite.prompts:
        if prompt.server == server:
            out.append((prompt.client, False))
    return out


def server_capabilities(suite: Suite, server: str) -> frozenset[str]:
    """What the connection to `server` declares (see the module docstring)."""
    spec = suite.servers[server]
    for block in (spec.client, suite.client):
        if block is not None and block.capabilities is not None:
            return frozenset(block.capabilities)
    want = needed(spec.client) | needed(suite.client)
    for own, task in tests_of(suite, server):
        if own is not None and own.capabilities is None:
            want |= needed(own)
        want |= {"tasks"} if task else set()
    return frozenset(c for c in CAPABILITIES if c in want)


def client_config(suite: Suite, server: str, base_dir: Path,
                  sampler: Sampler | None = None) -> ClientConfig:
    """The client's side of the connection to `server` of `suite`."""
    spec = suite.servers[server]
    return ClientConfig(capabilities=server_capabilities(suite, server),
                        answers=merged(spec.client, suite.client), base_dir=base_dir,
                        sampler=sampler)


def capabilities_for(conn: ClientConfig, own: PerTestClient | None) -> frozenset[str]:
    """What a test needs declared: its own `client.capabilities`, else its connection's."""
    if own is None or own.capabilities is None:
        return conn.capabilities
    return frozenset(own.capabilities)


def roots_of(answers: ClientAnswers, base_dir: Path) -> list[types.Root]:
    """The roots to list: URIs as written, paths as file:// URIs of the resolved folder."""
    out: list[types.Root] = []
    for root in answers.roots or []:
        uri = root.uri if root.uri is not None else (base_dir / str(root.path)).resolve().as_uri()
        out.append(types.Root(uri=uri, name=root.name))
    return out
