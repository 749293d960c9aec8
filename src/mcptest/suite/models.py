"""Input models: the shape of a suite file (SPEC §2–§7).

Every model forbids unknown keys. Positions (file, line, column) are not stored here: the loader
keeps them in a side table keyed by the node's path (see `mcptest.suite.load`).
"""

from __future__ import annotations

import re
import shlex
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

from mcptest.suite.durations import Duration


class Strict(BaseModel):
    """Base of every input model: unknown keys are an error."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# ---------------------------------------------------------------------------------------------
# servers

class EnvRef(Strict):
    """A value read from the environment at run time: `{env: NAME}`."""

    env: str = Field(min_length=1, description="Name of the environment variable.")


class StdioServer(Strict):
    """A server mcptest starts as a child process and speaks to over stdin/stdout."""

    command: list[str] = Field(
        min_length=1, description="argv; a string is split like a shell would split it."
    )
    env: dict[str, str | EnvRef] = Field(
        default_factory=dict, description="Extra environment for the child (literal or {env})."
    )
    inherit_env: bool | list[str] = Field(
        default=False,
        description=(
            "Which of our environment variables the child inherits besides HOME, LOGNAME, PATH, "
            "SHELL, TERM and USER: true for all, or a list of names."
        ),
    )
    cwd: str | None = Field(default=None, description="Working directory of the child.")
    protocol: Literal["auto", "legacy", "2026-07-28"] = Field(
        default="auto", description="Protocol negotiation: probe, initialize handshake, or pinned."
    )
    startup_timeout: Duration = Field(default=30.0, description="Seconds to become ready.")

    @field_validator("command", mode="before")
    @classmethod
    def _split_string(cls, v: Any) -> Any:
        if isinstance(v, str):
            return shlex.split(v)
        return v


class BearerAuth(Strict):
    bearer_token_env: str = Field(
        min_length=1, description="Name of the variable holding the token (never the token)."
    )


class HttpSettings(Strict):
    timeout: Duration = Field(default=30.0, description="Read timeout in seconds.")
    connect_timeout: Duration = Field(default=10.0, description="Connect timeout in seconds.")


class RemoteServer(Strict):
    """A server reached over Streamable HTTP (default) or legacy SSE."""

    url: str = Field(pattern=r"^https?://", description="http(s) URL of the MCP endpoint.")
    transport: Literal["streamable-http", "sse"] = "streamable-http"
    auth: BearerAuth | None = None
    headers: dict[str, str | EnvRef] = Field(default_factory=dict)
    http: HttpSettings = Field(default_factory=HttpSettings)
    protocol: Literal["auto", "legacy", "2026-07-28"] = "auto"
    startup_timeout: Duration = Field(default=30.0, description="Seconds to become ready.")


def _server_kind(v: Any) -> str | None:
    if isinstance(v, dict):
        if "command" in v:
            return "stdio"
        if "url" in v:
            return "remote"
        return None
    if isinstance(v, StdioServer):
        return "stdio"
    if isinstance(v, RemoteServer):
        return "remote"
    return None


Server = Annotated[
    Annotated[StdioServer, Tag("stdio")] | Annotated[RemoteServer, Tag("remote")],
    Discriminator(
        _server_kind,
        custom_error_type="server_kind",
        custom_error_message="a server needs either `command` (stdio) or `url` (HTTP)",
    ),
]


# ---------------------------------------------------------------------------------------------
# variables

class FromEnv(Strict):
    from_env: str = Field(min_length=1)
    default: str | int | float | bool | None = None


Variable = str | int | float | bool | FromEnv


# ---------------------------------------------------------------------------------------------
# matchers

class Juror(Strict):
    model: str = Field(min_length=1)
    base_url: str | None = None
    weight: float = Field(default=1.0, gt=0)


class LlmJudgeSpec(Strict):
    rubric: str = Field(min_length=1)
    threshold: float = Field(default=0.7, ge=0, le=1)
    model: str | None = None
    base_url: str | None = None


class LlmJurySpec(Strict):
    rubric: str = Field(min_length=1)
    jurors: list[Juror] = Field(min_length=1)
    threshold: float = Field(default=0.7, ge=0, le=1, description="Per-juror pass line.")
    quorum: float = Field(default=0.5, ge=0, le=1, description="Fraction of decisive jurors.")
    repetitions: int = Field(default=1, ge=1, le=20)
    replacements: list[Juror] = Field(default_factory=list)
    min_jurors: int | None = Field(default=None, ge=1)
    strict_panel: bool = False


class ExactMatcher(Strict):
    exact: Any


class ContainsMatcher(Strict):
    contains: Any


class RegexMatcher(Strict):
    regex: str

    @field_validator("regex")
    @classmethod
    def _compiles(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as e:
            raise ValueError(f"regex does not compile: {e}") from None
        return v


class SchemaMatcher(Strict):
    schema_: dict[str, Any] | bool = Field(alias="schema")

    @field_validator("schema_")
    @classmethod
    def _valid_schema(cls, v: dict[str, Any] | bool) -> dict[str, Any] | bool:
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError

        try:
            Draft202012Validator.check_schema(v)
        except SchemaError as e:
            raise ValueError(f"invalid JSON Schema: {e.message}") from None
        return v


class NotMatcher(Strict):
    not_: Matcher = Field(alias="not")

    @field_validator("not_")
    @classmethod
    def _deterministic_only(cls, v: Matcher) -> Matcher:
        if is_llm_matcher(v):
            raise ValueError("`not` cannot wrap an LLM matcher")
        return v


class AllMatcher(Strict):
    all: list[Matcher] = Field(min_length=1)


class AnyMatcher(Strict):
    any: list[Matcher] = Field(min_length=1)


class LlmJudgeMatcher(Strict):
    llm_judge: LlmJudgeSpec = Field(alias="llm-judge")


class LlmJuryMatcher(Strict):
    llm_jury: LlmJurySpec = Field(alias="llm-jury")


class CustomJudgeSpec(Strict):
    """A judge of your own: a Python callable or an external command speaking JSON."""

    python: str | None = Field(
        default=None, pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$",
        description="`module:function`; the module is imported (also from the suite's folder).")
    command: list[str] | None = Field(
        default=None, min_length=1,
        description="argv; reads one JSON document on stdin, prints one verdict JSON.")
    threshold: float = Field(default=0.7, ge=0, le=1,
                             description="Pass line when the verdict gives only a score.")
    timeout: Duration = Field(default=60.0, description="Seconds the judge may take.")
    rubric: str | None = Field(default=None, description="Passed to the judge in its context.")

    @field_validator("command", mode="before")
    @classmethod
    def _split_string(cls, v: Any) -> Any:
        return shlex.split(v) if isinstance(v, str) else v

    @model_validator(mode="after")
    def _one_kind(self) -> CustomJudgeSpec:
        if (self.python is None) == (self.command is None):
            raise ValueError("a custom judge needs exactly one of `python` or `command`")
        return self


class CustomJudgeMatcher(Strict):
    custom_judge: CustomJudgeSpec = Field(alias="custom-judge")


class EvalRubricMatcher(Strict):
    """Grades an agent transcript with the rubric engine of `evals:` (agents only)."""

    eval_rubric: Rubric = Field(alias="eval.rubric")


MATCHER_KINDS: tuple[str, ...] = (
    "exact", "contains", "regex", "schema", "not", "all", "any",
    "llm-judge", "llm-jury", "eval.rubric", "custom-judge",
)
LLM_MATCHER_KINDS: frozenset[str] = frozenset(
    {"llm-judge", "llm-jury", "eval.rubric", "custom-judge"}
)
"""Kinds graded in the judging tier (custom judges too, though they may call no model)."""


def _matcher_kind(v: Any) -> str | None:
    if isinstance(v, dict):
        keys = [k for k in v if k in MATCHER_KINDS]
        return keys[0] if len(v) == 1 and keys else None
    if isinstance(v, BaseModel):
        return matcher_kind(v)
    return None


Matcher = Annotated[
    Annotated[ExactMatcher, Tag("exact")]
    | Annotated[ContainsMatcher, Tag("contains")]
    | Annotated[RegexMatcher, Tag("regex")]
    | Annotated[SchemaMatcher, Tag("schema")]
    | Annotated[NotMatcher, Tag("not")]
    | Annotated[AllMatcher, Tag("all")]
    | Annotated[AnyMatcher, Tag("any")]
    | Annotated[LlmJudgeMatcher, Tag("llm-judge")]
    | Annotated[LlmJuryMatcher, Tag("llm-jury")]
    | Annotated[EvalRubricMatcher, Tag("eval.rubric")]
    | Annotated[CustomJudgeMatcher, Tag("custom-judge")],
    Discriminator(
        _matcher_kind,
        custom_error_type="matcher_kind",
        custom_error_message=(
            "a matcher is a mapping with exactly one of: " + ", ".join(MATCHER_KINDS)
        ),
    ),
]

_KIND_BY_TYPE: dict[type, str] = {
    ExactMatcher: "exact", ContainsMatcher: "contains", RegexMatcher: "regex",
    SchemaMatcher: "schema", NotMatcher: "not", AllMatcher: "all", AnyMatcher: "any",
    LlmJudgeMatcher: "llm-judge", LlmJuryMatcher: "llm-jury", EvalRubricMatcher: "eval.rubric",
    CustomJudgeMatcher: "custom-judge",
}


def matcher_kind(m: BaseModel) -> str:
    """The YAML key of a matcher model (`exact`, `llm-jury`, …)."""
    return _KIND_BY_TYPE[type(m)]


def is_llm_matcher(m: BaseModel) -> bool:
    """True when the matcher, or anything inside it, needs a model call."""
    if isinstance(m, LlmJudgeMatcher | LlmJuryMatcher | EvalRubricMatcher | CustomJudgeMatcher):
        return True
    if isinstance(m, NotMatcher):
        return is_llm_matcher(m.not_)
    if isinstance(m, AllMatcher):
        return any(is_llm_matcher(x) for x in m.all)
    if isinstance(m, AnyMatcher):
        return any(is_llm_matcher(x) for x in m.any)
    return False


class Assertion(Strict):
    target: str = Field(min_length=1, description="Path into what the test produced.")
    matcher: Matcher
    message: str | None = None


# ---------------------------------------------------------------------------------------------
# tests

class ToolTest(Strict):
    name: str = Field(min_length=1)
    server: str = Field(min_length=1)
    tool: str = Field(min_length=1)
    args: dict[str, Any] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    timeout: Duration | None = None
    expect: list[Assertion] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# rubrics and evals

class WhenContains(Strict):
    contains: str


class WhenRegex(Strict):
    regex: str

    _compiles = field_validator("regex")(RegexMatcher._compiles.__func__)  # type: ignore[attr-defined]


class CalibrationExample(Strict):
    response: str
    score: float = Field(ge=0, le=1)


class Criterion(Strict):
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    weight: float = Field(default=1.0, gt=0)
    required: bool = False
    guard: bool = False
    threshold: float | None = Field(default=None, ge=0, le=1)
    when: WhenContains | WhenRegex | None = None
    examples: list[CalibrationExample] = Field(default_factory=list)


class TreeLeaf(Strict):
    score: float = Field(ge=0, le=1)
    reason: str | None = None


class TreeNode(Strict):
    ask: str = Field(min_length=1)
    yes: TreeNode | TreeLeaf
    no: TreeNode | TreeLeaf


class LikertRange(Strict):
    min: int = 1
    max: int = 5

    @model_validator(mode="after")
    def _ordered(self) -> LikertRange:
        if self.max <= self.min:
            raise ValueError("likert max must be greater than min")
        return self


class LikertScale(Strict):
    likert: LikertRange


Aggregation = Literal["mean", "min", "max", "median", "geometric"]


class RubricBody(Strict):
    """A structured rubric: weighted criteria or a decision tree (never both)."""

    threshold: float | None = Field(default=None, ge=0, le=1)
    strict: bool = False
    aggregation: Aggregation = "mean"
    scale: Literal["percent"] | LikertScale | None = None
    require_evidence: bool = False
    criteria: list[Criterion] | None = Field(default=None, min_length=1)
    tree: TreeNode | None = None

    @model_validator(mode="after")
    def _one_form(self) -> RubricBody:
        if self.criteria is not None and self.tree is not None:
            raise ValueError("a rubric has either `criteria` or `tree`, never both")
        if self.criteria is None and self.tree is None:
            raise ValueError("a structured rubric needs `criteria` or `tree`")
        return self


class RubricRef(Strict):
    ref: str = Field(min_length=1)
    threshold: float | None = Field(default=None, ge=0, le=1)
    strict: bool | None = None


PRESETS: tuple[str, ...] = (
    "helpfulness", "groundedness", "safety", "format-adherence", "conciseness",
)


class RubricPreset(Strict):
    preset: Literal["helpfulness", "groundedness", "safety", "format-adherence", "conciseness"]
    threshold: float | None = Field(default=None, ge=0, le=1)
    criteria: list[Criterion] = Field(default_factory=list)


def _rubric_kind(v: Any) -> str | None:
    if isinstance(v, str):
        return "text"
    if isinstance(v, dict):
        if "ref" in v:
            return "ref"
        if "preset" in v:
            return "preset"
        return "body"
    return {RubricRef: "ref", RubricPreset: "preset", RubricBody: "body"}.get(type(v))


Rubric = Annotated[
    Annotated[str, Tag("text")]
    | Annotated[RubricRef, Tag("ref")]
    | Annotated[RubricPreset, Tag("preset")]
    | Annotated[RubricBody, Tag("body")],
    Discriminator(
        _rubric_kind,
        custom_error_type="rubric_kind",
        custom_error_message="a rubric is a string, {ref}, {preset} or {criteria|tree}",
    ),
]


class JuryConfig(Strict):
    size: int = Field(ge=1, le=20)
    consensus: float = Field(default=0.5, ge=0, le=1)


class EvalJudge(Strict):
    """How an eval is judged: one model, repeated samples of one model, or a panel."""

    model: str | None = None
    base_url: str | None = None
    jury: JuryConfig | None = None
    panel: list[str] | None = Field(default=None, min_length=1)
    aggregate: Literal["mean", "median", "majority"] = "mean"
    tie_break: Literal["fail", "pass"] = "fail"

    @model_validator(mode="after")
    def _panel_or_jury(self) -> EvalJudge:
        if self.panel is not None and (self.jury is not None or self.model is not None):
            raise ValueError("`panel` replaces `model` and `jury`; give one or the other")
        return self


class Matrix(Strict):
    models: list[str] = Field(default_factory=list)
    prompts: list[str] = Field(default_factory=list)


class EvalSpec(Strict):
    name: str = Field(min_length=1)
    server: str | None = None
    prompt: str = Field(min_length=1)
    response: str | None = Field(
        default=None, description="Fixed candidate; omit it to run the prompt live as an agent."
    )
    model: str | None = Field(default=None, description="Agent model for a live eval.")
    rubric: Rubric
    threshold: float | None = Field(default=None, ge=0, le=1)
    judge: EvalJudge | None = None
    matrix: Matrix | None = None
    max_turns: int = Field(default=8, ge=1, le=100)
    tags: list[str] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# agents

class AgentTest(Strict):
    name: str = Field(min_length=1)
    models: list[str] = Field(min_length=1)
    servers: list[str] = Field(min_length=1)
    prompt: str = Field(min_length=1)
    system: str | None = None
    max_turns: int = Field(default=8, ge=1, le=100)
    timeout: Duration | None = None
    tags: list[str] = Field(default_factory=list)
    expect: list[Assertion] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# judge defaults

class Pricing(Strict):
    """USD per million tokens, for models litellm has no price for."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)


class JudgeDefaults(Strict):
    model: str | None = None
    base_url: str | None = None
    timeout: Duration = 60.0
    concurrency: int = Field(default=8, ge=1, le=256)
    per_model_concurrency: int | None = Field(default=None, ge=1, le=256)
    max_tokens: int = Field(default=1024, ge=16, le=65536)
    temperature: float = Field(default=0.0, ge=0, le=2)
    pricing: dict[str, Pricing] = Field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# the suite

class Suite(Strict):
    """One suite file."""

    servers: dict[str, Server] = Field(default_factory=dict)
    variables: dict[str, Variable] = Field(default_factory=dict)
    tools: list[ToolTest] = Field(default_factory=list)
    evals: list[EvalSpec] = Field(default_factory=list)
    rubrics: dict[str, RubricBody] = Field(default_factory=dict)
    agents: list[AgentTest] = Field(default_factory=list)
    judge: JudgeDefaults | None = None


for _m in (NotMatcher, AllMatcher, AnyMatcher, EvalRubricMatcher, Assertion, TreeNode):
    _m.model_rebuild()
