"""An OTLP/HTTP trace receiver on loopback: `POST /v1/traces` bodies decoded with the
OpenTelemetry protobuf definitions (`opentelemetry-proto`), as a collector would, and kept as
plain spans for tests to walk (docs/tracing.md)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

from support.loopback import Loopback


def _value(v: AnyValue) -> Any:
    kind = v.WhichOneof("value")
    if kind == "array_value":
        return [_value(x) for x in v.array_value.values]
    return getattr(v, kind) if kind else None


@dataclass(frozen=True)
class Span:
    service: str
    name: str
    kind: int
    trace_id: str
    span_id: str
    parent_id: str
    attributes: dict[str, Any]
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    status: int = 0


class _Store(ThreadingHTTPServer):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.spans: list[Span] = []
        self.bodies: list[bytes] = []
        self.paths: list[str] = []
        self.lock = threading.Lock()


class _Handler(BaseHTTPRequestHandler):
    server: _Store

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        spans = []
        for rs in request.resource_spans:
            service = next((_value(a.value) for a in rs.resource.attributes
                            if a.key == "service.name"), "")
            for ss in rs.scope_spans:
                for s in ss.spans:
                    spans.append(Span(
                        service=service, name=s.name, kind=s.kind, trace_id=s.trace_id.hex(),
                        span_id=s.span_id.hex(), parent_id=s.parent_span_id.hex(),
                        attributes={a.key: _value(a.value) for a in s.attributes},
                        events=[(e.name, {a.key: _value(a.value) for a in e.attributes})
                                for e in s.events],
                        status=s.status.code))
        with self.server.lock:
            self.server.spans += spans
            self.server.bodies.append(body)
            self.server.paths.append(self.path)
        out = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


class OtlpReceiver(Loopback):
    """`with OtlpReceiver() as r:` … `r.endpoint` for `OTEL_EXPORTER_OTLP_ENDPOINT`, then
    `r.spans()`."""

    def __init__(self) -> None:
        super().__init__(_Store, _Handler)

    @property
    def endpoint(self) -> str:
        return self.address

    def spans(self) -> list[Span]:
        store = self._httpd
        assert isinstance(store, _Store)
        with store.lock:
            return list(store.spans)

    def raw(self) -> bytes:
        store = self._httpd
        assert isinstance(store, _Store)
        with store.lock:
            return b"".join(store.bodies)
