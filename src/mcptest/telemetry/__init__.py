"""OpenTelemetry export of a run (docs/tracing.md): the hooks the runner, the connections and
the model client call (`hooks.py`, no OpenTelemetry import), and their OpenTelemetry side
(`otel.py`), imported only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set."""
