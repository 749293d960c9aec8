"""A provider's failure, read the way the provider writes it: its status, its own words, where it
says to retry, and whether it refused only the structured-output format.

Both routes use it: `mcptest.llm.call` on litellm's exceptions (whose status is sometimes not
the provider's: litellm reports Anthropic's 529 and Gemini's 503 as 500, but keeps the body) and
`mcptest.llm.openai_route` on the raw response. Retry hints are read wherever a provider puts
them (docs/judges.md, "Failures and retries"): `retry-after-ms` and `retry-after` (seconds or an
HTTP date), OpenAI's `x-ratelimit-reset-*` for the limit that ran out, and Gemini's
`RetryInfo.retryDelay` in the error body. A request that never reached the endpoint (refused
connection, failed DNS lookup, connect timeout) is `unreachable`: it costs nothing. A URL in a
message is `shown_url`'s: never its userinfo (a password or token), query or fragment.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcptest.errors import ProviderError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

_FORMAT_WORDS = re.compile(
    r"response_format|json_schema|json_object|output_format|response_?schema|responseSchema|"
    r"response_?json_?schema|responseJsonSchema|response_?mime_?type|responseMimeType|"
    r"(?:compile|compiling|unsupported|invalid)\W+(?:the\W+)?json\W+schema|"
    r"json\W+schema\W+(?:is\W+)?(?:not\W+supported|unsupported|invalid)|guided_?json|"
    r"structured\W+output",
    re.IGNORECASE)
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")
_UNIT = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
_URL_SHOWN = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*://)?(?:[^\s?#]*@)?(?P<rest>[^?#]*)")


def shown_url(url: str) -> str:
    """`url` as messages show it: as written, without userinfo (`user:password@`, a token),
    query or fragment, as server URLs are shown (docs/decisions.md). Up to the last `@` before
    the query is userinfo, so a password with an unencoded `/` is cut whole too."""
    m = _URL_SHOWN.match(url)
    assert m is not None  # every part is optional: it matches any text
    return (m.group("scheme") or "") + m.group("rest")


@dataclass(frozen=True)
class ProviderFailure:
    """What the provider's error response says."""

    status: int | None
    code: str | None
    """The provider's own name for it: `overloaded_error`, `RESOURCE_EXHAUSTED` …"""
    text: str
    retry_after: float | None = None


def duration_seconds(value: str) -> float | None:
    """`7s`, `1.5s`, `6m0s`, `20ms` (Google's Duration, OpenAI's reset headers) in seconds."""
    parts = _DURATION.findall(value.strip())
    if not parts or "".join(n + u for n, u in parts) != value.strip():
        return None
    return sum(float(n) * _UNIT[u] for n, u in parts)


def header_hint(get: Callable[[str], str | None]) -> float | None:
    """Seconds to wait from the response headers, where the provider sent any."""
    if (ms := get("retry-after-ms")) is not None:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    if (value := get("retry-after")) is not None:
        try:
            return max(0.0, float(value))
        except ValueError:
            from email.utils import parsedate_to_datetime  # an HTTP date: rare, load late

            try:
                return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
            except (TypeError, ValueError):
                pass
    for limit in ("requests", "tokens"):  # OpenAI: the reset of the limit that ran out
        if get(f"x-ratelimit-remaining-{limit}") == "0":
            reset = get(f"x-ratelimit-reset-{limit}")
            if reset is not None and (seconds := duration_seconds(reset)) is not None:
                return seconds
    return None


def read_body(body: Any) -> ProviderFailure:
    """The status, code, text and retry delay an error body carries (any of the four forms:
    Anthropic's `{type: error, error: {type, message}}`, OpenAI's `{error: {message, type,
    code}}`, Google's `{error: {code, message, status, details}}`, Mistral's `{message}` or
    `{detail: [...]}`)."""
    if not isinstance(body, dict):
        return ProviderFailure(None, None, str(body)[:200] if body else "")
    err = body.get("error")
    if isinstance(err, dict):
        status = err.get("code") if isinstance(err.get("code"), int) else None
        code = err.get("status") or err.get("type") or err.get("code")
        delay = next((duration_seconds(d["retryDelay"]) for d in err.get("details") or []
                      if isinstance(d, dict) and isinstance(d.get("retryDelay"), str)), None)
        return ProviderFailure(status, str(code) if code else None,
                               str(err.get("message") or ""), delay)
    if isinstance(body.get("detail"), list):  # pydantic's 422: where, then what
        msgs = [".".join(map(str, d.get("loc") or [])) + ": " + str(d.get("msg"))
                if isinstance(d, dict) else str(d) for d in body["detail"]]
        return ProviderFailure(None, None, "; ".join(msgs))
    message = body.get("message")
    kind = body.get("type")
    return ProviderFailure(None, str(kind) if kind else None,
                           message if isinstance(message, str) else json.dumps(body)[:200])


def body_in(text: str) -> Any:
    """The JSON object litellm quotes in an exception's message (`… Exception - {…}`)."""
    start = text.find("{")
    if start < 0:
        return None
    try:
        return json.JSONDecoder().raw_decode(text, start)[0]
    except ValueError:
        return None


_OVERLOADED = {"overloaded_error": 529}


