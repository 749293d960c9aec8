"""A stand-in for Vertex AI's Gemini API and the OAuth 2.0 token grant a service account makes
(cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.publishers.models/
generateContent; developers.google.com/identity/protocols/oauth2/service-account).

A user reaches Vertex with a service-account key file (GOOGLE_APPLICATION_CREDENTIALS),
VERTEXAI_PROJECT and VERTEXAI_LOCATION. `key_file()` writes such a file for a throwaway RSA key
generated here, whose `token_uri` is this stand-in: google-auth signs a JWT assertion with the
key and posts it (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`) to `/token`, which
checks the RS256 signature with the key's public half and the claims (`iss` the account's
email, `aud` Google's token endpoint, a `cloud-platform` scope, `iat`/`exp` an hour apart) before handing
out an access token. Model requests go to `POST /v1/projects/{project}/locations/{location}/
publishers/google/models/{model}:generateContent` (VERTEXAI_API_BASE points litellm here) with
`Authorization: Bearer <that token>`; the body and the answer are Gemini's (`gemini.py`), errors
google.rpc statuses.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from support.providers.base import Reply
from support.providers.gemini import GeminiStandIn

_PATH = re.compile(r"/v1/projects/([^/]+)/locations/([^/]+)/publishers/google/models/"
                   r"([^/:]+):generateContent")
SCOPE = "https://www.googleapis.com/auth/cloud-platform"
AUDIENCE = "https://oauth2.googleapis.com/token"
"""The assertion's `aud`: Google's token endpoint, whatever `token_uri` the request goes to."""


def _b64(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


class VertexStandIn(GeminiStandIn):
    family = "vertex_ai"
    key_env = ""
    base_env = "VERTEXAI_API_BASE"
    base_path = ""
    location = "europe-west4"
    email = "judge@mcptest-loopback.iam.gserviceaccount.com"
    project = "mcptest-loopback"

    def __init__(self) -> None:
        super().__init__()
        # litellm keeps a token per project in the process: a project of its own per stand-in
        self.project = f"mcptest-loopback-{secrets.token_hex(4)}"
        self._private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.tokens: set[str] = set()
        self.grants: list[str] = []
        """Why each refused token grant was refused."""

    def key_file(self, directory: Path) -> Path:
        """A service-account key file as the console downloads it, for this stand-in's key."""
        pem = self._private.private_bytes(serialization.Encoding.PEM,
                                          serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()).decode()
        path = directory / "service-account.json"
        path.write_text(json.dumps({
            "type": "service_account", "project_id": self.project,
            "private_key_id": "0123456789abcdef", "private_key": pem,
            "client_email": self.email, "client_id": "100000000000000000001",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": f"{self.address}/token",
            "universe_domain": "googleapis.com"}), encoding="utf-8")
        return path

    def env_with(self, key: Path) -> dict[str, str]:
        return {"GOOGLE_APPLICATION_CREDENTIALS": str(key), "VERTEXAI_PROJECT": self.project,
                "VERTEXAI_LOCATION": self.location, self.base_env: self.address}

    def grant_problem(self, raw: bytes) -> str | None:
        form = parse_qs(raw.decode())
        if form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"]:
            return "unsupported_grant_type"
        try:
            head, claims, sig = form["assertion"][0].split(".")
            header, body = json.loads(_b64(head)), json.loads(_b64(claims))
            if header.get("alg") != "RS256":
                return "invalid_grant: the assertion must be signed RS256"
            self._private.public_key().verify(_b64(sig), f"{head}.{claims}".encode(),
                                              padding.PKCS1v15(), hashes.SHA256())
        except (KeyError, ValueError, InvalidSignature):
            return "invalid_grant: Invalid JWT Signature."
        now = time.time()
        if body.get("iss") != self.email or body.get("aud") != AUDIENCE:
            return "invalid_grant: Invalid JWT: iss or aud"
        if SCOPE not in str(body.get("scope", "")).split():
            return "invalid_scope"
        if not (body.get("iat", 0) - 300 <= now <= body.get("exp", 0)) or \
                body.get("exp", 0) - body.get("iat", 0) > 3600:
            return "invalid_grant: Invalid JWT: Token must be a short-lived token (60 minutes)"
        return None

    def handle(self, path: str, headers: dict[str, str], raw: bytes) -> Reply:
        if path == "/token":
            problem = self.grant_problem(raw)
            with self._lock:
                if problem is not None:
                    self.grants.append(problem)
                    return Reply(400, {"error": problem.split(":")[0],
                                       "error_description": problem})
                token = f"ya29.loopback-{len(self.tokens)}"
                self.tokens.add(token)
            return Reply(200, {"access_token": token, "expires_in": 3599,
                               "token_type": "Bearer"})
        return super().handle(path, headers, raw)

    def model_of(self, path: str, body: dict[str, Any]) -> str | None:
        m = _PATH.fullmatch(urlsplit(path).path)
        return m.group(3) if m else None

    def check(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> list[str]:
        m = _PATH.fullmatch(urlsplit(path).path)
        assert m is not None
        out = []
        if (m.group(1), m.group(2)) != (self.project, self.location):
            out.append(f"Permission denied on resource project {m.group(1)}.")
        bearer = headers.get("authorization", "").removeprefix("Bearer ")
        with self._lock:
            known = bearer in self.tokens
        if not known:
            out.append("Request had invalid authentication credentials. Expected OAuth 2 "
                       "access token.")
        key = f"key={self.key}"
        return out + [p for p in super().check(path + ("&" if "?" in path else "?") + key,
                                               headers, body)]

    def rejection(self, problems: list[str]) -> Reply:
        status = 401 if problems[0].startswith("Request had invalid") else (
            403 if problems[0].startswith("Permission") else 400)
        return self.error(status, "; ".join(problems))
