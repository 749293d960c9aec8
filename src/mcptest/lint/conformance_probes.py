"""The probes of the 2026-07-28 conformance checks on one raw channel (docs/conformance.md).

Each sends what one check needs over a channel of lint/raw_channel.py and records what
lint/conformance_judge.py finds in the answers in a `CheckOutcome`: every tool called with given
client capabilities (a listing after each call), the list methods, a version nobody supports, a
subscription, a cancellation. lint/conformance.py decides which connections run which probes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import httpx2

from mcptest.lint import conformance_judge as judge
from mcptest.lint.raw_channel import Channel, HttpChannel, StdioChannel, meta, parse

if TYPE_CHECKING:
    from mcptest.lint.tool_rules import Raw

TIMEOUT_S = 10.0
LISTEN_WAIT_S = 3.0
"""How long a subscription may take to be acknowledged."""
CANCELLABLE_S = 0.3
"""The shortest sweep call worth cancelling: a faster one may answer before the cancel is read,
which the spec allows."""
UNSUPPORTED = "1900-01-01"
FORM_ONLY: dict[str, Any] = {"elicitation": {"form": {}}}
LIST_METHODS = {"prompts": "prompts/list", "resources": "resources/list"}
SAMPLE = {"string": "mcptest", "integer": 1, "number": 1, "boolean": False, "array": [],
          "object": {}}


@dataclass
class CheckOutcome:
    """Problems per rule, and why a rule could not run (None: it ran)."""

    problems: list[Raw] = field(default_factory=list)
    ran: dict[str, str | None] = field(default_factory=dict)
    noise: list[str] = field(default_factory=list)
    """Lines of our own stdio connections' stdout that were no JSON-RPC message."""

    def add(self, rule: str, found: list[str], subject: str | None = None) -> None:
        """Record a check's problems: the first per rule and subject (the sweeps repeat)."""
        self.ran.setdefault(rule, None)
        if found and not any(r == rule and s == subject for r, _, s, _ in self.problems):
            self.problems.append((rule, "error", subject, found[0]))

    def skip(self, rule: str, why: str) -> None:
        if rule not in self.ran:
            self.ran[rule] = why


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def arguments(tool: dict[str, Any]) -> dict[str, Any]:
    """Plausible arguments from the input schema: examples, defaults, enums, else a sample of
    each required property's type."""
    schema = _dict(tool.get("inputSchema"))
    props = _dict(schema.get("properties"))
    required = schema.get("required")
    out: dict[str, Any] = {}
    for name in required if isinstance(required, list) else []:
        sub = _dict(props.get(name))
        examples, enum = sub.get("examples"), sub.get("enum")
        if isinstance(examples, list) and examples:
            out[name] = examples[0]
        elif "default" in sub:
            out[name] = sub["default"]
        elif isinstance(enum, list) and enum:
            out[name] = enum[0]
        else:
            kind = sub.get("type")
            kind = kind[0] if isinstance(kind, list) and kind else kind
            out[name] = SAMPLE.get(str(kind), "mcptest")
    return out


def received_messages(received: list[Any]) -> list[dict[str, Any]]:
    return [r.message for r in received if r.message is not None]


