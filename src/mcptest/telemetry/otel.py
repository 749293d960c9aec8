"""The OpenTelemetry side of a traced run (docs/tracing.md), imported only when the standard
`OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set: start-up is unchanged otherwise.

One trace per run: a root span, a span per suite file (`test.suite.*`) and per test
(`test.case.*`), under each test the MCP client spans of its requests (the GenAI MCP
conventions: `{mcp.method.name} {target}`, `mcp.protocol.version`, `jsonrpc.request.id`, …) and
the GenAI spans of its model calls (tokens, cost), and a `gen_ai.evaluation.result` event per
judged verdict. Each request carries its span's `traceparent` in `params._meta`, so a server
that traces (the MCP SDK's servers do) joins the test's trace. The provider is this run's own,
never the process-wide one, and every string attribute is redacted.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse
from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import Span, SpanKind, Status, StatusCode
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from mcptest.telemetry.hooks import ENDPOINT_VARIABLES

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    from mcptest.report.models import TestResult

EXPORT_TIMEOUT_S = 5.0
"""An unreachable collector holds the end of a run this long at most."""
TEXT_LIMIT = 1000
_ACTIVE: ContextVar[Span | None] = ContextVar("mcptest_test_span", default=None)
"""The span of the test whose code runs in this task (its grading tasks inherit it)."""
_PASS = {"passed": "pass", "failed": "fail", "error": "fail"}
_PROPAGATOR = TraceContextTextMapPropagator()


def traces_endpoint(env: Mapping[str, str]) -> str:
    """Where spans go: `…_TRACES_ENDPOINT` as given, else `OTEL_EXPORTER_OTLP_ENDPOINT` +
    `/v1/traces` (the OTLP/HTTP exporter's own rule)."""
    own = env.get(ENDPOINT_VARIABLES[0])
    if own:
        return own
    return env[ENDPOINT_VARIABLES[1]].rstrip("/") + "/v1/traces"


class OtelTracing:
    """One run's tracer provider, exporter and open spans."""

    def __init__(self, env: Mapping[str, str], suites: list[str], version: str,
                 redact: Callable[[str], str]) -> None:
        self._redact = redact
        name = env.get("OTEL_SERVICE_NAME") or "mcptest"
        self.provider = TracerProvider(resource=Resource.create({"service.name": name}))
        self.exporter = OTLPSpanExporter(endpoint=traces_endpoint(env), timeout=EXPORT_TIMEOUT_S)
        self.provider.add_span_processor(BatchSpanProcessor(self.exporter))
        self.tracer = self.provider.get_tracer("mcptest", version)
        self.root = self.tracer.start_span("mcptest run", attributes={
            "mcptest.suites": [self.text(s) for s in suites]})
        self._suites: dict[str, Span] = {}
        self._suite_failed: dict[str, bool] = {}
        self._tests: dict[str, Span] = {}

    def text(self, value: object) -> str:
        return self._redact(str(value))[:TEXT_LIMIT]

    # -- suites and tests ----------------------------------------------------------------------

    def _suite(self, suite_file: str) -> Span:
        span = self._suites.get(suite_file)
        if span is None:
            span = self._suites[suite_file] = self.tracer.start_span(
                f"test suite {self.text(suite_file)}",
                context=trace.set_span_in_context(self.root),
                attributes={"test.suite.name": self.text(suite_file)})
        return span

    def _start_test(self, test_id: str, name: str, suite_file: str,
                    start_time: int | None = None) -> Span:
        span = self.tracer.start_span(
            f"test {self.text(name)}", start_time=start_time,
            context=trace.set_span_in_context(self._suite(suite_file)),
            attributes={"test.case.name": self.text(test_id)})
        self._tests[test_id] = span
        return span

    @contextmanager
    def test(self, test_id: str, name: str, suite_file: str) -> Iterator[None]:
        span = self._tests.get(test_id) or self._start_test(test_id, name, suite_file)
        token = _ACTIVE.set(span)
        try:
            yield
        finally:
            _ACTIVE.reset(token)

    def finish_test(self, result: TestResult) -> None:
        span = self._tests.pop(result.id, None)
        if span is None:  # a row that ran no code of ours under a span (a server never ready)
            began = time.time_ns() - int(result.duration_ms * 1e6)
            span = self._start_test(result.id, result.name, result.suite_file, began)
            self._tests.pop(result.id)
        span.set_attributes({
            "test.case.result.status": _PASS.get(result.status, result.status),
            "mcptest.test.status": result.status, "mcptest.test.kind": result.kind,
            "mcptest.cost_usd": result.cost_usd,
            **({"mcptest.gap": result.gap} if result.gap else {}),
        })
        for a in result.assertions:
            if a.judge is not None:
                self._evaluation(span, f"{a.matcher} {a.target}", a.judge.score, a.status,
                                 next((v.reason for v in a.judge.votes if v.reason), None))
        if result.judge is not None:
            self._evaluation(span, result.kind, result.judge.score, result.status,
                             next((v.reason for v in result.judge.votes if v.reason), None))
        if result.status in ("failed", "error"):
            span.set_status(Status(StatusCode.ERROR, self.text(result.message or result.status)))
            self._suite_failed[result.suite_file] = True
        span.end()

    def _evaluation(self, span: Span, name: str, score: float | None, status: str,
                    reason: str | None) -> None:
        attributes: dict[str, Any] = {"gen_ai.evaluation.name": self.text(name),
                                      "gen_ai.evaluation.score.label": _PASS.get(status, status)}
        if score is not None:
            attributes["gen_ai.evaluation.score.value"] = score
        if reason:
            attributes["gen_ai.evaluation.explanation"] = self.text(reason)
        span.add_event("gen_ai.evaluation.result", attributes)

    def close(self, exit_code: int, interrupted: bool) -> None:
        """End every open span and send what is left (blocking: call it off the event loop)."""
        for span in self._tests.values():
            span.end()
        for suite_file, span in self._suites.items():
            status = ("aborted" if interrupted else
                      "failure" if self._suite_failed.get(suite_file) else "success")
            span.set_attribute("test.suite.run.status", status)
            span.end()
        self.root.set_attribute("mcptest.exit_code", exit_code)
        self.root.end()
        self.provider.shutdown()

    # -- MCP requests and model calls ----------------------------------------------------------

    def parent(self) -> Any:
        return trace.set_span_in_context(_ACTIVE.get() or self.root)

    def wire_tap(self, transport: str, protocol_version: Callable[[], str | None],
                 session_id: Callable[[], str | None]) -> McpClientSpans:
        return McpClientSpans(self, "pipe" if transport == "stdio" else "tcp", protocol_version,
                              session_id)

    @contextmanager
    def model_call(self, model: str) -> Iterator[ModelSpan]:
        span = self.tracer.start_span(f"chat {self.text(model)}", kind=SpanKind.CLIENT,
                                      context=self.parent(), attributes={
                                          "gen_ai.operation.name": "chat",
                                          "gen_ai.request.model": self.text(model)})
        try:
            yield ModelSpan(span)
        except BaseException as e:
            span.set_attribute("error.type", type(e).__name__)
            span.set_status(Status(StatusCode.ERROR))
            raise
        finally:
            span.end()


class ModelSpan:
    def __init__(self, span: Span) -> None:
        self.span = span

    def done(self, *, prompt_tokens: int, completion_tokens: int, cost_usd: float,
             replayed: bool) -> None:
        self.span.set_attributes({"gen_ai.usage.input_tokens": prompt_tokens,
                                  "gen_ai.usage.output_tokens": completion_tokens,
                                  "mcptest.cost_usd": cost_usd, "mcptest.replayed": replayed})


class McpClientSpans:
    """A client span per request a connection sends, ended by its answer (`hooks.WireTap`)."""

    def __init__(self, owner: OtelTracing, transport: str,
                 protocol_version: Callable[[], str | None],
                 session_id: Callable[[], str | None]) -> None:
        self._owner = owner
        self._transport = transport
        self._version = protocol_version
        self._session = session_id
        self._open: dict[str | int, Span] = {}

    def _attributes(self, method: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        text = self._owner.text
        out: dict[str, Any] = {"mcp.method.name": method, "network.transport": self._transport}
        if (version := self._version()) is not None:
            out["mcp.protocol.version"] = version
        if (session := self._session()) is not None:
            out["mcp.session.id"] = text(session)
        target = params.get("name")
        if method == "tools/call" and isinstance(target, str):
            out |= {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": text(target)}
        elif method == "prompts/get" and isinstance(target, str):
            out["gen_ai.prompt.name"] = text(target)
        elif method.startswith("resources/") and isinstance(params.get("uri"), str):
            out["mcp.resource.uri"] = text(params["uri"])
            target = None  # high cardinality: not in the span's name
        name = f"{method} {text(target)}" if isinstance(target, str) else method
        return name, out

    def sent(self, item: Any) -> None:
        message = getattr(item, "message", None)
        if not isinstance(message, JSONRPCRequest | JSONRPCNotification):
            return
        params = message.params if isinstance(message.params, dict) else {}
        name, attributes = self._attributes(message.method, params)
        if isinstance(message, JSONRPCRequest):
            attributes["jsonrpc.request.id"] = str(message.id)
        span = self._owner.tracer.start_span(name, kind=SpanKind.CLIENT,
                                             context=self._owner.parent(), attributes=attributes)
        meta = dict(params.get("_meta") or {})
        _PROPAGATOR.inject(meta, context=trace.set_span_in_context(span))
        message.params = {**params, "_meta": meta}
        if isinstance(message, JSONRPCRequest):
            self._open[message.id] = span
        else:
            span.end()  # a notification: sent is all there is

    def received(self, item: Any) -> None:
        message = getattr(item, "message", None)
        if isinstance(message, JSONRPCResponse):
            span = self._open.pop(message.id, None)
            if span is not None:
                if isinstance(message.result, dict) and message.result.get("isError") is True:
                    span.set_attribute("error.type", "tool_error")
                    span.set_status(Status(StatusCode.ERROR))
                span.end()
        elif isinstance(message, JSONRPCError) and message.id is not None:
            span = self._open.pop(message.id, None)
            if span is not None:
                code = str(message.error.code)
                span.set_attributes({"error.type": code, "rpc.response.status_code": code})
                span.set_status(Status(StatusCode.ERROR, self._owner.text(message.error.message)))
                span.end()
