"""GitHub's published description, as the loopback GitHub server and the event files speak it.

`@octokit/openapi` (GitHub's REST description) and `@octokit/openapi-webhooks` (its webhook
payloads), pinned in tests/tools/package.json, are what every request the stand-in receives,
every answer it sends and every event file a test writes are checked against: openapi-core
validates a request and an answer against the operation's parameters, body and documented
answers; jsonschema validates an event file against its webhook's payload schema.

`shaped(schema, partial)` fills what a schema requires and a test did not say (from the
schema's `example`, else a plain value of its type, `null` where allowed), so an answer or event
is whole as GitHub's are, while the values a test sets are the ones the Action reads. What
cannot be known (not prepared by `.ci/prepare-tools.sh`) skips the test, or fails it in CI.

Three answers are allowed on every operation though not listed on each: 401 (bad credentials),
403 (no permission, as a fork's token gets) and 404 (GitHub's answer for what a token cannot
see), each with GitHub's `basic-error` body ("Troubleshooting the REST API" in GitHub's docs).
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

TOOLS = Path(__file__).resolve().parents[1] / "tools" / "node_modules" / "@octokit"
REST = TOOLS / "openapi" / "generated" / "api.github.com.json"
WEBHOOKS = TOOLS / "openapi-webhooks" / "generated" / "api.github.com.json"
HOST = "https://api.github.com"
ANY_OPERATION = (401, 403, 404)
_MISSING = object()


def _need(path: Path) -> None:
    if not path.is_file():
        message = (f"{path.relative_to(TOOLS.parents[2])} is not prepared; run "
                   "`bash .ci/prepare-tools.sh` (make test and .ci/run do)")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@functools.cache
def rest_description() -> dict[str, Any]:
    _need(REST)
    return json.loads(REST.read_text(encoding="utf-8"))


@functools.cache
def webhooks_description() -> dict[str, Any]:
    _need(WEBHOOKS)
    return json.loads(WEBHOOKS.read_text(encoding="utf-8"))


@functools.cache
def _openapi() -> Any:
    from openapi_core import Config, OpenAPI

    return OpenAPI.from_dict(rest_description(), config=Config(spec_validator_cls=None))


def resolve(node: Any, root: dict[str, Any]) -> Any:
    """`node` with its `$ref` (into `root`) followed."""
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 50:
        target: Any = root
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node, seen = target, seen + 1
    return node


def _types(schema: dict[str, Any]) -> list[str]:
    kind = schema.get("type")
    types = [kind] if isinstance(kind, str) else list(kind or [])
    if schema.get("nullable"):
        types.append("null")
    if not types and "properties" in schema:
        types = ["object"]
    return types


def _matches(schema: dict[str, Any], value: Any, root: dict[str, Any]) -> bool:
    types = _types(resolve(schema, root))
    if not types:
        return True
    python = {"object": dict, "array": list, "string": str, "boolean": bool,
              "integer": int, "number": (int, float), "null": type(None)}
    return any(isinstance(value, python[t]) and not (t in ("integer", "number")
                                                     and isinstance(value, bool))
               for t in types if t in python)


def shaped(schema: Any, value: Any = _MISSING, root: dict[str, Any] | None = None) -> Any:
    """`value` completed into an instance of `schema`: every required property it lacks filled
    (recursively), everything it has kept."""
    root = root if root is not None else rest_description()
    schema = resolve(schema, root)
    if not isinstance(schema, dict):
        return None if value is _MISSING else value
    for part in schema.get("allOf", []):
        value = shaped(part, value, root)
    options = schema.get("oneOf") or schema.get("anyOf")
    if options:
        fitting = [o for o in options if value is _MISSING or _matches(o, value, root)]
        not_null = [o for o in fitting if "null" not in _types(resolve(o, root))
                    or len(_types(resolve(o, root))) > 1]
        chosen = (not_null or fitting or options)[0]
        tag = schema.get("discriminator")
        if tag and "$ref" in chosen:  # the property that names the option, as GitHub sets it
            name = next((k for k, ref in tag.get("mapping", {}).items()
                         if ref == chosen["$ref"]), None)
            value = {**({} if value is _MISSING else value), tag["propertyName"]: name}
        return shaped(chosen, value, root)
    types = _types(schema)
    if value is _MISSING:
        if "const" in schema:
            return schema["const"]
        if schema.get("enum"):
            return next((e for e in schema["enum"] if e is not None), schema["enum"][0])
        if "example" in schema and _matches(schema, schema["example"], root):
            return schema["example"]
        if "object" in types:
            value = {}
        elif "array" in types:
            return []
        elif "null" in types:
            return None
        else:
            return _plain(schema, types)
    if isinstance(value, dict) and ("object" in types or "properties" in schema):
        props = schema.get("properties", {})
        out = {k: shaped(props[k], v, root) if k in props else v for k, v in value.items()}
        for name in schema.get("required", []):
            if name not in out:
                out[name] = shaped(props.get(name, {}), _MISSING, root)
        return out
    if isinstance(value, list) and "items" in schema:
        return [shaped(schema["items"], v, root) for v in value]
    return value


def _plain(schema: dict[str, Any], types: list[str]) -> Any:
    kind = next((t for t in types if t != "null"), "string")
    if kind == "integer":
        return max(int(schema.get("minimum", 1)), 1)
    if kind == "number":
        return 1.0
    if kind == "boolean":
        return False
    return {"date-time": "2026-11-20T10:00:00Z", "uri": "https://github.com/octo/repo",
            "email": "octocat@github.com", "uri-template": "https://github.com/octo/repo{/x}",
            "date": "2026-11-20"}.get(schema.get("format", ""), "x")


def operation_schema(method: str, path: str, status: int) -> dict[str, Any] | None:
    """The JSON schema of an operation's answer with `status` (None: no body documented)."""
    spec = rest_description()
    _, op = find_operation(method, path)
    if op is None:
        return None
    answer = op["responses"].get(str(status))
    if answer is None and status in ANY_OPERATION:
        return spec["components"]["schemas"]["basic-error"]
    answer = resolve(answer, spec)
    content = (answer or {}).get("content", {}).get("application/json")
    return None if content is None else content.get("schema")