async def tools_listing(channel: Channel, caps: dict[str, Any]) -> list[dict[str, Any]] | None:
    answer = await channel.request("tools/list", {"_meta": meta(caps)}, TIMEOUT_S)
    tools = (answer.result or {}).get("tools")
    return [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else None


@dataclass
class Sweep:
    """What calling every tool once gave: the slowest call, and the first listing."""

    tools: list[dict[str, Any]]
    slowest: tuple[str, float] | None = None
    bare: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    """Each tool's JSON-RPC error (None: another answer) when the client declared nothing."""


async def sweep_tools(channel: Channel, sweep: Sweep, caps: dict[str, Any], skip: set[str],
                 out: CheckOutcome) -> None:
    """Call every tool with `caps` declared; after each call, list the tools again."""
    for tool in sweep.tools:
        name = str(tool.get("name"))
        if name in skip:
            continue
        what = f"tools/call of `{name}`"
        started = time.monotonic()
        answer = await channel.request("tools/call", {"name": name, "arguments": arguments(tool),
                                                      "_meta": meta(caps)}, TIMEOUT_S)
        took = time.monotonic() - started
        if answer.response is not None and (sweep.slowest is None or took > sweep.slowest[1]):
            sweep.slowest = (name, took)
        during = received_messages(answer.during)
        requests = judge.asked(answer.result, during)
        out.add("client-capability", judge.capability_problems(
            what, caps, requests, answer.error, answer.status), name)
        if not caps:
            sweep.bare[name] = answer.error
        if "elicitation" in caps:
            out.add("elicitation-mode", judge.mode_problems(what, caps, requests), name)
            if name in sweep.bare:
                out.add("client-capability", judge.undeclared_answer(
                    what, requests, sweep.bare[name]), name)
        out.add("input-required-method", judge.input_required_problems("tools/call",
                                                                       answer.result))
        out.add("log-without-level", judge.log_problems(what, during), name)
        after = await tools_listing(channel, caps)
        if after is not None:
            difference = judge.listing_difference(sweep.tools, after)
            out.add("tools-list-varies", [f"tools/list after {what} came {difference} than "
                                          "before"] if difference else [])


async def probe_lists(channel: Channel, capabilities: dict[str, Any], out: CheckOutcome) -> None:
    methods = ["server/discover", "tools/list"]
    methods += [m for key, m in LIST_METHODS.items() if key in capabilities]
    for method in methods:
        answer = await channel.request(method, {"_meta": meta()}, TIMEOUT_S)
        out.add("input-required-method", judge.input_required_problems(method, answer.result))
        out.add("log-without-level", judge.log_problems(method, received_messages(answer.during)))


async def probe_version(channel: Channel, out: CheckOutcome) -> None:
    answer = await channel.request("tools/list", {"_meta": meta(version=UNSUPPORTED)}, TIMEOUT_S)
    out.add("unsupported-version",
            judge.version_problems(answer.error, answer.result, answer.status, UNSUPPORTED))


WANTED = {"toolsListChanged": True}


async def listen_stdio(channel: StdioChannel) -> int:
    return await channel.start("subscriptions/listen",
                               {"_meta": meta(), "notifications": WANTED})


def judge_listen(listen_id: int, answer_error: dict[str, Any] | None,
                  messages: list[dict[str, Any]], stdio: bool, out: CheckOutcome) -> None:
    if answer_error is not None and answer_error.get("code") == -32601:
        out.skip("subscriptions-listen", "the server does not implement subscriptions/listen")
        return
    out.add("subscriptions-listen", judge.subscription_problems(listen_id, WANTED, messages,
                                                                stdio))


async def listen_http(channel: HttpChannel, out: CheckOutcome) -> None:
    """Open a subscription, read its stream until acknowledged (or a few seconds), close it."""
    listen_id = 9_000_001
    params = {"_meta": meta(), "notifications": WANTED}
    body = {"jsonrpc": "2.0", "id": listen_id, "method": "subscriptions/listen",
            "params": params}
    found: list[dict[str, Any]] = []
    error: dict[str, Any] | None = None
    with anyio.move_on_after(LISTEN_WAIT_S):
        try:
            async with channel.client.stream(
                    "POST", channel.url, json=body,
                    headers=channel.headers_for("subscriptions/listen", params)) as reply:
                async for line in reply.aiter_lines():
                    text = line[5:].strip() if line.startswith("data:") else line
                    message = parse(text)
                    if message is None:
                        continue
                    if message.get("id") == listen_id and isinstance(message.get("error"), dict):
                        error = message["error"]
                        break
                    found.append(message)
                    if message.get("method") == judge.ACKNOWLEDGED:
                        break
        except httpx2.HTTPError:
            pass
    judge_listen(listen_id, error, found, False, out)


async def probe_cancel(channel: StdioChannel, sweep: Sweep, out: CheckOutcome) -> None:
    if sweep.slowest is None or sweep.slowest[1] < CANCELLABLE_S:
        out.skip("cancelled-request-answered",
                 f"no tool took {CANCELLABLE_S} s or more to answer, so none can be cancelled "
                 "in flight")
        return
    name, took = sweep.slowest
    tool = next(t for t in sweep.tools if t.get("name") == name)
    token = "mcptest-cancel"
    params = {"name": name, "arguments": arguments(tool),
              "_meta": {**meta(), "progressToken": token}}
    msg_id = await channel.start("tools/call", params)
    await channel.notify("notifications/cancelled", {"requestId": msg_id, "reason": "mcptest",
                                                     "_meta": meta()})
    since = len(channel.received)
    # the cancelled call would have answered by now; a listing after it marks the end
    with anyio.move_on_after(took * 1.5 + 0.5):
        await channel.closed.wait()
    await channel.request("tools/list", {"_meta": meta()}, TIMEOUT_S)
    later = received_messages(channel.received[since:])
    out.add("cancelled-request-answered", judge.after_cancel_problems(name, msg_id, token, later),
            name)
