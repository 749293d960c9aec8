"""What each conformance check concludes from the messages a server sent: pure functions over
recorded traffic, so every rule has true-positive and true-negative fixtures
(tests/lint/fixtures/conformance.json) beside its runs against real servers.

Each returns the problems it found, one line each; no problem means the check passed.
"""

from __future__ import annotations

import json
from typing import Any

from mcptest.lint.wire_check import INPUT_REQUIRED_METHODS

NEEDS = {"elicitation/create": "elicitation", "sampling/createMessage": "sampling",
         "roots/list": "roots"}
"""The client capability each server-to-client request needs."""
SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"
ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
FILTERED = {"notifications/tools/list_changed": "toolsListChanged",
            "notifications/prompts/list_changed": "promptsListChanged",
            "notifications/resources/list_changed": "resourcesListChanged",
            "notifications/resources/updated": "resourceSubscriptions"}
"""Notifications a `subscriptions/listen` filter selects, and the filter field of each."""


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def asked(result: dict[str, Any] | None, pushed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every server-to-client request a call drew: an InputRequiredResult's `inputRequests`,
    and requests the server pushed while answering (handshake era, stdio)."""
    found = [m for m in pushed if "method" in m and "id" in m]
    requests = (result or {}).get("inputRequests") if (result or {}).get(
        "resultType") == "input_required" else None
    if isinstance(requests, dict):
        found += [r for r in requests.values() if isinstance(r, dict)]
    return found


def capability_problems(what: str, declared: dict[str, Any], requests: list[dict[str, Any]],
                        error: dict[str, Any] | None, status: int | None) -> list[str]:
    """`client-capability`: nothing asked of a capability the client did not declare, and a
    -32021 error that lists what is missing (HTTP 400)."""
    problems: list[str] = []
    for request in requests:
        method = str(request.get("method"))
        need = NEEDS.get(method)
        if need is not None and need not in declared:
            shown = ", ".join(sorted(declared)) or "none"
            problems.append(f"{what} asked for {method} although the client declared no {need} "
                            f"capability (declared: {shown}); the spec requires error -32021")
    if error is not None and error.get("code") == -32021:
        data = error.get("data")
        required = data.get("requiredCapabilities") if isinstance(data, dict) else None
        if not isinstance(required, dict) or not required:
            problems.append(f"{what} answered -32021 without data.requiredCapabilities")
        if status is not None and status != 400:
            problems.append(f"{what} answered -32021 with HTTP {status}; the spec requires 400")
    return problems


def undeclared_answer(what: str, asked_declared: list[dict[str, Any]],
                      bare_error: dict[str, Any] | None) -> list[str]:
    """`client-capability`: a call that asks for elicitation once the client declares it must
    have been answered -32021 when the client declared nothing (a call that asked anyway is
    already a finding of `capability_problems`)."""
    if not any(r.get("method") == "elicitation/create" for r in asked_declared):
        return []
    if bare_error is not None and bare_error.get("code") == -32021:
        return []
    got = f"error {bare_error.get('code')}" if bare_error is not None else "a result"
    return [f"{what} needs elicitation (it asks once declared) but answered a client that "
            f"declared none with {got} instead of -32021"]


def declared_modes(declared: dict[str, Any]) -> set[str]:
    """The elicitation modes a capability object declares (`{}` means form only)."""
    elicitation = declared.get("elicitation")
    if not isinstance(elicitation, dict):
        return set()
    modes = {m for m in ("form", "url") if m in elicitation}
    return modes or {"form"}


def mode_problems(what: str, declared: dict[str, Any],
                  requests: list[dict[str, Any]]) -> list[str]:
    """`elicitation-mode`: elicitation only in the modes the client declared."""
    if "elicitation" not in declared:
        return []  # asking at all is client-capability's finding
    modes = declared_modes(declared)
    problems: list[str] = []
    for request in requests:
        if request.get("method") != "elicitation/create":
            continue
        params = _dict(request.get("params"))
        mode = str(params.get("mode") or "form")
        if mode not in modes:
            problems.append(f"{what} asked for {mode}-mode elicitation; the client declared "
                            f"only {', '.join(sorted(modes))}")
    return problems


def input_required_problems(method: str, result: dict[str, Any] | None) -> list[str]:
    """`input-required-method`: InputRequiredResult only on tools/call, prompts/get and
    resources/read."""
    if (result or {}).get("resultType") == "input_required" \
            and method not in INPUT_REQUIRED_METHODS:
        return [f"answered {method} with an InputRequiredResult; only "
                f"{', '.join(INPUT_REQUIRED_METHODS)} may ask for input"]
    return []


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def listing_difference(first: list[dict[str, Any]], second: list[dict[str, Any]]) -> str | None:
    """How two tools/list answers differ in tools or schemas (order aside), or None."""
    def table(tools: list[dict[str, Any]]) -> dict[str, str]:
        return {str(t.get("name")): _canonical([t.get("inputSchema"), t.get("outputSchema")])
                for t in tools if isinstance(t, dict)}

    a, b = table(first), table(second)
    gone, new = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    changed = sorted(n for n in set(a) & set(b) if a[n] != b[n])
    parts = [f"{label} {', '.join(names[:5])}" for label, names in
             (("without", gone), ("with", new), ("other schemas for", changed)) if names]
    return "; ".join(parts) or None


def log_problems(what: str, messages: list[dict[str, Any]]) -> list[str]:
    """`log-without-level`: no `notifications/message` for requests that set no log level
    (the conformance checks never set one)."""
    logs = [m for m in messages if m.get("method") == "notifications/message"]
    if not logs:
        return []
    params = _dict(logs[0].get("params"))
    return [f"{what}: {len(logs)} notifications/message without a requested log level "
            f"(first: level {params.get('level')!r})"]


def after_cancel_problems(tool: str, msg_id: Any, token: Any,
                          later: list[dict[str, Any]]) -> list[str]:
    """`cancelled-request-answered`: nothing more for a request after its cancellation."""
    for message in later:
        if "method" not in message and message.get("id") == msg_id:
            kind = "an error" if "error" in message else "a result"
            return [f"sent {kind} for tools/call of `{tool}` after notifications/cancelled"]
        params = _dict(message.get("params"))
        if message.get("method") == "notifications/progress" and token is not None \
                and params.get("progressToken") == token:
            return [f"sent progress for tools/call of `{tool}` after notifications/cancelled"]
    return []


def _sub_id(message: dict[str, Any]) -> Any:
    params = _dict(message.get("params"))
    meta = _dict(params.get("_meta"))
    return meta.get(SUBSCRIPTION_ID)


def subscription_problems(listen_id: Any, wanted: dict[str, Any],
                          messages: list[dict[str, Any]], stdio: bool) -> list[str]:
    """`subscriptions-listen`: acknowledged first with the subscription id, every
    notification on it tagged, and only the notification types asked for."""
    problems: list[str] = []
    ours = [m for m in messages if "method" in m and "id" not in m and _sub_id(m) == listen_id]
    if not ours or ours[0].get("method") != ACKNOWLEDGED:
        untagged = [m for m in messages if m.get("method") == ACKNOWLEDGED]
        problems.append("subscriptions/listen was not acknowledged first with "
                        f"_meta {SUBSCRIPTION_ID} = {listen_id!r}"
                        + (" (an acknowledgement came without that id)" if untagged else ""))
    for message in ours:
        field = FILTERED.get(str(message.get("method")))
        if field is not None and not wanted.get(field):
            problems.append(f"sent {message.get('method')} on a subscription that asked only "
                            f"for {', '.join(k for k, v in wanted.items() if v)}")
            break
    if stdio:  # one channel: an untagged list notification cannot be told apart
        for message in messages:
            if message.get("method") in FILTERED and "id" not in message \
                    and _sub_id(message) is None:
                problems.append(f"sent {message.get('method')} without _meta {SUBSCRIPTION_ID}")
                break
    return problems


def version_problems(error: dict[str, Any] | None, result: dict[str, Any] | None,
                     status: int | None, requested: str) -> list[str]:
    """`unsupported-version`: -32022 with `data.supported` for a version nobody supports."""
    if result is not None:
        return [f"answered a request at protocol version {requested} with a result instead of "
                "error -32022"]
    if error is None:
        return [f"gave no answer to a request at protocol version {requested}"]
    if error.get("code") != -32022:
        return [f"answered protocol version {requested} with error {error.get('code')} "
                "instead of -32022 (UnsupportedProtocolVersion)"]
    data = error.get("data")
    supported = data.get("supported") if isinstance(data, dict) else None
    problems: list[str] = []
    if not isinstance(supported, list) or not supported:
        problems.append("answered -32022 without the versions it supports in data.supported")
    if status is not None and status != 400:
        problems.append(f"answered -32022 with HTTP {status}; the spec requires 400")
    return problems
