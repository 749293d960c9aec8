"""What the run calls when it is traced (docs/tracing.md). A Protocol, so `run/` and `llm/` need
no OpenTelemetry import: the pipeline hands in `otel.OtelTracing` only when the standard
`OTEL_EXPORTER_OTLP_ENDPOINT` is set, and nothing at all otherwise."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from contextlib import AbstractContextManager

    from mcptest.report.models import TestResult

ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
"""Either one turns tracing on (the OpenTelemetry SDK's own variables)."""


def wanted(env: Mapping[str, str]) -> bool:
    """Whether the environment asks for a trace."""
    return any(env.get(name) for name in ENDPOINT_VARIABLES)


class ModelNote(Protocol):
    """The span of one model request: told what it used once it is answered."""

    def done(self, *, prompt_tokens: int, completion_tokens: int, cost_usd: float,
             replayed: bool) -> None: ...


class WireTap(Protocol):
    """Sits on a connection's streams: starts a client span per request sent (and puts its
    `traceparent` in the request's `params._meta`), ends it when the answer comes back."""

    def sent(self, item: Any) -> None: ...

    def received(self, item: Any) -> None: ...


class Tracing(Protocol):
    """A traced run: suite and test spans, MCP client spans, model spans, verdict events."""

    def test(self, test_id: str, name: str, suite_file: str) -> AbstractContextManager[None]:
        """The test's span is the parent of what runs inside (its requests, its judges)."""
        ...

    def finish_test(self, result: TestResult) -> None:
        """End the test's span with its verdict and one evaluation event per judged verdict."""
        ...

    def wire_tap(self, transport: str, protocol_version: Callable[[], str | None],
                 session_id: Callable[[], str | None]) -> WireTap: ...

    def model_call(self, model: str) -> AbstractContextManager[ModelNote]: ...
