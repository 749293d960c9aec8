"""HTTP authorization tried with bad tokens (docs/conformance.md#authorization).

Without a token the server must answer 401 with a `WWW-Authenticate: Bearer` challenge naming
its protected-resource metadata (RFC 9728), which names the resource and its authorization
servers. Then one request per token of mcptest's loopback issuer (lint/auth_issuer.py): a valid
one must be served; one for another resource (RFC 8707), from another issuer, expired, with a
bad signature or unsigned (`alg: none`) refused with 401 and a Bearer challenge; one without
the required scope refused with 403 `insufficient_scope`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import httpx2

from mcptest.lint.auth_issuer import OTHER_RESOURCE, LoopbackIssuer
from mcptest.lint.conformance_probes import TIMEOUT_S, CheckOutcome
from mcptest.lint.raw_channel import HttpChannel, meta
from mcptest.run.connect import plan_remote

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.suite.models import AuthCheck, RemoteServer

PARAM = re.compile(r'([A-Za-z_]+)\s*=\s*"([^"]*)"')


def challenge(headers: httpx2.Headers) -> dict[str, str] | None:
    """The parameters of a `WWW-Authenticate: Bearer ...` header, or None without one."""
    value = headers.get("www-authenticate")
    if value is None or not value.strip().lower().startswith("bearer"):
        return None
    return {k.lower(): v for k, v in PARAM.findall(value)}


def _well_known(url: str) -> str:
    """RFC 9728 §3.1: the metadata URL for a resource with a path."""
    parts = urlsplit(url)
    path = "/.well-known/oauth-protected-resource" + (parts.path.rstrip("/") or "")
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


async def _probe(client: httpx2.AsyncClient, spec: RemoteServer, headers: dict[str, str],
                 token: str | None) -> httpx2.Response | None:
    params = {"_meta": meta()}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params}
    channel = HttpChannel(client, spec.url, headers)
    sent = channel.headers_for("tools/list", params)
    sent.pop("Authorization", None)
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    try:
        response = await client.post(spec.url, json=body, headers=sent)
        await response.aread()
        return response
    except httpx2.HTTPError:
        return None


async def _metadata(client: httpx2.AsyncClient, spec: RemoteServer,
                    reply: httpx2.Response | None, out: CheckOutcome) -> dict[str, Any]:
    """`auth-metadata`: the challenge and the metadata it points at."""
    problems: list[str] = []
    found = challenge(reply.headers) if reply is not None else None
    if reply is None or reply.status_code != 401:
        problems.append(f"a request without a token got HTTP "
                        f"{reply.status_code if reply is not None else 'no answer'}, not 401")
    elif found is None:
        problems.append("the 401 without a token carries no WWW-Authenticate: Bearer challenge")
    elif "resource_metadata" not in found:
        problems.append("the 401 challenge names no resource_metadata (RFC 9728 §5.1)")
    url = (found or {}).get("resource_metadata") or _well_known(spec.url)
    document: dict[str, Any] = {}
    try:
        answer = await client.get(url)
        value = answer.json() if answer.status_code == 200 else None
        document = value if isinstance(value, dict) else {}
        if not document:
            problems.append(f"the protected-resource metadata at {url} is not a JSON object "
                            f"(HTTP {answer.status_code})")
    except (httpx2.HTTPError, ValueError) as e:
        problems.append(f"the protected-resource metadata at {url} could not be read: {e}")
    if document:
        resource = document.get("resource")
        if not isinstance(resource, str):
            problems.append("the protected-resource metadata has no `resource`")
        elif resource.rstrip("/") != spec.url.rstrip("/"):
            problems.append(f"the metadata's resource {resource!r} is not the server's URL "
                            f"{spec.url!r} (RFC 9728 §3.3)")
        servers = document.get("authorization_servers")
        if not isinstance(servers, list) or not servers:
            problems.append("the protected-resource metadata lists no authorization_servers")
    out.add("auth-metadata", problems[:1])
    return {**document, "_scope": (found or {}).get("scope")}


def _refused(rule: str, what: str, reply: httpx2.Response | None, out: CheckOutcome,
             status: int = 401, error: str | None = None) -> None:
    if reply is None:
        out.add(rule, [f"{what}: no answer"])
        return
    found = challenge(reply.headers)
    if 200 <= reply.status_code < 300:
        out.add(rule, [f"{what} was accepted (HTTP {reply.status_code}); it must get {status}"])
    elif reply.status_code != status:
        out.add(rule, [f"{what} got HTTP {reply.status_code}; the spec requires {status}"])
    elif found is None:
        out.add(rule, [f"{what} got {status} without a WWW-Authenticate: Bearer challenge"])
    elif error is not None and found.get("error") != error:
        out.add(rule, [f"{what} got {status} with error={found.get('error')!r}, not {error!r}"])
    else:
        out.add(rule, [])


async def auth_findings(name: str, spec: RemoteServer, env: Mapping[str, str],
                        check: AuthCheck, issuer: LoopbackIssuer, out: CheckOutcome) -> None:
    """Every authorization check on one HTTP server."""
    headers = dict(plan_remote(name, spec, env).headers)
    async with httpx2.AsyncClient(timeout=TIMEOUT_S) as client:
        bare = await _probe(client, spec, headers, None)
        document = await _metadata(client, spec, bare, out)
        audience = check.resource or document.get("resource") or spec.url
        scopes = check.scopes
        if scopes is None:
            said = document.get("_scope") or " ".join(document.get("scopes_supported") or [])
            scopes = str(said).split()

        async def attempt(**changes: Any) -> httpx2.Response | None:
            token = issuer.token(changes.pop("audience", audience),
                                 changes.pop("scopes", scopes), **changes)
            return await _probe(client, spec, headers, token)

        valid = await attempt()
        if valid is None or not 200 <= valid.status_code < 300:
            status = valid.status_code if valid is not None else "no answer"
            out.add("auth-valid-token", [f"a valid token (aud {audience}, scope "
                                         f"{' '.join(scopes) or '(none)'}) got HTTP {status}"])
            for rule in ("auth-wrong-audience", "auth-wrong-issuer", "auth-expired",
                         "auth-insufficient-scope", "auth-bad-signature", "auth-alg-none"):
                out.skip(rule, "the valid token was refused, so a refusal tells nothing")
            return
        out.add("auth-valid-token", [])
        _refused("auth-wrong-audience", f"a token for another resource ({OTHER_RESOURCE})",
                 await attempt(audience=OTHER_RESOURCE), out)
        _refused("auth-wrong-issuer", "a token from another issuer",
                 await attempt(issuer="http://127.0.0.1:9/mcptest-stranger"), out)
        _refused("auth-expired", "an expired token", await attempt(expires_in=-600), out)
        _refused("auth-bad-signature", "a token with a bad signature",
                 await attempt(key=issuer.stranger), out)
        _refused("auth-alg-none", "an unsigned token (alg none)", await attempt(alg="none"), out)
        if scopes:
            _refused("auth-insufficient-scope", "a token without the scope "
                     f"{' '.join(scopes)}", await attempt(scopes=[]), out, 403,
                     "insufficient_scope")
        else:
            out.skip("auth-insufficient-scope", "the server names no required scope")
