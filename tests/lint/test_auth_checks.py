"""HTTP authorization tried with bad tokens (docs/conformance.md#authorization): the loopback
issuer's tokens verify as they should, and a server on the official SDK is caught accepting a
token for another resource with its audience check off, and passes every check with it on."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import httpx2
import jwt
import pytest
from support.servers import free_port

from mcptest.cli.main import main
from mcptest.lint.auth_checks import challenge
from mcptest.lint.auth_issuer import KID, OTHER_RESOURCE, LoopbackIssuer, serve_issuer
from mcptest.lint.conformance_rules import AUTH_CHECKS

SDK = str(Path(__file__).resolve().parents[1] / "support" / "conforming_server.py")
AUDIENCE = "http://127.0.0.1:1/mcp"


def decode(issuer: LoopbackIssuer, token: str, **options: Any) -> dict[str, Any]:
    key = jwt.PyJWK(issuer.jwks["keys"][0]).key
    claims: dict[str, Any] = jwt.decode(token, key, algorithms=["RS256"], audience=AUDIENCE,
                                        issuer=issuer.issuer, **options)
    return claims


def test_the_loopback_issuer_mints_each_bad_token_as_named() -> None:
    issuer = LoopbackIssuer(f"http://127.0.0.1:{free_port()}")
    good = issuer.token(AUDIENCE, ["mcp:tools"])
    assert jwt.get_unverified_header(good)["kid"] == KID
    assert decode(issuer, good)["scope"] == "mcp:tools"
    with pytest.raises(jwt.InvalidAudienceError):
        decode(issuer, issuer.token(OTHER_RESOURCE, []))
    with pytest.raises(jwt.InvalidIssuerError):
        decode(issuer, issuer.token(AUDIENCE, [], issuer="http://127.0.0.1:9/other"))
    with pytest.raises(jwt.ExpiredSignatureError):
        decode(issuer, issuer.token(AUDIENCE, [], expires_in=-600), leeway=60)
    with pytest.raises(jwt.InvalidSignatureError):
        decode(issuer, issuer.token(AUDIENCE, [], key=issuer.stranger))
    unsigned = issuer.token(AUDIENCE, [], alg="none")
    assert jwt.get_unverified_header(unsigned)["alg"] == "none"
    with pytest.raises(jwt.InvalidAlgorithmError):
        decode(issuer, unsigned)


def test_the_issuer_serves_its_metadata_and_keys() -> None:
    issuer = LoopbackIssuer(f"http://127.0.0.1:{free_port()}")
    with serve_issuer(issuer):
        keys = httpx2.get(f"{issuer.issuer}/.well-known/jwks.json").json()
        meta = httpx2.get(f"{issuer.issuer}/.well-known/oauth-authorization-server").json()
    assert meta["issuer"] == issuer.issuer and meta["jwks_uri"].endswith("/jwks.json")
    assert jwt.PyJWKClient(meta["jwks_uri"]) is not None
    assert keys == issuer.jwks and "d" not in keys["keys"][0]  # the public half only


def test_a_bearer_challenge_is_read_with_its_parameters() -> None:
    headers = httpx2.Headers({"WWW-Authenticate": 'Bearer error="insufficient_scope", '
                              'scope="mcp:tools", resource_metadata="http://h/.well-known/x"'})
    assert challenge(headers) == {"error": "insufficient_scope", "scope": "mcp:tools",
                                  "resource_metadata": "http://h/.well-known/x"}
    assert challenge(httpx2.Headers({"WWW-Authenticate": "Basic realm=x"})) is None
    assert challenge(httpx2.Headers()) is None


def lint_sdk(tmp_path: Path, audience_check: str) -> tuple[int, dict[str, Any]]:
    port, issuer_port = free_port(), free_port()
    issuer = f"http://127.0.0.1:{issuer_port}"
    suite = {"servers": {"api": {
        "url": f"http://127.0.0.1:{port}/mcp",
        "auth": {"bearer_token_env": "MCPTEST_TEST_CONFORMANCE_TOKEN"},
        "start": {"command": [sys.executable, SDK, "--http", "--port", str(port), "--issuer",
                              issuer, "--audience-check", audience_check]}}},
        "lint": {"conformance": {"auth": {"api": {"issuer": issuer, "scopes": ["mcp:tools"]}}}}}
    path = tmp_path / "suite.yml"
    path.write_text(json.dumps(suite), encoding="utf-8")
    out = tmp_path / "lint.json"
    code = main(["lint", str(path), "--reporter", "json", "--output", str(out)])
    return code, json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.slow  # starts the SDK server over HTTP
@pytest.mark.parametrize("audience_check", ["off", "on"])
def test_the_sdk_servers_audience_option_decides_the_wrong_audience_check(
        tmp_path: Path, audience_check: str) -> None:
    code, report = lint_sdk(tmp_path, audience_check)
    checks = {c["rule"]: c["status"] for c in report["lint"]["checks"]}
    errors = {f["rule"] for f in report["lint"]["findings"] if f["level"] == "error"}
    if audience_check == "off":
        assert errors == {"auth-wrong-audience"}
        (finding,) = [f for f in report["lint"]["findings"] if f["rule"] in errors]
        assert OTHER_RESOURCE in finding["message"] and "accepted" in finding["message"]
        assert code == 1
    else:
        assert errors == set()
        assert code == 0
    assert {r: checks[r] for r in AUTH_CHECKS} == {
        r: "failed" if r in errors else "passed" for r in AUTH_CHECKS}
    assert "eyJ" not in json.dumps(report)  # no token (a JWT opens so) shows in the report
