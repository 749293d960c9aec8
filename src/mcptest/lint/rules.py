"""Every lint and surface rule: a stable id, a one-line message, a help text and a severity.

Ids never change once published (suppressions and expected-failure files name them); each has a
section in docs/lint.md, which SARIF's `helpUri` points at.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mcptest.lint.conformance_rules import CONFORMANCE_RULES
from mcptest.report.models import LintRuleInfo
from mcptest.surface.diff import ADDITIVE, BREAKING, CHANGED

Level = Literal["error", "warning", "note"]
DOCS = "https://github.com/mcptest/action/blob/main/docs/lint.md"
CONFORMANCE_DOCS = "https://github.com/mcptest/action/blob/main/docs/conformance.md"
SPEC_SITE = "https://modelcontextprotocol.io/specification/"


@dataclass(frozen=True)
class Rule:
    id: str
    short: str
    help: str
    level: Level
    spec: str | None = None
    """The spec file and section a conformance rule checks (`2026-07-28/basic/index.mdx#...`)."""

    def info(self, level: Level | None = None) -> LintRuleInfo:
        name = "".join(p.capitalize() for p in self.id.replace("/", "-").split("-"))
        anchor = self.id.replace("/", "-")
        page = CONFORMANCE_DOCS if self.spec else DOCS
        return LintRuleInfo(id=self.id, name=name, short=self.short, help=self.help,
                            level=level or self.level, help_uri=f"{page}#{anchor}",
                            spec=self.spec, spec_url=spec_url(self.spec))


def spec_url(spec: str | None) -> str | None:
    """The published page of a spec file (`2026-07-28/basic/index.mdx#meta` → its URL)."""
    if spec is None:
        return None
    path, _, anchor = spec.partition("#")
    page = path.removesuffix(".mdx").removesuffix("/index")
    return SPEC_SITE + page + (f"#{anchor}" if anchor else "")


_LINT: list[Rule] = [
    Rule("wire-schema", "Message breaks the protocol schema",
         "A JSON-RPC message the server sent does not validate against the published schema "
         "of the negotiated protocol version (the MCP SDK's per-version wire models).", "error"),
    Rule("tool-name", "Tool name breaks the protocol's name rule",
         "Tool names should be 1-128 characters of A-Z, a-z, 0-9, `_`, `-` and `.` (SEP-986) "
         "and unique within a server.", "warning"),
    Rule("input-schema", "Input schema missing or empty",
         "Every tool should publish an `inputSchema` of `type: object` so clients and models "
         "know its arguments.", "warning"),
    Rule("description-short", "Tool description missing or too short",
         "Models choose tools by their description; an empty or very short one leads to wrong "
         "or missed calls (bound: `lint.min_description`).", "warning"),
    Rule("annotations", "Tool annotations missing",
         "The annotation profile (`lint.profile`) requires explicit hints such as `title`, "
         "`readOnlyHint` and `destructiveHint` on every tool.", "warning"),
    Rule("structured-content", "structuredContent breaks the outputSchema",
         "A tool result's `structuredContent` does not validate against the tool's "
         "`outputSchema`, or is missing although the tool declares one.", "error"),
    Rule("invalid-args", "Invalid arguments answered with a protocol error",
         "Argument validation failures must come back as a tool result with `isError: true` "
         "(SEP-1303), so the model can read the error and retry.", "error"),
    Rule("error-text", "Error text answered as a success",
         "A tool answered with text that reads as an error (\"Error: no such table\", a "
         "traceback) without `isError: true`: the model takes the failure for a result. Tool "
         "execution errors belong in results with `isError: true`.", "error"),
    Rule("invalid-cursor", "Unknown pagination cursor answered with a page",
         "A list request with a cursor the server never issued should fail with JSON-RPC error "
         "-32602 (Invalid params), not silently restart the listing.", "warning"),
    Rule("era-mismatch", "Protocol era differs from what is claimed",
         "The handshakes the server accepts (initialize, server/discover) do not match the era "
         "the suite declares in `lint.era`, or the versions its discover answer lists.",
         "error"),
    Rule("http-origin", "Request with a foreign Origin served",
         "A local Streamable HTTP server must validate the Origin header and answer 403 to an "
         "invalid one; otherwise a web page can drive it through DNS rebinding.", "error"),
    Rule("http-bind-all", "Local HTTP server listens on every interface",
         "When running locally, a server should bind 127.0.0.1 only rather than 0.0.0.0 or "
         "::, so other machines on the network cannot reach it.", "warning"),
    Rule("elicitation-secret", "Form elicitation asks for a secret",
         "Servers must not use form-mode elicitation to ask for passwords, API keys, access "
         "tokens or payment credentials: form answers pass through the client. URL mode is "
         "meant for them.", "error"),
    Rule("list-order", "tools/list order is not stable",
         "Two `tools/list` calls returned the tools in different orders; the 2026-07-28 "
         "revision asks for a deterministic order (it keeps prompt caches warm).", "warning"),
    Rule("injection-hidden-instructions", "Hidden instructions in a description",
         "The description carries instructions aimed at the model rather than describing the "
         "tool (tool poisoning; Snyk E001).", "error"),
    Rule("injection-shadowing", "Description references another server's tools",
         "The description names tools of another server of the suite or tells the model how to "
         "use other tools (tool shadowing; Snyk E002).", "error"),
    Rule("injection-shadowing-same-server", "Description gives orders about a sibling tool",
         "The description tells the model how to use another tool of the same server "
         "(\"Before using send_email, ALWAYS add ...\"): a tool rewriting how its siblings "
         "are called.", "error"),
    Rule("injection-imperative", "Description gives the model orders",
         "A strong word (always, never, must, immediately, do not) orders the model to act: "
         "call or avoid tools, tell or ask the user, or reach beyond the argument described "
         "(Snyk W001, E003). Constraints on a value (\"must be a string\") are not "
         "findings.", "warning"),
    Rule("injection-invisible-unicode", "Invisible characters in a description",
         "Zero-width, bidirectional-override or tag characters hide text from reviewers while "
         "the model still reads it.", "error"),
    Rule("strict-schema-openai", "Input schema rejected by OpenAI strict mode",
         "With `strict: true`, OpenAI function schemas need `additionalProperties: false` and "
         "every property required on each object, and reject some keywords.", "warning"),
    Rule("strict-schema-anthropic", "Input schema rejected by Anthropic tools",
         "Anthropic tool `input_schema` must be an object schema without a top-level "
         "`oneOf`/`anyOf`/`allOf`, and tool names must match `^[a-zA-Z0-9_-]{1,64}$`.",
         "warning"),
    Rule("surface-snapshot-missing", "Surface snapshot file missing",
         "The suite's `surface.snapshot` file does not exist; `mcptest lint --update` writes it "
         "(commit it).", "error"),
    Rule("expected-failure-stale", "Expected failure no longer occurs",
         "An entry of the expected-failures file matched no finding; remove it so it cannot "
         "hide a future regression.", "error"),
]

_SURFACE_HELP = {
    "breaking": "A client or model relying on the snapshot can no longer do what it did.",
    "additive": "The surface grew; nothing that worked stops working.",
    "changed": "A contract detail changed (annotation, MIME type); review it.",
}


def _surface_rules() -> list[Rule]:
    rules: list[Rule] = []
    for kind in (*BREAKING, *ADDITIVE, *CHANGED):
        severity = "breaking" if kind in BREAKING else "additive" if kind in ADDITIVE else "changed"
        level: Level = "error" if severity == "breaking" else "note"
        if kind in ("description-changed", "title-changed"):
            level, help_text = "warning", ("Text the model reads changed since the snapshot: "
                                           "check the word diff for injected instructions.")
        else:
            help_text = _SURFACE_HELP[severity]
        short = kind.replace("-", " ").capitalize()
        rules.append(Rule(f"surface/{kind}", f"{short} ({severity})", help_text, level))
    return rules


CONFORMANCE = [Rule(i, short, help_text, "error", spec)
               for i, short, help_text, spec in CONFORMANCE_RULES]
RULES: dict[str, Rule] = {r.id: r for r in (*_LINT, *CONFORMANCE, *_surface_rules())}
