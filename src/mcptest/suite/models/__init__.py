"""Input models: the shape of a suite file (docs/suites.md), one module per part of the file.

Every model forbids unknown keys. Positions (file, line, column) are not stored here: the loader
keeps them in a side table keyed by the node's path (see `mcptest.suite.load`).

Names load on first use (`_LAZY`: name → its module), so that importing one module of the
package builds only that module's models: a suite of evals never builds a server's or a
matcher's model (docs/architecture.md, "Costs").
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below are, for type checkers; loaded lazily at run time
    from mcptest.suite.models.assertion import Assertion as Assertion
    from mcptest.suite.models.base import Strict as Strict
    from mcptest.suite.models.calibration import CalibrationGate as CalibrationGate
    from mcptest.suite.models.cases import AgentTest as AgentTest
    from mcptest.suite.models.cases import ToolTest as ToolTest
    from mcptest.suite.models.client import ServerClient as ServerClient
    from mcptest.suite.models.composite import AllMatcher as AllMatcher
    from mcptest.suite.models.composite import AnyMatcher as AnyMatcher
    from mcptest.suite.models.composite import NotMatcher as NotMatcher
    from mcptest.suite.models.defaults import SuiteDefaults as SuiteDefaults
    from mcptest.suite.models.eval_spec import EvalSpec as EvalSpec
    from mcptest.suite.models.judged_matchers import CustomJudgeMatcher as CustomJudgeMatcher
    from mcptest.suite.models.judged_matchers import CustomJudgeSpec as CustomJudgeSpec
    from mcptest.suite.models.judged_matchers import EvalRubricMatcher as EvalRubricMatcher
    from mcptest.suite.models.judged_matchers import Juror as Juror
    from mcptest.suite.models.judged_matchers import LlmJudgeMatcher as LlmJudgeMatcher
    from mcptest.suite.models.judged_matchers import LlmJudgeSpec as LlmJudgeSpec
    from mcptest.suite.models.judged_matchers import LlmJuryMatcher as LlmJuryMatcher
    from mcptest.suite.models.judged_matchers import LlmJurySpec as LlmJurySpec
    from mcptest.suite.models.matcher_kinds import LLM_MATCHER_KINDS as LLM_MATCHER_KINDS
    from mcptest.suite.models.matcher_kinds import MATCHER_KINDS as MATCHER_KINDS
    from mcptest.suite.models.matcher_kinds import MATCHERS as MATCHERS
    from mcptest.suite.models.matcher_kinds import Matcher as Matcher
    from mcptest.suite.models.matcher_kinds import MatcherKind as MatcherKind
    from mcptest.suite.models.matcher_kinds import is_llm_matcher as is_llm_matcher
    from mcptest.suite.models.matcher_kinds import matcher_kind as matcher_kind
    from mcptest.suite.models.matchers import ContainsMatcher as ContainsMatcher
    from mcptest.suite.models.matchers import ExactMatcher as ExactMatcher
    from mcptest.suite.models.matchers import RegexMatcher as RegexMatcher
    from mcptest.suite.models.matchers import SchemaMatcher as SchemaMatcher
    from mcptest.suite.models.rubric_criteria import Aggregation as Aggregation
    from mcptest.suite.models.rubric_criteria import CalibrationExample as CalibrationExample
    from mcptest.suite.models.rubric_criteria import Criterion as Criterion
    from mcptest.suite.models.rubric_criteria import LikertRange as LikertRange
    from mcptest.suite.models.rubric_criteria import LikertScale as LikertScale
    from mcptest.suite.models.rubric_criteria import RubricBody as RubricBody
    from mcptest.suite.models.rubric_criteria import RubricPreset as RubricPreset
    from mcptest.suite.models.rubric_criteria import TreeLeaf as TreeLeaf
    from mcptest.suite.models.rubric_criteria import TreeNode as TreeNode
    from mcptest.suite.models.rubric_criteria import WhenContains as WhenContains
    from mcptest.suite.models.rubric_criteria import WhenRegex as WhenRegex
    from mcptest.suite.models.rubrics import PRESETS as PRESETS
    from mcptest.suite.models.rubrics import EvalJudge as EvalJudge
    from mcptest.suite.models.rubrics import JuryConfig as JuryConfig
    from mcptest.suite.models.rubrics import Matrix as Matrix
    from mcptest.suite.models.rubrics import Rubric as Rubric
    from mcptest.suite.models.rubrics import RubricRef as RubricRef
    from mcptest.suite.models.selection_spec import NO_TOOL as NO_TOOL
    from mcptest.suite.models.selection_spec import SelectionPrompt as SelectionPrompt
    from mcptest.suite.models.selection_spec import SelectionSpec as SelectionSpec
    from mcptest.suite.models.servers import BearerAuth as BearerAuth
    from mcptest.suite.models.servers import EnvRef as EnvRef
    from mcptest.suite.models.servers import FromEnv as FromEnv
    from mcptest.suite.models.servers import HttpSettings as HttpSettings
    from mcptest.suite.models.servers import ReadyCheck as ReadyCheck
    from mcptest.suite.models.servers import RemoteServer as RemoteServer
    from mcptest.suite.models.servers import Server as Server
    from mcptest.suite.models.servers import StartSpec as StartSpec
    from mcptest.suite.models.servers import StdioServer as StdioServer
    from mcptest.suite.models.servers import Variable as Variable
    from mcptest.suite.models.suite import JudgeDefaults as JudgeDefaults
    from mcptest.suite.models.suite import Pricing as Pricing
    from mcptest.suite.models.suite import Suite as Suite
    from mcptest.suite.models.surface import AuthCheck as AuthCheck
    from mcptest.suite.models.surface import ConformanceSettings as ConformanceSettings
    from mcptest.suite.models.surface import LintIgnore as LintIgnore
    from mcptest.suite.models.surface import LintSettings as LintSettings
    from mcptest.suite.models.surface import SurfaceCheck as SurfaceCheck
    from mcptest.suite.models.surface_cases import LIST_METHODS as LIST_METHODS
    from mcptest.suite.models.surface_cases import ListTest as ListTest
    from mcptest.suite.models.surface_cases import PromptTest as PromptTest
    from mcptest.suite.models.surface_cases import ResourceTest as ResourceTest
    from mcptest.suite.models.table import CaseFile as CaseFile

_LAZY: dict[str, str] = {
    "AgentTest": "cases",
    "Aggregation": "rubric_criteria",
    "AllMatcher": "composite",
    "AnyMatcher": "composite",
    "Assertion": "assertion",
    "AuthCheck": "surface",
    "BearerAuth": "servers",
    "CalibrationExample": "rubric_criteria",
    "CalibrationGate": "calibration",
    "CaseFile": "table",
    "ConformanceSettings": "surface",
    "ContainsMatcher": "matchers",
    "Criterion": "rubric_criteria",
    "CustomJudgeMatcher": "judged_matchers",
    "CustomJudgeSpec": "judged_matchers",
    "EnvRef": "servers",
    "EvalJudge": "rubrics",
    "EvalRubricMatcher": "judged_matchers",
    "EvalSpec": "eval_spec",
    "ExactMatcher": "matchers",
    "FromEnv": "servers",
    "HttpSettings": "servers",
    "JudgeDefaults": "suite",
    "Juror": "judged_matchers",
    "JuryConfig": "rubrics",
    "LIST_METHODS": "surface_cases",
    "LLM_MATCHER_KINDS": "matcher_kinds",
    "LikertRange": "rubric_criteria",
    "LikertScale": "rubric_criteria",
    "LintIgnore": "surface",
    "LintSettings": "surface",
    "ListTest": "surface_cases",
    "LlmJudgeMatcher": "judged_matchers",
    "LlmJudgeSpec": "judged_matchers",
    "LlmJuryMatcher": "judged_matchers",
    "LlmJurySpec": "judged_matchers",
    "MATCHERS": "matcher_kinds",
    "MATCHER_KINDS": "matcher_kinds",
    "Matcher": "matcher_kinds",
    "MatcherKind": "matcher_kinds",
    "Matrix": "rubrics",
    "NO_TOOL": "selection_spec",
    "NotMatcher": "composite",
    "PRESETS": "rubrics",
    "Pricing": "suite",
    "PromptTest": "surface_cases",
    "ReadyCheck": "servers",
    "RegexMatcher": "matchers",
    "RemoteServer": "servers",
    "ResourceTest": "surface_cases",
    "Rubric": "rubrics",
    "RubricBody": "rubric_criteria",
    "RubricPreset": "rubric_criteria",
    "RubricRef": "rubrics",
    "SchemaMatcher": "matchers",
    "SelectionPrompt": "selection_spec",
    "SelectionSpec": "selection_spec",
    "Server": "servers",
    "ServerClient": "client",
    "StartSpec": "servers",
    "StdioServer": "servers",
    "Strict": "base",
    "Suite": "suite",
    "SuiteDefaults": "defaults",
    "SurfaceCheck": "surface",
    "ToolTest": "cases",
    "TreeLeaf": "rubric_criteria",
    "TreeNode": "rubric_criteria",
    "Variable": "servers",
    "WhenContains": "rubric_criteria",
    "WhenRegex": "rubric_criteria",
    "is_llm_matcher": "matcher_kinds",
    "matcher_kind": "matcher_kinds",
}
"""Each public name → the module of this package that defines it."""

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
    "AuthCheck",
    "BearerAuth",
    "CalibrationExample",
    "CalibrationGate",
    "CaseFile",
    "ConformanceSettings",
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
    "ServerClient",
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


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
