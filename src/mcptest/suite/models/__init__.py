"""Input models: the shape of a suite file (docs/suites.md), one module per part of the file.

Every model forbids unknown keys. Positions (file, line, column) are not stored here: the loader
keeps them in a side table keyed by the node's path (see `mcptest.suite.load`).
"""

from mcptest.suite.models.assertion import Assertion
from mcptest.suite.models.base import (
    EnvRef,
    Strict,
)
from mcptest.suite.models.calibration import CalibrationGate
from mcptest.suite.models.cases import (
    AgentTest,
    EvalSpec,
    ToolTest,
)
from mcptest.suite.models.composite import AllMatcher, AnyMatcher, NotMatcher
from mcptest.suite.models.matcher_kinds import (
    LLM_MATCHER_KINDS,
    MATCHER_KINDS,
    MATCHERS,
    Matcher,
    MatcherKind,
    is_llm_matcher,
    matcher_kind,
)
from mcptest.suite.models.matchers import (
    ContainsMatcher,
    CustomJudgeMatcher,
    CustomJudgeSpec,
    EvalRubricMatcher,
    ExactMatcher,
    Juror,
    LlmJudgeMatcher,
    LlmJudgeSpec,
    LlmJuryMatcher,
    LlmJurySpec,
    RegexMatcher,
    SchemaMatcher,
)
from mcptest.suite.models.rubrics import (
    PRESETS,
    Aggregation,
    CalibrationExample,
    Criterion,
    EvalJudge,
    JuryConfig,
    LikertRange,
    LikertScale,
    Matrix,
    Rubric,
    RubricBody,
    RubricPreset,
    RubricRef,
    TreeLeaf,
    TreeNode,
    WhenContains,
    WhenRegex,
)
from mcptest.suite.models.selection_spec import NO_TOOL, SelectionPrompt, SelectionSpec
from mcptest.suite.models.servers import (
    BearerAuth,
    FromEnv,
    HttpSettings,
    ReadyCheck,
    RemoteServer,
    Server,
    StartSpec,
    StdioServer,
    Variable,
)
from mcptest.suite.models.suite import (
    JudgeDefaults,
    Pricing,
    Suite,
    SuiteDefaults,
)
from mcptest.suite.models.surface import (
    LintIgnore,
    LintSettings,
    SurfaceCheck,
)
from mcptest.suite.models.surface_cases import (
    LIST_METHODS,
    ListTest,
    PromptTest,
    ResourceTest,
)
from mcptest.suite.models.table import CaseFile

__all__ = [
    "LIST_METHODS",
    "LLM_MATCHER_KINDS",
    "MATCHERS",
    "MATCHER_KINDS",
    "NO_TOOL",
    "PRESETS",
    "AgentTest",
    "Aggregation",
    "AllMatcher",
    "AnyMatcher",
    "Assertion",
    "BearerAuth",
    "CalibrationExample",
    "CalibrationGate",
    "CaseFile",
    "ContainsMatcher",
    "Criterion",
    "CustomJudgeMatcher",
    "CustomJudgeSpec",
    "EnvRef",
    "EvalJudge",
    "EvalRubricMatcher",
    "EvalSpec",
    "ExactMatcher",
    "FromEnv",
    "HttpSettings",
    "JudgeDefaults",
    "Juror",
    "JuryConfig",
    "LikertRange",
    "LikertScale",
    "LintIgnore",
    "LintSettings",
    "ListTest",
    "LlmJudgeMatcher",
    "LlmJudgeSpec",
    "LlmJuryMatcher",
    "LlmJurySpec",
    "Matcher",
    "MatcherKind",
    "Matrix",
    "NotMatcher",
    "Pricing",
    "PromptTest",
    "ReadyCheck",
    "RegexMatcher",
    "RemoteServer",
    "ResourceTest",
    "Rubric",
    "RubricBody",
    "RubricPreset",
    "RubricRef",
    "SchemaMatcher",
    "SelectionPrompt",
    "SelectionSpec",
    "Server",
    "StartSpec",
    "StdioServer",
    "Strict",
    "Suite",
    "SuiteDefaults",
    "SurfaceCheck",
    "ToolTest",
    "TreeLeaf",
    "TreeNode",
    "Variable",
    "WhenContains",
    "WhenRegex",
    "is_llm_matcher",
    "matcher_kind",
]