def failure(status: int | None, f: ProviderFailure, hint: float | None) -> ProviderError:
    """Our error for a provider's failure: the provider's status (the body's when the client
    lost it), its code and its words; 429 and 5xx are retried, a 4xx that names the
    structured-output format may be re-sent with a weaker one (`format_rejected`)."""
    status = f.status or _OVERLOADED.get(f.code or "") or status
    code = f" {f.code}" if f.code and f.code != str(status) else ""
    words = f": {f.text}" if f.text else ""
    retry_after = hint if hint is not None else f.retry_after
    if status == 429:
        return ProviderError("rate_limit", f"rate limited (429{code}){words}"[:300],
                             status=429, retry_after=retry_after)
    if status is not None and status >= 500:
        return ProviderError("server", f"server error ({status}{code}){words}"[:300],
                             status=status, retry_after=retry_after)
    err = ProviderError("client", f"request rejected ({status}{code}){words}"[:300],
                        status=status)
    err.format_rejected = status in (400, 422) and bool(_FORMAT_WORDS.search(f.text))
    return err


def chain_of(exc: BaseException) -> list[BaseException]:
    """`exc` and what it was raised from, outermost first (at most ten: litellm wraps deep)."""
    chain: list[BaseException] = []
    e: BaseException | None = exc
    while e is not None and len(chain) < 10:
        chain.append(e)
        e = e.__cause__ or e.__context__
    return chain


def unreachable(url: str | None, exc: BaseException) -> ProviderError | None:
    """`unreachable` when `exc` (or what caused it) says the request never left: refused,
    no such host, no route, connect timeout. None otherwise (a cut connection may be billed)."""
    import errno
    import socket

    chain = chain_of(exc)
    # litellm's aiohttp transport names any of aiohttp's OS errors httpx's ConnectError, a
    # connection reset after the request was written too: only aiohttp's own class tells
    relabelled = any(type(x).__name__ == "ClientOSError" for x in chain)
    reasons: list[tuple[int, str]] = []
    for e in chain:
        name = type(e).__name__
        if isinstance(e, ConnectionRefusedError):
            reasons.append((0, "connection refused"))
        elif isinstance(e, socket.gaierror):
            reasons.append((0, "host name not found"))
        elif isinstance(e, OSError) and e.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
            reasons.append((0, "no route to host"))
        elif name == "ConnectTimeout":
            reasons.append((1, "connect timed out"))
        elif (name in ("ConnectError", "ClientConnectorError", "ClientConnectorDNSError",
                       "ClientConnectorSSLError", "ClientConnectorCertificateError")
              and not (name == "ConnectError" and relabelled)):
            reasons.append((2, "could not connect"))  # a TLS handshake too: nothing was sent
    if not reasons:
        return None
    where = shown_url(url) if url else "the provider"
    return ProviderError("unreachable", f"unreachable: {where} ({min(reasons)[1]})")


def unformed(exc: BaseException) -> ProviderError | None:
    """`client`, never sent, when `exc` (or what caused it) says the request could not even be
    formed: a header h11 or httpx (`LocalProtocolError`) or aiohttp refuses before writing a
    byte, most often an API key pasted with its newline, or (aiohttp, under litellm) a base URL
    with credentials beside the key's `Authorization`. Never retried or billed; the words say
    what to fix and never quote the value (it is the key). None otherwise."""
    for e in chain_of(exc):
        text = str(e).lower()
        what = None
        if type(e).__name__ == "LocalProtocolError" or (
                isinstance(e, ValueError) and "control character" in text and "header" in text):
            what = ("a header value is invalid (an API key with a newline or a control "
                    "character?)" if "header value" in text or "control character" in text
                    else "it is not valid HTTP/1.1 (a header name or the base URL's path?)")
        elif isinstance(e, ValueError) and "credentials encoded in url" in text:
            what = ("the base URL holds credentials (user:password@) and the API key is sent "
                    "as the Authorization header: litellm sends only one, drop them from the URL")
        if what is not None:
            return ProviderError("client", f"the request could not be sent: {what}",
                                 unsent=True)
    return None


def container_hint(url: str | None) -> str:
    """A hint when a container is asked to reach its own loopback: the host's is elsewhere."""
    import os
    from urllib.parse import urlsplit

    host = urlsplit(url or "").hostname or ""
    if host not in ("127.0.0.1", "localhost", "::1") or not (
            os.path.exists("/.dockerenv") or os.path.exists("/run/.containerenv")):
        return ""
    return ("; inside a container that address is the container itself: run it with "
            "`--network host`, or use http://host.docker.internal:PORT with "
            "`--add-host=host.docker.internal:host-gateway` (docs/action.md)")


AWS_STATUS = {"ValidationException": 400, "AccessDeniedException": 403,
              "UnrecognizedClientException": 403, "ResourceNotFoundException": 404,
              "ModelTimeoutException": 408, "ModelErrorException": 424,
              "ThrottlingException": 429, "ModelNotReadyException": 429,
              "ServiceQuotaExceededException": 429, "InternalServerException": 500,
              "ServiceUnavailableException": 503}
"""The status AWS documents for each error type Bedrock names in `x-amzn-ErrorType`."""


def sent_status(status: int, headers: Mapping[str, str] | None) -> int:
    """The status the provider sent: litellm reports Bedrock's 500 `InternalServerException`
    as a 503, but keeps the response headers, whose `x-amzn-ErrorType` says which it was."""
    kind = next((str(v) for k, v in (headers or {}).items()
                 if str(k).lower() == "x-amzn-errortype"), "")
    return AWS_STATUS.get(kind.split(":", 1)[0], status)


def headers_of(exc: BaseException) -> Mapping[str, str] | None:
    """The response headers litellm kept on its exception, if any."""
    headers = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        headers = getattr(getattr(exc, "response", None), "headers", None)
    return headers if hasattr(headers, "get") else None
