"""Reading a provider's error the way the provider writes it (no network: the bodies and
headers are the four providers' documented forms)."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from mcptest.llm.provider_errors import (
    body_in,
    duration_seconds,
    failure,
    header_hint,
    read_body,
    unreachable,
)


@pytest.mark.parametrize(("text", "seconds"), [
    ("7s", 7.0), ("1.5s", 1.5), ("6m0s", 360.0), ("20ms", 0.02), ("1h2m3s", 3723.0),
    ("soon", None), ("7", None), ("", None)])
def test_durations_as_google_and_openai_write_them(text: str, seconds: float | None) -> None:
    assert duration_seconds(text) == (pytest.approx(seconds) if seconds is not None else None)


def test_header_hints_in_the_order_providers_mean_them() -> None:
    def of(headers: dict[str, str]) -> float | None:
        return header_hint(headers.get)

    assert of({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert of({"retry-after": "9"}) == 9.0
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 < (of({"retry-after": later}) or 0) <= 30
    # OpenAI: the reset of the limit that ran out, not of the other one
    assert of({"x-ratelimit-remaining-requests": "12", "x-ratelimit-reset-requests": "1s",
               "x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "6m0s"}) == 360
    assert of({"x-ratelimit-remaining-requests": "3", "x-ratelimit-reset-requests": "1s"}) is None


def test_gemini_puts_its_retry_delay_in_the_body() -> None:
    body = {"error": {"code": 429, "message": "Quota exceeded", "status": "RESOURCE_EXHAUSTED",
                      "details": [{"@type": "type.googleapis.com/google.rpc.QuotaFailure"},
                                  {"@type": "type.googleapis.com/google.rpc.RetryInfo",
                                   "retryDelay": "37s"}]}}
    err = failure(None, read_body(body), None)
    assert (err.kind, err.status, err.retry_after) == ("rate_limit", 429, 37.0)
    assert str(err) == "rate limited (429 RESOURCE_EXHAUSTED): Quota exceeded"


def test_the_status_litellm_lost_is_read_back_from_the_body() -> None:
    """litellm reports Anthropic's 529 and Gemini's 503 as 500; the body still says so."""
    anthropic = body_in('litellm.InternalServerError: AnthropicError - {"type": "error", '
                        '"error": {"type": "overloaded_error", "message": "Overloaded"}}')
    assert str(failure(500, read_body(anthropic), None)) == \
        "server error (529 overloaded_error): Overloaded"
    gemini = body_in('geminiException - {"error": {"code": 503, "message": "The model is '
                     'overloaded.", "status": "UNAVAILABLE"}}')
    err = failure(500, read_body(gemini), None)
    assert (err.status, str(err)) == (503, "server error (503 UNAVAILABLE): The model is "
                                           "overloaded.")


def test_only_a_rejection_of_the_format_may_be_re_sent_weaker() -> None:
    def rejected(body: object, status: int = 400) -> bool:
        return failure(status, read_body(body), None).format_rejected

    assert rejected({"error": {"message": "Invalid schema for response_format 'verdict'"}})
    assert rejected({"type": "error", "error": {
        "type": "invalid_request_error",
        "message": "output_format.schema: For 'number' type, property 'minimum' is not "
                   "supported"}})
    assert rejected({"detail": [{"loc": ["body", "response_format"],
                                 "msg": "Extra inputs are not permitted"}]}, status=422)
    assert not rejected({"error": {"message": "prompt is too long: 250000 tokens"}})
    assert not rejected({"error": {"message": "Invalid schema for response_format"}}, 401)


def test_a_request_that_never_left_is_unreachable() -> None:
    refused = ConnectionError("wrapper")
    refused.__cause__ = ConnectionRefusedError(111, "Connection refused")
    err = unreachable("http://127.0.0.1:9/v1", refused)
    assert err is not None and str(err) == \
        "unreachable: http://127.0.0.1:9/v1 (connection refused)"
    dns = OSError("lookup")
    dns.__context__ = socket.gaierror(-2, "Name or service not known")
    assert "host name not found" in str(unreachable("http://nope.invalid", dns))
    assert unreachable("http://x", ConnectionResetError("reset by peer")) is None
