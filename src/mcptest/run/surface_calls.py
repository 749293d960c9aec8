"""What a resource, prompt or list test produces: the request it sends and the data its
assertions read (docs/suites.md#resources-prompts-and-lists).

`produce` is the resources/prompts/lists counterpart of `ServerConnection.call_tool` for the
runner: it returns the `CallOutcome` and, when the server answered, the `produced` mapping the
grader resolves targets in (`result` or `error`, plus `blob_bytes` for resource reads: the
decoded size of each `contents[i].blob`, None for text contents).
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, Any

from mcp.shared.uri_template import InvalidUriTemplate, UriTemplate

from mcptest.errors import SuiteError
from mcptest.run.listing import list_all
from mcptest.run.requests import CallOutcome
from mcptest.run.rounds import exchange
from mcptest.suite.models import LIST_METHODS, ListTest, PromptTest, ResourceTest

if TYPE_CHECKING:
    from mcptest.run.session import ServerConnection

DEFAULT_TIMEOUT_S = 30.0
SurfaceSpec = ResourceTest | PromptTest | ListTest


class TemplateError(SuiteError, ValueError):
    """A resource test's `template` is not a valid URI template."""


def resource_uri(spec: ResourceTest) -> str:
    """The URI a resource test reads: `uri`, or `template` expanded with `args` (RFC 6570)."""
    if spec.uri is not None:
        return spec.uri
    assert spec.template is not None
    try:
        return UriTemplate.parse(spec.template).expand(spec.args)
    except InvalidUriTemplate as e:
        raise TemplateError(f"invalid URI template {spec.template!r}: {e}") from None


def subject(spec: SurfaceSpec) -> str:
    """What the test addresses, for the report's `tool` column."""
    if isinstance(spec, ResourceTest):
        return spec.uri or spec.template or ""
    if isinstance(spec, PromptTest):
        return spec.prompt
    return LIST_METHODS[spec.listing]


def _blob_bytes(result: dict[str, Any]) -> list[int | None]:
    sizes: list[int | None] = []
    contents = result.get("contents")
    for item in contents if isinstance(contents, list) else []:
        blob = item.get("blob") if isinstance(item, dict) else None
        try:
            sizes.append(len(base64.b64decode(blob, validate=True))
                         if isinstance(blob, str) else None)
        except (binascii.Error, ValueError):
            sizes.append(None)
    return sizes


def produced_of(spec: SurfaceSpec, outcome: CallOutcome) -> dict[str, Any]:
    """The data the test's targets resolve in (only for an outcome with a result or error)."""
    if outcome.error is not None:
        return {"error": outcome.error}
    result = outcome.result or {}
    produced: dict[str, Any] = {"result": result}
    if isinstance(spec, ResourceTest):
        produced["blob_bytes"] = _blob_bytes(result)
    return produced


async def produce(conn: ServerConnection, spec: SurfaceSpec, *, progress: bool = False,
                  tampered: bool = False) -> CallOutcome:
    """Send the test's request (with its input rounds, run/rounds.py); every failure comes back
    as data, like `call_tool`."""
    timeout = spec.timeout or DEFAULT_TIMEOUT_S
    if isinstance(spec, ResourceTest):
        try:
            uri = resource_uri(spec)
        except TemplateError as e:
            return CallOutcome(transport_error=f"suite: {e}", duration_ms=0.0)
        return await exchange(conn, "resources/read", {"uri": uri}, timeout,
                              progress=progress, tampered=tampered)
    if isinstance(spec, PromptTest):
        return await exchange(conn, "prompts/get", {"name": spec.prompt, "arguments": spec.args},
                              timeout, progress=progress, tampered=tampered)
    return await list_all(conn, LIST_METHODS[spec.listing], timeout)
