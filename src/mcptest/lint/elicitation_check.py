"""The `elicitation-secret` rule: a form-mode elicitation that asks the user for a password, an
API key, an access token or payment credentials (docs/lint.md#elicitation-secret).

The spec forbids it (form answers pass through the client and may reach the model and its logs;
URL mode exists for this). Requests are read from the recorded wire traffic, in both eras: an
`elicitation/create` request the server pushed (handshake era), and each elicitation among the
`inputRequests` of an `InputRequiredResult` (2026-07-28). A server sends them only in answer to
calls, so the rule sees what the lint's calls (`call_tools`, `probe_invalid_args`) drew out.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

    from mcptest.lint.tool_rules import Raw
    from mcptest.run.wire import WireLog

SECRET = re.compile(
    r"pass(?:word|wd|phrase|code)|api[\s_-]?key|apikey|secret|credentials?|private[\s_-]?key|"
    r"(?:access|auth|bearer|refresh|api|session)[\s_-]?token|(?<![a-z])token(?![a-z])|"
    r"\bpin\b|card[\s_-]?number|credit[\s_-]?card|\bcvc\b|\bcvv\b|security[\s_-]?code",
    re.IGNORECASE,
)
"""Field names, titles and descriptions that ask for a secret or a credential."""
_SEGMENT = re.compile(r"[^.;:!?()\[\]]+")
_NEGATION = re.compile(r"\b(?:do not|don't|dont|never|not|no|without|avoid|instead of)\b",
                       re.IGNORECASE)


def _asks_for_secret(text: str) -> bool:
    """A secret word that the wording does not turn away: "do not give us your phone number,
    pin, or other sensitive info" (server-everything's integer field) asks for no PIN; the
    negation counts in the same sentence or parenthesis, before the word."""
    for segment in _SEGMENT.finditer(text):
        for hit in SECRET.finditer(segment.group()):
            if not _NEGATION.search(segment.group()[:hit.start()]):
                return True
    return False


def _forms(log: WireLog) -> Iterator[tuple[str, dict[str, Any]]]:
    """(how it arrived, params) of every form elicitation the server sent."""
    for message in log.messages:
        if message.kind == "request" and message.method == "elicitation/create":
            yield f"pushed elicitation/create (message #{message.index + 1})", message.body
        elif message.kind == "result":
            asks = message.body.get("inputRequests")
            for key, request in (asks.items() if isinstance(asks, dict) else []):
                if isinstance(request, dict) and request.get("method") == "elicitation/create":
                    params = request.get("params")
                    yield (f"inputRequests[{key!r}] of the {message.method} result "
                           f"(message #{message.index + 1})",
                           params if isinstance(params, dict) else {})


def _secret_fields(schema: Any) -> list[str]:
    props = schema.get("properties") if isinstance(schema, dict) else None
    found: list[str] = []
    for name, sub in (props.items() if isinstance(props, dict) else []):
        texts = [str(name)] + [str(sub.get(k)) for k in ("title", "description")
                               if isinstance(sub, dict) and sub.get(k)]
        hit = next((t for t in texts if _asks_for_secret(t)), None)
        if hit is not None:
            found.append(f"`{name}`" + (f" ({hit[:60]!r})" if hit != name else ""))
    return found


def elicitation_findings(log: WireLog | None) -> list[Raw]:
    """One finding per form elicitation that asks for a secret."""
    found: list[Raw] = []
    for where, params in _forms(log) if log else iter(()):
        if params.get("mode", "form") != "form":
            continue  # URL mode is where secrets belong
        fields = _secret_fields(params.get("requestedSchema"))
        if fields:
            message = " ".join(str(params.get("message", "")).split())[:80]
            found.append(("elicitation-secret", "error", None,
                          f"a form elicitation asks for {', '.join(fields[:4])} ({where}, "
                          f"{message!r}): servers must not ask for passwords, API keys or "
                          "tokens in form mode; use URL mode"))
    return found
