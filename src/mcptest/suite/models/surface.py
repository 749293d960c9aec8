"""Suite-level `surface:` and `lint:` settings: the server's interface, checked without a key
(docs/lint.md, docs/suites.md)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from mcptest.suite.models.base import Strict
from mcptest.suite.models.client import Capability

LintProfile = Literal["claude-directory", "openai-apps", "strict"]
Era = Literal["legacy", "modern", "dual-era"]
Provider = Literal["openai", "anthropic"]


class SurfaceCheck(Strict):
    """Compare the servers' surface with a committed snapshot (`--update` rewrites it)."""

    snapshot: str = Field(min_length=1, description="Snapshot file, relative to the suite file.")
    fail_on: Literal["breaking", "any", "never"] = Field(
        default="breaking",
        description="Which changes fail: breaking ones (default), any change, or none.",
    )
    servers: list[str] | None = Field(
        default=None, description="Servers to snapshot (default: every server of the suite).")
    client_capabilities: list[list[Capability]] | None = Field(
        default=None, min_length=2,
        description="Capability sets to list the surface under, one connection each (e.g. [[], "
                    "[sampling, elicitation, roots]]); the snapshot records what appears only "
                    "under some of them (docs/lint.md#capability-matrix).")


class AuthCheck(Strict):
    """Try an HTTP server's authorization with tokens of mcptest's own loopback issuer."""

    issuer: str = Field(
        pattern=r"^http://(127\.0\.0\.1|localhost):[0-9]+$",
        description="Where mcptest runs its test authorization server (http://127.0.0.1:PORT); "
                    "configure the server under test to trust this issuer and its JWKS "
                    "(ISSUER/.well-known/jwks.json).")
    scopes: list[str] | None = Field(
        default=None,
        description="Scopes a valid token carries (default: the WWW-Authenticate challenge's "
                    "scope, else the metadata's scopes_supported).")
    resource: str | None = Field(
        default=None,
        description="The audience a valid token names (default: the metadata's `resource`, "
                    "else the server URL).")


class ConformanceSettings(Strict):
    """The 2026-07-28 conformance checks (docs/conformance.md): they call every tool."""

    skip_tools: list[str] = Field(
        default_factory=list,
        description="Tools the sweep must not call (ones that end the server or change "
                    "the world).")
    servers: list[str] | None = Field(
        default=None, description="Servers to check (default: every server of the suite).")
    auth: dict[str, AuthCheck] | None = Field(
        default=None, description="Per HTTP server: its authorization, tried with bad tokens "
                                  "of a loopback issuer mcptest runs (docs/conformance.md).")


class LintIgnore(Strict):
    """Silence one rule, everywhere or for some tools only."""

    rule: str = Field(min_length=1, description="Rule id, e.g. `annotations`.")
    tools: list[str] = Field(default_factory=list,
                             description="Only these tools (empty: every tool).")


class LintSettings(Strict):
    """How `mcptest lint` judges the suite's servers."""

    profile: LintProfile | None = Field(
        default=None,
        description="Annotation profile: claude-directory, openai-apps or strict "
                    "(default: claude-directory's requirements as warnings).",
    )
    ignore: list[str | LintIgnore] = Field(
        default_factory=list, description="Rule ids (or {rule, tools}) to suppress.")
    expected_failures: str | None = Field(
        default=None,
        description="YAML file of known findings; a listed finding that no longer occurs "
                    "fails the run.",
    )
    probe_invalid_args: bool = Field(
        default=False, description="Call each tool with invalid arguments (it calls tools).")
    call_tools: bool = Field(
        default=False,
        description="Replay the suite's tool tests to check structuredContent against "
                    "outputSchema (it calls tools).",
    )
    min_description: int = Field(default=20, ge=0, le=10_000,
                                 description="Shortest acceptable tool description.")
    era: dict[str, Era] | None = Field(
        default=None,
        description="The era each named server claims (legacy, modern or dual-era); lint "
                    "tries both handshakes and fails when the server is something else.",
    )
    conformance: ConformanceSettings | bool | None = Field(
        default=None,
        description="Run the 2026-07-28 conformance checks (docs/conformance.md); `true` or "
                    "settings. They call every tool and open more connections.")
    providers: list[Provider] | None = Field(
        default=None,
        description="Providers whose strict tool schemas to check (default: those of the "
                    "models the suite names).",
    )

    @field_validator("conformance")
    @classmethod
    def _conformance_true(cls, value: Any) -> Any:
        """`conformance: true` is every check with the defaults; `false` none."""
        if value is True:
            return ConformanceSettings()
        return None if value is False else value

    def conformance_settings(self) -> ConformanceSettings | None:
        return self.conformance if isinstance(self.conformance, ConformanceSettings) else None
