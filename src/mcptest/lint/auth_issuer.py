"""The test authorization server mcptest runs on loopback for the authorization checks
(docs/conformance.md#authorization): its own RSA signing key, its RFC 8414 metadata and its JWKS,
and the tokens it mints, good and bad, with PyJWT (no hand-written JWT code).

The server under test is configured to trust this issuer (`ISSUER/.well-known/jwks.json`); it
serves only those two documents and issues tokens only to mcptest itself.
"""

from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mcptest.errors import ServerNotReadyError

if TYPE_CHECKING:
    from collections.abc import Iterator

KID = "mcptest-conformance"
OTHER_RESOURCE = "https://mcptest-other-resource.invalid/mcp"


def _rsa_key() -> Any:
    from cryptography.hazmat.primitives.asymmetric import rsa

    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


class LoopbackIssuer:
    """Signing keys, documents and tokens of one issuer URL (`http://127.0.0.1:PORT`)."""

    def __init__(self, issuer: str) -> None:
        import jwt

        self.issuer = issuer.rstrip("/")
        self.key = _rsa_key()
        self.stranger = _rsa_key()
        """Another key under the same `kid`: its signatures do not verify."""
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        self.jwks = {"keys": [{**public, "kid": KID, "use": "sig", "alg": "RS256"}]}
        self.metadata = {
            "issuer": self.issuer, "jwks_uri": f"{self.issuer}/.well-known/jwks.json",
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token", "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"]}

    def token(self, audience: str, scopes: list[str], *, issuer: str | None = None,
              expires_in: int = 300, key: Any = None, alg: str = "RS256") -> str:
        """A JWT access token (RFC 9068 claims) with the given changes from a valid one."""
        import jwt

        now = int(time.time())
        claims = {"iss": issuer or self.issuer, "sub": "mcptest", "aud": audience,
                  "client_id": "mcptest", "iat": now - 5 if expires_in > 0 else now - 1200,
                  "exp": now + expires_in, "scope": " ".join(scopes), "jti": f"mcptest-{now}"}
        if alg == "none":
            return jwt.encode(claims, "", algorithm="none", headers={"typ": "at+jwt"})
        return jwt.encode(claims, key or self.key, algorithm=alg,
                          headers={"kid": KID, "typ": "at+jwt"})

    def documents(self) -> dict[str, dict[str, Any]]:
        return {"/.well-known/jwks.json": self.jwks,
                "/.well-known/oauth-authorization-server": self.metadata,
                "/.well-known/openid-configuration": self.metadata}


@contextmanager
def serve_issuer(issuer: LoopbackIssuer) -> Iterator[LoopbackIssuer]:
    """Serve the issuer's documents on its loopback port while the block runs."""
    documents = issuer.documents()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = documents.get(self.path.split("?", 1)[0])
            data = json.dumps(body).encode() if body is not None else b"{}"
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the server under test fetches the JWKS as often as it likes."""

    where = urlsplit(issuer.issuer)
    try:
        httpd = ThreadingHTTPServer((where.hostname or "127.0.0.1", where.port or 80), Handler)
    except OSError as e:
        raise ServerNotReadyError(
            f"lint.conformance.auth: cannot serve the test issuer at {issuer.issuer}: {e}") from e
    thread = threading.Thread(target=httpd.serve_forever, name="mcptest-issuer", daemon=True)
    thread.start()
    try:
        yield issuer
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