@functools.cache
def _templates() -> list[tuple[list[str], str]]:
    return sorted(((t.strip("/").split("/"), t) for t in rest_description()["paths"]),
                  key=lambda pt: sum(p.startswith("{") for p in pt[0]))


def find_operation(method: str, path: str) -> tuple[str | None, dict[str, Any] | None]:
    """The path template and operation a request addresses (literal segments win)."""
    parts = path.strip("/").split("/")
    for template_parts, template in _templates():
        if len(template_parts) != len(parts):
            continue
        if all(t.startswith("{") or t == p for t, p in zip(template_parts, parts, strict=True)):
            op = rest_description()["paths"][template].get(method.lower())
            if op is not None:
                return template, op
    return None, None


class _Request:
    """What openapi-core reads of a request (its `Request` protocol)."""

    def __init__(self, method: str, path: str, query: str, headers: dict[str, str],
                 body: bytes | None) -> None:
        from openapi_core.datatypes import RequestParameters
        from werkzeug.datastructures import Headers, ImmutableMultiDict

        self.host_url = HOST
        self.path = path
        self.full_url_pattern = HOST + path
        self.method = method.lower()
        self.parameters = RequestParameters(
            query=ImmutableMultiDict([(k, v) for k, vs in parse_qs(query).items() for v in vs]),
            header=Headers(headers), cookie=ImmutableMultiDict(), path={})
        self.content_type = headers.get("Content-Type", "application/json").split(";")[0]
        self.body = body


class _Response:
    def __init__(self, status: int, data: bytes, headers: dict[str, str]) -> None:
        from werkzeug.datastructures import Headers

        self.status_code = status
        self.data = data
        self.headers = Headers(headers)
        self.content_type = headers.get("Content-Type", "application/json").split(";")[0]


def _explain(error: BaseException) -> str:
    """The schema errors under an openapi-core error, each with its JSON path, without the
    whole value (which can be a page of JSON)."""
    found: list[str] = []
    inner: BaseException | None = error
    while inner is not None:
        for e in getattr(inner, "schema_errors", None) or []:
            leaves = list(getattr(e, "context", None) or []) or [e]
            found += [f"{'.'.join(map(str, x.absolute_path)) or '<root>'}: {x.message[:200]}"
                      for x in leaves[:6]]
        inner = inner.__cause__
    return "; ".join(found) or f"{type(error).__name__}: {str(error)[:300]}"


def request_violation(method: str, path: str, query: str, headers: dict[str, str],
                      body: bytes | None) -> str | None:
    """Why GitHub's description does not allow this request, or None."""
    from openapi_core.exceptions import OpenAPIError

    try:
        _openapi().validate_request(_Request(method, path, query, headers, body))
    except OpenAPIError as e:
        return f"{method} {path}?{query}: {_explain(e)}"
    return None


def response_violation(method: str, path: str, query: str, status: int, data: bytes,
                       headers: dict[str, str]) -> str | None:
    """Why GitHub's description does not allow this answer, or None."""
    from openapi_core.exceptions import OpenAPIError

    _, op = find_operation(method, path)
    if op is not None and str(status) not in op["responses"] and status in ANY_OPERATION:
        import jsonschema

        schema = {**rest_description()["components"]["schemas"]["basic-error"]}
        try:
            jsonschema.validate(json.loads(data or b"null"), schema)
        except (jsonschema.ValidationError, ValueError) as e:
            return f"{method} {path} -> {status}: {str(e)[:400]}"
        return None
    request = _Request(method, path, query, {}, None)
    try:
        _openapi().validate_response(request, _Response(status, data, headers))
    except OpenAPIError as e:
        return f"{method} {path} -> {status}: {_explain(e)}"
    return None


@functools.cache
def _webhook_validator(name: str) -> Any:
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    doc = webhooks_description()
    uri = "https://github.test/webhooks.json"
    registry = Registry().with_resource(uri, Resource.from_contents(
        doc, default_specification=DRAFT202012))
    body = doc["webhooks"][name]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return jsonschema.Draft202012Validator({"$ref": uri + body["$ref"]}, registry=registry,
                                           format_checker=jsonschema.FormatChecker())


def webhook_payload(name: str, partial: dict[str, Any]) -> dict[str, Any]:
    """A whole payload of webhook `name` (e.g. `pull-request-synchronize`) with `partial`'s
    values, validated against its schema (an event file GitHub could have written)."""
    doc = webhooks_description()
    body = doc["webhooks"][name]["post"]["requestBody"]["content"]["application/json"]["schema"]
    payload = shaped(body, partial, doc)
    errors = sorted(_webhook_validator(name).iter_errors(payload), key=str)
    assert not errors, f"{name}: {[e.message for e in errors[:5]]}"
    return payload
