"""Tier 2 of the cascade (docs/cascade.md): structural checks between the deterministic
matchers and the judges. A judged assertion of a tool test is sent only when the answer is not
an error (`isError`, JSON-RPC error) and, when the tool lists an `outputSchema`, its
`structuredContent` conforms to it. Otherwise the assertion fails here with the reason, and no
judge is paid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.grade.rows import assertion_result

if TYPE_CHECKING:
    from mcptest.grade.grader import LlmGrading
    from mcptest.plan import PlannedAssertion, PlannedTest
    from mcptest.report.models import AssertionResult

PREFIX = "structural tier: "


def structural_problem(produced: dict[str, Any], tool: dict[str, Any] | None) -> str | None:
    """Why the answer fails tier 2, or None when the judges may look at it."""
    if "error" in produced:
        err = produced["error"] if isinstance(produced["error"], dict) else {}
        return f"the tool answered with JSON-RPC error {err.get('code')}: {err.get('message')}"
    result = produced.get("result")
    if not isinstance(result, dict):
        return "the tool sent no result"
    if result.get("isError") is True:
        return "the tool answered with isError: true"
    schema = (tool or {}).get("outputSchema")
    if not isinstance(schema, dict):
        return None
    data = result.get("structuredContent")
    if data is None:
        return "the tool lists an outputSchema but sent no structuredContent"
    # imported here: jsonschema and the metaschemas are a costly import, and only a tool that
    # lists an outputSchema needs them (docs/architecture.md, "Costs")
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
    from referencing.exceptions import Unresolvable

    from mcptest.suite.schema_refs import REGISTRY

    try:
        validator = Draft202012Validator(schema, registry=REGISTRY)  # never fetches a $ref
        errors = sorted(validator.iter_errors(data), key=lambda e: e.path)
    except SchemaError as e:
        return f"the tool's own outputSchema is invalid: {e.message}"
    except Unresolvable as unresolved:
        return ("the tool's own outputSchema has a $ref that does not resolve within it: "
                f"{unresolved}")
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "(root)"
        return f"structuredContent does not conform to the tool's outputSchema at {where}: " \
               f"{first.message}"
    return None


class StructuralTier:
    """An `LlmGrading` that runs tier 2 once per answer before handing judged assertions on."""

    def __init__(self, inner: LlmGrading, produced: dict[str, Any],
                 tool: dict[str, Any] | None) -> None:
        self.inner = inner
        self.problem = structural_problem(produced, tool)

    async def grade(self, test: PlannedTest, planned: PlannedAssertion, candidate: Any,
                    response: Any = None) -> AssertionResult:
        if self.problem is None:
            return await self.inner.grade(test, planned, candidate, response)
        return assertion_result(planned, "failed", duration_ms=0.0,
                                message=PREFIX + self.problem + "; judges not sent")
