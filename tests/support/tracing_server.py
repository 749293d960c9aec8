"""The example server with OpenTelemetry on, as a server that traces would run: the MCP SDK's
servers open a SERVER span per request whose parent is the `traceparent` in the request's
`params._meta` (the SDK's `OpenTelemetryMiddleware`), and this script gives them a tracer
provider that exports to OTEL_EXPORTER_OTLP_ENDPOINT, one span at a time."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "server" / "example_server.py"

provider = TracerProvider(resource=Resource.create({"service.name": "example-server"}))
provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter()))
trace.set_tracer_provider(provider)
sys.argv = [str(EXAMPLE)]
runpy.run_path(str(EXAMPLE), run_name="__main__")
