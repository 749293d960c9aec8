"""The conformance rules (docs/conformance.md): id, one line, help, and the spec file and
section each checks. lint/rules.py turns them into `Rule`s; all are errors.

Spec paths are files of modelcontextprotocol/modelcontextprotocol under
`docs/specification/`, anchored at the section.
"""

from __future__ import annotations

S = "2026-07-28/"

MODERN_CHECKS = ("client-capability", "input-required-method", "tools-list-varies",
                 "cancelled-request-answered", "elicitation-mode", "log-without-level",
                 "subscriptions-listen", "unsupported-version")
"""The checks of `lint.conformance` that need a 2026-07-28 server (dual-era-consistency and
stdio-stdout aside)."""

AUTH_CHECKS = ("auth-metadata", "auth-wrong-audience", "auth-wrong-issuer", "auth-expired",
               "auth-insufficient-scope", "auth-bad-signature", "auth-alg-none",
               "auth-valid-token")

CONFORMANCE_RULES: list[tuple[str, str, str, str]] = [
    ("client-capability", "Request relies on an undeclared client capability",
     "A server must not rely on capabilities the client did not declare: a request that needs "
     "one is answered with error -32021 listing it in data.requiredCapabilities (HTTP 400), "
     "and an InputRequiredResult asks only for declared capabilities.",
     S + "basic/index.mdx#meta"),
    ("input-required-method", "InputRequiredResult on a method that cannot ask for input",
     "Only tools/call, prompts/get and resources/read may be answered with an "
     "InputRequiredResult.", S + "basic/patterns/mrtr.mdx#supported-requests"),
    ("tools-list-varies", "tools/list varies per connection or after other requests",
     "The set of tools must not vary per connection or as a side effect of other requests on "
     "the connection.", S + "server/tools.mdx#capabilities"),
    ("cancelled-request-answered", "Messages sent for a cancelled request",
     "After notifications/cancelled the server must send nothing more for that request "
     "(stdio).", S + "basic/transports/stdio.mdx#cancellation"),
    ("elicitation-mode", "Elicitation in a mode the client did not declare",
     "Servers must not send elicitation requests with modes the client does not support "
     "(`elicitation: {}` declares form only).", S + "client/elicitation.mdx#capabilities"),
    ("log-without-level", "Log notifications for a request that set no log level",
     "The server must not emit notifications/message for a request whose _meta does not "
     "include io.modelcontextprotocol/logLevel.",
     S + "server/utilities/logging.mdx#per-request-log-level"),
    ("subscriptions-listen", "subscriptions/listen not acknowledged, tagged or filtered",
     "The server must acknowledge a subscription first, tag every notification on it with "
     "io.modelcontextprotocol/subscriptionId and send only the notification types asked for.",
     S + "basic/patterns/subscriptions.mdx#acknowledgment"),
    ("unsupported-version", "Unsupported protocol version not answered with -32022",
     "A request at a version the server does not implement gets "
     "UnsupportedProtocolVersionError (-32022) listing data.supported (HTTP 400).",
     S + "basic/versioning.mdx#protocol-version-negotiation"),
    ("stdio-stdout", "stdout carries something other than protocol messages",
     "A stdio server must not write anything to stdout that is not a valid MCP message (logs "
     "belong on stderr).", S + "basic/transports/stdio.mdx"),
    ("dual-era-consistency", "The two handshakes list different tools",
     "A server that answers both the initialize handshake and 2026-07-28 should list the same "
     "tools with the same schemas under both.",
     S + "basic/versioning.mdx#backward-compatibility-with-initialization-based-versions"),
    ("auth-metadata", "Protected-resource metadata missing or not pointed at",
     "A protected server answers 401 with WWW-Authenticate naming its RFC 9728 metadata "
     "(resource_metadata), which names the resource and its authorization servers.",
     S + "basic/authorization/authorization-server-discovery.mdx"
     "#protected-resource-metadata-discovery-requirements"),
    ("auth-wrong-audience", "Token issued for another resource accepted",
     "A token whose audience is another resource (RFC 8707) must be refused with 401; "
     "accepting it is how tokens are passed through.",
     S + "basic/authorization/security-considerations.mdx"
     "#token-audience-binding-and-validation"),
    ("auth-wrong-issuer", "Token from an untrusted issuer accepted",
     "A token whose iss is not the authorization server the metadata names must be refused "
     "with 401.", S + "basic/authorization/index.mdx#token-handling"),
    ("auth-expired", "Expired token accepted",
     "A token past its exp must be refused with 401 (RFC 6750 error=\"invalid_token\").",
     S + "basic/authorization/index.mdx#token-handling"),
    ("auth-insufficient-scope", "Token without the required scope not refused with 403",
     "A valid token lacking a required scope gets 403 with error=\"insufficient_scope\".",
     S + "basic/authorization/index.mdx#runtime-insufficient-scope-errors"),
    ("auth-bad-signature", "Token with a bad signature accepted",
     "A token whose signature does not verify against the issuer's keys must be refused with "
     "401.", S + "basic/authorization/index.mdx#token-handling"),
    ("auth-alg-none", "Unsigned token (alg none) accepted",
     "A token with `alg: none` must be refused with 401 (RFC 8725 §3.1: never accept "
     "unsigned tokens).", S + "basic/authorization/index.mdx#token-handling"),
    ("auth-valid-token", "Valid token refused",
     "A token with the right issuer, audience, lifetime, scope and signature is accepted.",
     S + "basic/authorization/index.mdx#access-token-usage"),
]
