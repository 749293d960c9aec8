"""A conforming MCP server on the official Python SDK, for the conformance checks
(docs/conformance.md): every check passes on it, over stdio and Streamable HTTP.

    python conforming_server.py                                # stdio
    python conforming_server.py --http --port 8780             # Streamable HTTP at /mcp
    python conforming_server.py --http --port 8780 --issuer http://127.0.0.1:8790 \
        [--audience-check off]                                 # bearer tokens of that issuer

Tools: `echo`, `slow` (half a second, so a call can be cancelled in flight), `confirm` (asks
the user through form elicitation: the SDK answers -32021 to a client that declares none).
With `--issuer`, tokens are verified with PyJWT against the issuer's JWKS (signature, `iss`,
`exp`, RS256 only) and the SDK's `validate_token_resource` checks the audience; `--audience-check
off` turns only that off (python-sdk PR #3447: the check is opt-in).
"""

from __future__ import annotations

import argparse
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.resolve import Elicit, Resolve
from mcp_types import ToolAnnotations
from pydantic import BaseModel

SCOPE = "mcp:tools"


class Confirmation(BaseModel):
    ok: bool


def ask() -> Elicit[Confirmation]:
    """The SDK asks through an InputRequiredResult at 2026-07-28 (a request before), and
    answers -32021 to a client that declared no form elicitation."""
    return Elicit("Go ahead?", Confirmation)


def hints(title: str) -> ToolAnnotations:
    return ToolAnnotations(title=title, read_only_hint=True, destructive_hint=False,
                           idempotent_hint=True, open_world_hint=False)


def build_server(**kwargs: Any) -> MCPServer:
    server = MCPServer("conforming", **kwargs)

    @server.tool(description="Echo the text back, unchanged.", annotations=hints("Echo"))
    def echo(text: str) -> str:
        return text

    @server.tool(description="Wait half a second, then say done.", annotations=hints("Slow"))
    async def slow(seconds: float = 0.5) -> str:
        await anyio.sleep(min(seconds, 5.0))
        return "done"

    @server.tool(description="Ask the user to confirm, then say what they chose.",
                 annotations=hints("Confirm"))
    def confirm(answer: Annotated[Confirmation, Resolve(ask)]) -> str:
        return "yes" if answer.ok else "no"

    @server.resource("memo://readme", description="A short readme.")
    def readme() -> str:
        return "hello"

    @server.prompt(description="Say hello to someone.")
    def hello(name: str) -> str:
        return f"Say hello to {name}."

    return server


def _verifier(issuer: str) -> Any:
    import jwt
    from mcp.server.auth.provider import AccessToken

    keys = jwt.PyJWKClient(f"{issuer}/.well-known/jwks.json")

    class JwtVerifier:
        """Signature, issuer, expiry; the audience is left to `validate_token_resource`."""

        async def verify_token(self, token: str) -> AccessToken | None:
            try:
                key = await anyio.to_thread.run_sync(keys.get_signing_key_from_jwt, token)
                claims = jwt.decode(token, key.key, algorithms=["RS256"], issuer=issuer,
                                    options={"verify_aud": False, "require": ["exp", "iss"]})
            except jwt.PyJWTError:
                return None
            aud = claims.get("aud")
            return AccessToken(token=token, client_id=str(claims.get("client_id", "mcptest")),
                               scopes=str(claims.get("scope", "")).split(),
                               expires_at=int(claims["exp"]),
                               resource=aud[0] if isinstance(aud, list) and aud else aud)

    return JwtVerifier()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--port", type=int, default=8780)
    parser.add_argument("--issuer")
    parser.add_argument("--audience-check", choices=["on", "off"], default="on")
    args = parser.parse_args()
    if not args.http:
        build_server().run("stdio")
        return
    kwargs: dict[str, Any] = {}
    if args.issuer:
        from mcp.server.auth.settings import AuthSettings

        kwargs["token_verifier"] = _verifier(args.issuer)
        kwargs["auth"] = AuthSettings(
            issuer_url=args.issuer, resource_server_url=f"http://127.0.0.1:{args.port}/mcp",
            required_scopes=[SCOPE], validate_token_resource=args.audience_check == "on")
    import uvicorn

    app = build_server(**kwargs).streamable_http_app()
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
